// Uploads against the fault server: 100-continue accepted, refused and ignored; failing streams.
import Foundation
import Testing
import Wick
import WickTestSupport

struct UploadFaultTests {
    struct StreamBroke: Error {}

    /// A session that asks for 100-continue from `threshold` bytes.
    static func session(threshold: Int? = 1_024, continueTimeout: Duration = .seconds(1)) -> Session {
        makeSession {
            $0.expectContinueThreshold = threshold
            $0.continueTimeout = continueTimeout
        }
    }

    @Test func aLargeBodyWaitsFor100ContinueAndThenGoes() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 100 Continue\r\n\r\n"), .read(count: 4_096), .respond(body: "stored"),
        ])
        defer { server.stop() }
        let session = Self.session()
        let body = Data(TestPayload.bytes(count: 4_096))
        let data = try await session.upload(body, to: "http://127.0.0.1:\(server.port)/up").serializingData().value
        #expect(data == Data("stored".utf8))
        let received = server.received(onConnection: 0)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains("\r\nExpect: 100-continue\r\n"))
        #expect(Array(received.suffix(4_096)) == TestPayload.bytes(count: 4_096))
        await session.shutdown()
    }

    @Test func aRefusalBefore100ContinueSendsNoBodyAndRetiresTheConnection() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [.readRequestHead, .respond(status: 413, body: "too big"), .waitForClientClose(limit: .seconds(30))]
                : [.readRequestHead, .respond(body: "fresh")]
        }
        defer { server.stop() }
        let session = Self.session(continueTimeout: .seconds(10))
        let response = await session.upload(Data(count: 1 << 20), to: "http://127.0.0.1:\(server.port)/up")
            .serializingData().response
        #expect(response.response?.statusCode == 413)
        #expect(response.value == Data("too big".utf8))
        // The head only: the body never left.
        let received = server.received(onConnection: 0)
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("\r\n\r\n"))
        #expect(received.count < 1_024)
        // Bytes were left unsent, so the connection is not reused.
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        let next = await session.request("http://127.0.0.1:\(server.port)/next").serializingData().response
        #expect(next.value == Data("fresh".utf8) && next.metrics?.isReused == false)
        await session.shutdown()
    }

    @Test func aServerThatIgnoresTheExpectationGetsTheBodyAfterTheTimeout() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .read(count: 2_048), .respond(body: "late")])
        defer { server.stop() }
        let session = Self.session(continueTimeout: .milliseconds(200))
        let started = ContinuousClock.now
        let data = try await session.upload(Data(count: 2_048), to: "http://127.0.0.1:\(server.port)/up")
            .serializingData().value
        #expect(data == Data("late".utf8))
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        await session.shutdown()
    }

    @Test func aSmallBodyDoesNotAsk() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let session = Self.session(threshold: 1_024)
        _ = try await session.upload(Data(count: 100), to: "http://127.0.0.1:\(server.port)/up").serializingData().value
        #expect(!String(decoding: server.received(onConnection: 0), as: UTF8.self).contains("Expect:"))
        await session.shutdown()
    }

    @Test func aStreamThatFailsEndsTheRequestAndClosesTheConnection() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .waitForClientClose(limit: .seconds(30))])
        defer { server.stop() }
        let session = Self.session(threshold: nil)
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(count: 1_000))
            continuation.finish(throwing: StreamBroke())
        }
        let response = await session.upload(stream: chunks, to: "http://127.0.0.1:\(server.port)/up")
            .serializingData().response
        guard case .sessionTaskFailed(.requestBodyFailed(let reason))? = response.error else {
            Issue.record("expected requestBodyFailed, got \(String(describing: response.error))")
            return
        }
        #expect(reason.contains("StreamBroke"))
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await session.shutdown()
    }

    @Test func aStreamIsNotSentTwice() async throws {
        // The server closes after the head: a reused connection would be replayed, a fresh one
        // is a plain failure; either way the stream cannot be read a second time.
        let server = try FaultServer(steps: [.readRequest, .respond(status: 307, headers: ["Location: /again"]), .readRequestHead, .respond(body: "x")])
        defer { server.stop() }
        let session = Self.session(threshold: nil)
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("once".utf8))
            continuation.finish()
        }
        let response = await session.upload(stream: chunks, to: "http://127.0.0.1:\(server.port)/up")
            .serializingData().response
        guard case .sessionTaskFailed(.requestBodyFailed)? = response.error else {
            Issue.record("expected requestBodyFailed on the 307 hop, got \(String(describing: response.error))")
            return
        }
        await session.shutdown()
    }
}
