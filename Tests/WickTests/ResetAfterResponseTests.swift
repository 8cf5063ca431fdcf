// A server that answers and then resets the connection: what it sent before the reset is still
// the caller's. Linux keeps bytes that arrived before a reset readable, so a client that reads
// before it reports the error loses nothing; one that looks at the error first drops the answer
// (a server closing with unread request bytes sends a reset, RFC 9112 §9.6's reason for a
// lingering close). Each case runs several times: whether the reset arrives in the same wake-up
// as the answer is up to the scheduler.
import Foundation
import Testing
import Wick
import WickTestSupport

struct ResetAfterResponseTests {
    @Test func aWholeResponseFollowedByAResetSucceeds() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "answered"), .reset])
        defer { server.stop() }
        let session = makeSession()
        for attempt in 0..<20 {
            let response = await session.request("http://127.0.0.1:\(server.port)/\(attempt)").serializingData()
                .response
            #expect(response.value == Data("answered".utf8), "attempt \(attempt): \(response.result)")
        }
        // Each answer's connection was reset: none is reused, none is sent twice.
        #expect(server.acceptedConnections == 20)
        await session.shutdown()
    }

    /// RFC 9110 §15.5.14 (413 Content Too Large): the server may refuse an upload before reading
    /// its body and close the connection. The client is still writing, so its write fails; the
    /// refusal waiting in its socket is still the answer.
    @Test func anUploadRefusedEarlyAndResetGetsTheRefusal() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(status: 413, body: "too big", close: true), .reset,
        ])
        defer { server.stop() }
        let session = makeSession { $0.expectContinueThreshold = nil }
        for attempt in 0..<5 {
            let response = await session.upload(Data(count: 8 << 20), to: "http://127.0.0.1:\(server.port)/up")
                .serializingData().response
            #expect(response.response?.statusCode == 413, "attempt \(attempt): \(response.result)")
            #expect(response.value == Data("too big".utf8))
        }
        await session.shutdown()
    }

    /// `ReplayPolicy` replays only a request that got no response byte. A reset behind half a
    /// response must not hide that half, or the request would be sent again.
    @Test func halfAResponseBeforeAResetOnAReusedConnectionIsNotReplayed() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"
        let server = try FaultServer { index in
            index == 0
                ? [
                    .readRequest, .respond(body: "first"), .readRequest,
                    .send(head + String(repeating: "x", count: 50)), .reset,
                ]
                : [.readRequest, .respond(body: "replayed")]
        }
        defer { server.stop() }
        let session = makeSession()
        let first = await session.request("http://127.0.0.1:\(server.port)/first").serializingData().response
        #expect(first.value == Data("first".utf8))
        let second = await session.request("http://127.0.0.1:\(server.port)/second").serializingData().response
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = second.result else {
            Issue.record("expected a lost connection, got \(second.result)")
            return
        }
        #expect(loss.cause == .reset)
        #expect(server.acceptedConnections == 1, "the request was sent again")
        await session.shutdown()
    }
}
