// A request's own timeout (`HTTPRequest.timeout`, Alamofire's `timeoutInterval`) and the deadline
// of streams and downloads, which by default have none (URLSession's resource timeout is 7 days).
import Foundation
import Testing
import Wick
import WickTestSupport

struct PerRequestTimeoutTests {
    /// A server that answers with a head and then `pieces` body bytes, one every `gap`.
    private func tricklingServer(pieces: Int, gap: Duration) throws -> FaultServer {
        var steps: [FaultStep] = [.readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: \(pieces)\r\n\r\n")]
        for _ in 0..<pieces { steps += [.pause(gap), .send("x")] }
        return try FaultServer(steps: steps)
    }

    @Test func aRequestModifiersTimeoutIntervalReplacesTheSessions() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let session = makeSession { $0.requestTimeout = .seconds(60) }
        let started = ContinuousClock.now
        let result = await session.request("http://127.0.0.1:\(server.port)/") { $0.timeoutInterval = 0.3 }
            .serializingData().result
        guard case .failure(let error) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(error.isTimeoutError && error.timeoutPhase == .waitingForResponse)
        // Generous for a loaded machine: the point is the request's 0.3 s, not the session's 60 s
        // or the server's 30 s pause.
        #expect(ContinuousClock.now - started < .seconds(20), "the request's 0.3 s, not the session's 60 s")
        await session.shutdown()
    }

    @Test func timeoutIntervalReadsBackAndNonPositiveValuesMeanAtOnce() throws {
        var request = HTTPRequest(method: .get, url: URL(string: "http://example.com/")!, headers: [:], body: nil)
        #expect(request.timeoutInterval == nil && request.timeout == nil)
        request.timeoutInterval = 2.5
        #expect(request.timeout == .milliseconds(2_500) && request.timeoutInterval == 2.5)
        request.timeoutInterval = -1
        #expect(request.timeout == .zero)
        request.timeoutInterval = .infinity
        #expect(request.timeout == .zero)
        request.timeoutInterval = nil
        #expect(request.timeout == nil)
    }

    @Test func aStreamOutlivesTheSessionsRequestTimeoutWhileBytesKeepComing() async throws {
        let server = try tricklingServer(pieces: 8, gap: .milliseconds(150))
        defer { server.stop() }
        let session = makeSession {
            $0.requestTimeout = .milliseconds(400)
            $0.idleTransferTimeout = .seconds(5)
        }
        var received = 0
        for try await chunk in session.streamRequest("http://127.0.0.1:\(server.port)/").streamingData() {
            received += chunk.count
        }
        #expect(received == 8)
        await session.shutdown()
    }

    @Test func aDownloadOutlivesTheSessionsRequestTimeoutWhileBytesKeepComing() async throws {
        let server = try tricklingServer(pieces: 8, gap: .milliseconds(150))
        defer { server.stop() }
        let session = makeSession {
            $0.requestTimeout = .milliseconds(400)
            $0.idleTransferTimeout = .seconds(5)
        }
        let file = try await session.download("http://127.0.0.1:\(server.port)/").serializingDownloadedFileURL().value
        #expect(try Data(contentsOf: file) == Data(repeating: UInt8(ascii: "x"), count: 8))
        try? FileManager.default.removeItem(at: file)
        await session.shutdown()
    }

    @Test func streamAndDownloadTimeoutBoundsAStreamWhenSet() async throws {
        let server = try tricklingServer(pieces: 20, gap: .milliseconds(150))
        defer { server.stop() }
        let session = makeSession {
            $0.streamAndDownloadTimeout = .milliseconds(500)
            $0.idleTransferTimeout = .seconds(5)
        }
        do {
            for try await _ in session.streamRequest("http://127.0.0.1:\(server.port)/").streamingData() {}
            Issue.record("the stream ended without its timeout")
        } catch {
            #expect(error.isTimeoutError && error.timeoutPhase == .receivingResponse)
        }
        await session.shutdown()
    }

    @Test func aStreamsOwnTimeoutReplacesTheSessionsNone() async throws {
        let server = try tricklingServer(pieces: 20, gap: .milliseconds(150))
        defer { server.stop() }
        let session = makeSession { $0.idleTransferTimeout = .seconds(5) }
        do {
            let stream = session.streamRequest("http://127.0.0.1:\(server.port)/") { $0.timeout = .milliseconds(500) }
            for try await _ in stream.streamingData() {}
            Issue.record("the stream ended without its timeout")
        } catch {
            #expect(error.isTimeoutError)
        }
        await session.shutdown()
    }
}
