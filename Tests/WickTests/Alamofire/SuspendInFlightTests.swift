// suspend() pauses a transfer in flight (the connection stops reading, kept open) and resume()
// continues it, as suspending Alamofire's URLSessionTask does.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SuspendInFlightTests {
    @Test func aSuspendedRequestReadsNothingUntilResumedThenEndsWithTheWholeBody() async throws {
        // The body comes 2 s after the head.
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n"), .pause(.seconds(2)),
            .send(String(repeating: "x", count: 30)), .waitForClientClose(limit: .seconds(20)),
        ])
        defer { server.stop() }
        let session = makeSession { $0.idleTransferTimeout = nil }
        let request = session.request("http://127.0.0.1:\(server.port)/")
        // Suspended from the head's handler (a dispatch queue, never starved like the test's
        // task on a loaded machine): before the body can come.
        let sawHead = Shared(false)
        request.onHTTPResponse { [request] _ in
            request.suspend()
            sawHead.withLock { $0 = true }
        }
        let task = request.serializingString()
        #expect(try await waitUntil { sawHead.withLock { $0 } })
        // Past the server's send: a reading client would be done.
        try await Task.sleep(for: .milliseconds(3_000))
        #expect(request.state == .suspended, "\(request.state) \(String(describing: request.error))")
        request.resume()
        let response = await task.response
        #expect(response.value == String(repeating: "x", count: 30))
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func aSuspendedStreamStopsItsChunksAndResumesWhereItWas() async throws {
        let nginx = try TestEnvironment.nginx()
        // Paused time is not idle time: suspended for 0.6 s, far past this idle timeout.
        let session = makeSession { $0.idleTransferTimeout = .milliseconds(200) }
        let received = Shared(0)
        let done = Shared(false)
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
        // Suspended from the handler at its first chunk: before the body can be whole.
        request.responseStream(bufferingPolicy: .bytes(256 * 1024)) { [request] stream in
            switch stream.event {
            case .stream(.success(let chunk)):
                if received.withLock({ $0 }) == 0 { request.suspend() }
                received.withLock { $0 += chunk.count }
            case .complete:
                done.withLock { $0 = true }
            }
        }
        #expect(try await waitUntil { request.state == .suspended })
        // What was read before the suspend reaches the handler; then nothing more comes.
        try await Task.sleep(for: .milliseconds(300))
        let held = received.withLock { $0 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.withLock { $0 } == held && held < 10 << 20, "\(held) \(request.state)")
        request.resume()
        #expect(try await waitUntil { done.withLock { $0 } })
        #expect(received.withLock { $0 } == 10 << 20 && request.error == nil)
        await session.shutdown()
    }
}
