// One deadline means one deadline: against a peer that stalls in each phase, a request whose
// deadline is shorter than every per-phase limit ends at its deadline, timed out in that phase.
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import WickTransport

struct DeadlineEveryPhaseTests {
    /// The request's deadline, far below every per-phase limit the runner is given (60 s).
    static let deadline = Duration.milliseconds(300)
    /// How late after the deadline the error may come: slack for a loaded machine (the whole
    /// suite in parallel on two cores has delayed these by 5 s), and still far below the 60 s
    /// limits and the peers' 30 s stalls, so only the deadline can have ended the request.
    static let slack = Duration.seconds(20)

    /// A runner whose own limits (connect, TLS, idle, pool wait) are all 60 s or more.
    private func runner() throws -> TestRunner {
        try TestRunner {
            $0.connect.timeout = .seconds(60)
            $0.tls.handshakeTimeout = .seconds(60)
            $0.driver.idleTimeout = .seconds(60)
            $0.pool.poolWaitTimeout = .seconds(120)
            $0.pool.maximumConnectionsPerOrigin = 1
        }
    }

    /// Sends `request` with the test's deadline and returns its error and when it came,
    /// recording an issue if the request succeeded or the error came outside the bounds.
    private func failure(
        of request: TransportRequest, on client: TestRunner
    ) async -> TransportError? {
        let started = Deadline.now()
        do {
            let response = try await client.runner.execute(request, deadline: started + Self.deadline)
            Issue.record("the stalled request succeeded: \(response.status)")
            return nil
        } catch {
            let elapsed = Deadline.now() - started
            #expect(elapsed >= Self.deadline, "the error came before the deadline: \(error)")
            #expect(elapsed < Self.deadline + Self.slack, "the error came \(elapsed) after the start: \(error)")
            return error
        }
    }

    private func expectTimedOut(_ error: TransportError?, in phase: ExchangeTimeout) {
        guard case .timedOut(let actual) = error, actual == phase else {
            Issue.record("expected a timeout \(phase), got \(String(describing: error))")
            return
        }
    }

    @Test func aConnectThatNeverCompletesEndsAtTheDeadline() async throws {
        let listener = try StalledListener()
        let client = try runner()
        let error = await failure(of: TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(listener.port)), on: client)
        expectTimedOut(error, in: .connect(.connecting))
        // The attempt was cut with the request: nothing is left connecting.
        #expect(try await client.waitForStatistics { $0.connecting == 0 })
        await client.close()
    }

    @Test func aTLSHandshakeThatNeverProgressesEndsAtTheDeadline() async throws {
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(30))])
        defer { server.stop() }
        let client = try runner()
        let request = TransportRequest(
            .get, .https, host: "127.0.0.1", port: UInt16(server.port), tls: try client.tlsRules())
        let error = await failure(of: request, on: client)
        expectTimedOut(error, in: .connect(.tlsHandshake))
        // The handshake's socket was closed with the request, not at the 60 s TLS limit.
        #expect(await server.waitForEnd(ofConnection: 0, timeout: Self.slack) == .clientClosed)
        await client.close()
    }

    @Test func aProxyThatNeverAnswersConnectEndsAtTheDeadline() async throws {
        let proxy = try TestProxy(connectBehavior: .stall)
        defer { proxy.stop() }
        let client = try runner()
        var request = TransportRequest(.get, .https, host: "origin.invalid", port: 8443, tls: try client.tlsRules())
        request.proxy = ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port))
        let error = await failure(of: request, on: client)
        expectTimedOut(error, in: .connect(.proxyConnect))
        await client.close()
    }

    @Test func aRequestWaitingForABusyConnectionEndsAtTheDeadline() async throws {
        // The one connection the pool may open is held by a request the server never answers.
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let client = try runner()
        let holder = Task { try? await client.send(port: server.port, "/hold", deadline: .now() + .seconds(60)) }
        #expect(await server.waitForConnections(1))
        #expect(try await client.waitForStatistics { $0.leased == 1 })
        let error = await failure(of: TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(server.port)), on: client)
        guard case .poolWaitTimeout(nil) = error else {
            Issue.record("expected a pool-wait timeout with no failed attempt, got \(String(describing: error))")
            holder.cancel()
            await client.close()
            return
        }
        holder.cancel()
        await client.close()
    }

    @Test func aServerThatReadsNothingEndsTheWriteAtTheDeadline() async throws {
        let server = try FaultServer(steps: [.pause(.seconds(30))])
        defer { server.stop() }
        let client = try runner()
        // Far more than the loopback socket buffers hold, so the writes stall.
        let request = TransportRequest(
            .post, .http, host: "127.0.0.1", port: UInt16(server.port), body: [UInt8](repeating: 0x61, count: 32 << 20))
        expectTimedOut(await failure(of: request, on: client), in: .sendingRequest)
        await client.close()
    }

    @Test func aServerThatNeverAnswersEndsTheWaitForTheHeadAtTheDeadline() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let client = try runner()
        let request = TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(server.port))
        expectTimedOut(await failure(of: request, on: client), in: .waitingForResponse)
        await client.close()
    }

    @Test func aBodyThatStopsEndsAtTheDeadline() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"), .pause(.seconds(30)),
        ])
        defer { server.stop() }
        let client = try runner()
        let request = TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(server.port))
        expectTimedOut(await failure(of: request, on: client), in: .receivingResponse)
        await client.close()
    }
}
