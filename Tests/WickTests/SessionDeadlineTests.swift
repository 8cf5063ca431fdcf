// Each deadline phase against the fault server: the timeout names where the request was.
import Foundation
import Testing
import Wick
import WickTLS
import WickTestSupport

struct SessionDeadlineTests {
    /// A server whose first connection answers one warming request and then plays `steps`.
    private func warmServer(then steps: [FaultStep]) throws -> FaultServer {
        try FaultServer { index in
            index == 0 ? [.readRequestHead, .respond(body: "warm")] + steps : [.close]
        }
    }

    /// The phase a request to `server` timed out in, or an issue recorded. A first request
    /// warms a keep-alive connection, which the timed request reuses: its budget then goes to
    /// the exchange alone, even when a loaded machine connects slowly.
    private func timeoutPhase(
        _ server: FaultServer, scheme: String = "http", method: HTTPMethod = .get, body: Data? = nil,
        warm: Bool = true, _ configure: (inout Session.Configuration) -> Void
    ) async -> (phase: TimeoutPhase, lastConnectionFailure: ConnectionFailure?)? {
        let session = makeSession(configure)
        defer { Task { await session.shutdown() } }
        if warm {
            let warming = await session.request("\(scheme)://127.0.0.1:\(server.port)/warm").serializingData().result
            guard case .success = warming else {
                Issue.record("the warming request failed: \(warming)")
                return nil
            }
        }
        let result = await session.request("\(scheme)://127.0.0.1:\(server.port)/", method: method, body: body)
            .serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, let last))) = result else {
            Issue.record("expected a timeout, got \(result)")
            return nil
        }
        return (phase, last)
    }

    @Test func noResponseTimesOutWaitingForIt() async throws {
        let server = try warmServer(then: [.readRequestHead, .pause(.seconds(10))])
        defer { server.stop() }
        let phase = await timeoutPhase(server) {
            $0.requestTimeout = .seconds(1)
            $0.idleTransferTimeout = nil
        }
        #expect(phase?.phase == .waitingForResponse)
    }

    @Test func aStalledBodyTimesOutReceivingIt() async throws {
        let server = try warmServer(then: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"), .pause(.seconds(10)),
        ])
        defer { server.stop() }
        let phase = await timeoutPhase(server) {
            $0.requestTimeout = .seconds(1)
            $0.idleTransferTimeout = nil
        }
        #expect(phase?.phase == .receivingResponse)
    }

    @Test func aServerThatReadsNothingTimesOutTheSending() async throws {
        let server = try warmServer(then: [.pause(.seconds(10))])
        defer { server.stop() }
        // Far more than the socket buffers hold, so the writes stall.
        let body = Data(count: 64 << 20)
        let phase = await timeoutPhase(server, method: .post, body: body) {
            $0.requestTimeout = .seconds(1)
            $0.idleTransferTimeout = nil
        }
        #expect(phase?.phase == .sendingRequest)
    }

    @Test func silenceLongerThanTheIdleTimeoutFailsBeforeTheDeadline() async throws {
        let server = try warmServer(then: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"), .pause(.seconds(10)),
        ])
        defer { server.stop() }
        let started = ContinuousClock.now
        let phase = await timeoutPhase(server) {
            $0.requestTimeout = .seconds(20)
            $0.idleTransferTimeout = .milliseconds(200)
        }
        #expect(phase?.phase == .idleTransfer)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
    }

    @Test func aTrickleKeepsTheIdleTimerAtBayUntilTheBodyEnds() async throws {
        let trickle: [FaultStep] = [.repeating([.pause(.milliseconds(60)), .send("x")], times: 8)]
        let server = try FaultServer(
            steps: [.readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n")] + trickle)
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.idleTransferTimeout = .milliseconds(200)
        let session = Session(configuration: configuration)
        let data = try await session.request("http://127.0.0.1:\(server.port)/").serializingData().value
        #expect(data == Data("xxxxxxxx".utf8))
        await session.shutdown()
    }

    @Test func aSilentTLSServerTimesOutTheHandshake() async throws {
        let server = try FaultServer(steps: [.pause(.seconds(10))])
        defer { server.stop() }
        let phase = await timeoutPhase(server, scheme: "https", warm: false) {
            $0.tlsHandshakeTimeout = .milliseconds(200)
            $0.requestTimeout = .seconds(3)
        }
        // Each connection attempt ran out of time in its handshake until the pool wait did.
        #expect(phase?.phase == .waitingForConnection)
        guard let last = phase?.lastConnectionFailure, last.kind == .timedOut,
            case .tlsTimedOut(_, .handshake, _)? = last.underlyingError as? StreamChannelError
        else {
            Issue.record("expected the last attempt's handshake timeout, got \(String(describing: phase))")
            return
        }
    }

    @Test func aHandshakeThatNeverProgressesEndsAtTheRequestDeadlineNamingIt() async throws {
        // The server accepts TCP and never answers the ClientHello; the TLS limit is 60 s.
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(30))])
        defer { server.stop() }
        // One second: under ThreadSanitizer a loopback connect can take a few hundred
        // milliseconds, and the deadline must find the request in its handshake.
        let session = makeSession {
            $0.requestTimeout = .seconds(1)
            $0.connectTimeout = .seconds(60)
            $0.tlsHandshakeTimeout = .seconds(60)
        }
        let started = ContinuousClock.now
        let result = await session.request("https://127.0.0.1:\(server.port)/").serializingData().result
        let elapsed = ContinuousClock.now - started
        guard case .failure(.sessionTaskFailed(.timedOut(.tlsHandshake, _))) = result else {
            Issue.record("expected a TLS handshake timeout, got \(result)")
            await session.shutdown()
            return
        }
        // Slack for a loaded machine, far below the 60 s limit and the server's 30 s.
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(20), "ended after \(elapsed)")
        // The handshake's socket went with the request: the server saw the close long before.
        #expect(await server.waitForEnd(ofConnection: 0, timeout: .seconds(20)) == .clientClosed)
        await session.shutdown()
    }

    @Test func oneDeadlineSpansEveryRedirectHop() async throws {
        let hop: [FaultStep] = [.readRequestHead, .pause(.milliseconds(300)), .respond(status: 302, headers: ["Location: /next"])]
        let server = try FaultServer(steps: [.repeating(hop, times: 20)])
        defer { server.stop() }
        let session = makeSession {
            $0.requestTimeout = .seconds(1)
            $0.maximumRedirects = 20
        }
        let request = session.request("http://127.0.0.1:\(server.port)/")
        let result = await request.serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut)) = result else {
            Issue.record("expected the shared deadline to end the chain, got \(result)")
            return
        }
        // 300 ms a hop within 1 s: the chain ends on the fourth hop at the latest.
        #expect(request.requests.count <= 4)
        await session.shutdown()
    }
}
