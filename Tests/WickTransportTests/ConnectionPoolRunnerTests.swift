// The pool runner against scripted servers: reuse, replay, cancellation, limits, faults.
import Foundation
import Testing
import WickCore
import WickHTTP1
import WickPool
import WickReactor
import WickTLS
import WickTestSupport

@testable import WickTransport

@Suite struct ConnectionPoolRunnerTests {
    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try FaultServer(steps: [
            .repeating([.readRequest, .respond(body: "ok")], times: 5), .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        for index in 0..<5 {
            let response = try await client.send(port: server.port)
            #expect(response.status == .ok && response.body == Data("ok".utf8))
            #expect(response.metrics.isReused == (index > 0))
            #expect((response.metrics.connect != nil) == (index == 0) && response.metrics.tlsHandshake == nil)
            let metrics = response.metrics
            #expect(metrics.requestSent != nil && metrics.firstByte != nil && metrics.responseHead != nil)
            #expect(metrics.poolWait != nil && metrics.completed.map { $0 >= metrics.started } == true)
        }
        let total = try await client.runner.statistics().total
        #expect(total.created == 1 && total.leases == 5 && total.reused == 4)
        await client.close()
        #expect(server.acceptedConnections == 1)
    }

    /// An idle connection the server closes is evicted; the next request connects afresh,
    /// without a replay.
    @Test func anIdleConnectionClosedByTheServerIsEvicted() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .respond(body: "ok"), .pause(.milliseconds(100)), .close,
        ])
        defer { server.stop() }
        let client = try TestRunner()
        _ = try await client.send(port: server.port)
        #expect(try await client.waitForStatistics { $0.evicted == 1 && $0.live == 0 })
        let second = try await client.send(port: server.port)
        #expect(!second.metrics.isReused && !second.metrics.wasReplayed)
        #expect(server.acceptedConnections == 2)
        await client.close()
    }

    /// A head the encoder refuses fails before a byte is written and leaves the connection fit
    /// for the next request.
    @Test func aRefusedHeadFailsWithoutSpendingTheConnection() async throws {
        let server = try FaultServer(steps: [
            .repeating([.readRequest, .respond(body: "ok")], times: 2), .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        _ = try await client.send(port: server.port)
        do {
            _ = try await client.runner.execute(
                TransportRequest(
                    .get, .http, host: "127.0.0.1", port: UInt16(server.port), headers: ["X-Bad": "a\r\nInjected: 1"]))
            Issue.record("a header with CR LF was sent")
        } catch {
            guard case .requestFailed(.requestHeadRefused, requestMayHaveBeenProcessed: false) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        let third = try await client.send(port: server.port)
        #expect(third.metrics.isReused && server.acceptedConnections == 1)
        #expect(!String(decoding: server.received(onConnection: 0), as: UTF8.self).contains("Injected"))
        await client.close()
    }

    @Test func staleConnectionReplaysAGetTransparently() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [.readRequest, .respond(body: "one"), .readRequest, .close]
                : [.readRequest, .respond(body: "two"), .waitForClientClose(limit: .seconds(10))]
        }
        defer { server.stop() }
        let client = try TestRunner()
        let first = try await client.send(port: server.port)
        let second = try await client.send(port: server.port)
        #expect(first.body == Data("one".utf8) && !first.metrics.wasReplayed)
        #expect(second.body == Data("two".utf8) && second.metrics.wasReplayed && !second.metrics.isReused)
        let total = try await client.runner.statistics().total
        #expect(total.replayed == 1 && total.created == 2)
        await client.close()
    }

    @Test func staleConnectionFailsAPostSayingItMayHaveBeenProcessed() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [.readRequest, .respond(body: "one"), .readRequest, .close]
                : [.waitForClientClose(limit: .seconds(10))]
        }
        defer { server.stop() }
        let client = try TestRunner()
        _ = try await client.send(port: server.port)
        do {
            _ = try await client.send(.post, port: server.port, body: Array("order=1".utf8))
            Issue.record("the POST succeeded on a dead connection")
        } catch let error as TransportError {
            guard case .requestFailed(.closedBeforeResponse, requestMayHaveBeenProcessed: true) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.contains("may have been processed"))
        }
        #expect(server.acceptedConnections == 1)
        await client.close()
    }

    @Test func cancellingTheTaskMidResponseClosesTheConnection() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\npartial"),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let task = Task { try await client.send(port: server.port) }
        // Cancelled once the partial response is on its way, not while the request is.
        #expect(await server.waitForSteps(2, ofConnection: 0))
        #expect(try await client.waitForStatistics { $0.leased == 1 })
        task.cancel()
        await #expect(throws: TransportError.self) { _ = try await task.value }
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        #expect(try await client.waitForStatistics { $0.live == 0 })
        await client.close()
    }

    @Test func aTaskCancelledBeforeExecuteSendsNothing() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let client = try TestRunner()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(port: server.port)
        }
        do {
            _ = try await task.value
            Issue.record("a cancelled task's request was sent")
        } catch let error as TransportError {
            guard case .cancelled = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(try await client.runner.statistics().total.created == 0)
        await client.close()
    }

    @Test func cancellingAWaitingRequestTakesItOutOfThePool() async throws {
        let server = try FaultServer(steps: [.readRequest, .waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let client = try TestRunner { $0.pool.maximumConnectionsPerOrigin = 1 }
        let busy = Task { try await client.send(port: server.port) }
        #expect(try await client.waitForStatistics { $0.leased == 1 })
        let waiting = Task { try await client.send(port: server.port) }
        #expect(try await client.waitForStatistics { $0.waiting == 1 })
        waiting.cancel()
        do {
            _ = try await waiting.value
            Issue.record("the waiting request succeeded")
        } catch let error as TransportError {
            guard case .cancelled = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(try await client.runner.statistics().total.waiting == 0)
        busy.cancel()
        _ = try? await busy.value
        await client.close()
    }

    @Test func aFullPoolFailsAWaiterAtItsDeadline() async throws {
        let server = try FaultServer(steps: [.readRequest, .waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let client = try TestRunner { $0.pool.maximumConnectionsPerOrigin = 1 }
        let busy = Task { try await client.send(port: server.port) }
        #expect(try await client.waitForStatistics { $0.leased == 1 })
        do {
            _ = try await client.send(port: server.port, deadline: .now() + .milliseconds(100))
            Issue.record("the second request got a connection")
        } catch let error as TransportError {
            guard case .poolWaitTimeout(lastConnectionFailure: nil) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        busy.cancel()
        _ = try? await busy.value
        await client.close()
    }

    @Test func aRefusedConnectionFailsAtTheDeadlineNamingTheCause() async throws {
        let refusing = try RefusingPort()
        let client = try TestRunner()
        do {
            _ = try await client.send(port: refusing.port, deadline: .now() + .seconds(1))
            Issue.record("a request to a closed port succeeded")
        } catch let error as TransportError {
            guard case .poolWaitTimeout(lastConnectionFailure: let cause?) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(ConnectionPoolRunner.isRetryable(cause))
        }
        #expect(try await client.runner.statistics().total.failedAttempts >= 1)
        await client.close()
    }

    /// A trust manager that requires an evaluator for every host refuses one it has none for,
    /// before a socket is opened, and every waiter fails with it (retrying cannot help).
    @Test func aHostWithoutARequiredEvaluatorFailsBeforeConnecting() async throws {
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let tls = TransportTLS(context: try TLSContext(), trustManager: ServerTrustManager(evaluators: [:]))
        let client = try TestRunner(tls: tls)
        do {
            _ = try await client.send(port: server.port, scheme: .https)
            Issue.record("a host without an evaluator was connected to")
        } catch let error as TransportError {
            guard case .connectFailed(.tls(.serverTrustFailed(let trust))) = error, trust.reason == .noRequiredEvaluator
            else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(server.acceptedConnections == 0)
        await client.close()
    }

    @Test(arguments: [(5, true), (6, false)])
    func responseBodyLimitAllowsNAndRefusesNPlusOne(bodyLength: Int, allowed: Bool) async throws {
        let server = try FaultServer(steps: [
            .readRequest, .respond(body: String(repeating: "b", count: bodyLength)),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner { $0.maximumResponseBodyBytes = 5 }
        do {
            let response = try await client.send(port: server.port)
            #expect(allowed && response.body.count == 5)
        } catch let error as TransportError {
            guard case .responseBodyTooLarge(limit: 5) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(!allowed)
            #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        }
        await client.close()
    }

    @Test func idleTimeoutClosesTheSocket() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .respond(body: "ok"), .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner { $0.pool.idleTimeout = .milliseconds(100) }
        _ = try await client.send(port: server.port)
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        #expect(try await client.waitForStatistics { $0.live == 0 && $0.retired == 1 })
        #expect(OpenSockets.connected(toPort: server.port) == 0)
        await client.close()
    }

    @Test func shutdownFailsWaitingAndRunningRequestsAndClosesEverything() async throws {
        let server = try FaultServer(steps: [.readRequest, .waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let client = try TestRunner { $0.pool.maximumConnectionsPerOrigin = 1 }
        let running = Task { try await client.send(port: server.port) }
        #expect(try await client.waitForStatistics { $0.leased == 1 })
        let waiting = Task { try await client.send(port: server.port) }
        #expect(try await client.waitForStatistics { $0.waiting == 1 })
        await client.runner.shutdown(.cancel)
        for task in [running, waiting] {
            do {
                _ = try await task.value
                Issue.record("a request survived the shutdown")
            } catch let error as TransportError {
                switch error {
                case .shutdown, .requestFailed(.connectionFailed, _): break
                default: Issue.record("unexpected error \(error)")
                }
            }
        }
        do {
            _ = try await client.send(port: server.port)
            Issue.record("a request after shutdown succeeded")
        } catch let error as TransportError {
            guard case .shutdown = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        #expect(OpenSockets.connected(toPort: server.port) == 0)
        await client.close()
    }

    @Test func drainingShutdownLetsTheRunningRequestFinish() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .pause(.milliseconds(300)), .respond(body: "done"), .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let running = Task { try await client.send(port: server.port) }
        // Once the server has the request, the client holds its connection leased until the
        // response, 300 ms later; the shutdown asked meanwhile waits for it.
        #expect(try await waitUntil { server.received(onConnection: 0).count > 0 })
        await client.runner.shutdown(.drain)
        #expect(try await running.value.body == Data("done".utf8))
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await client.close()
    }

    /// 10,000 requests over connections that fail in every way the server can script; afterwards
    /// no client socket to the server remains open.
    @Test func noDescriptorGrowthAfterTenThousandRequestsWithFaults() async throws {
        let faults: [[FaultStep]] = [
            [.repeating([.readRequest, .respond(body: "ok")], times: 20), .close],
            [.readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"), .reset],
            [.readRequest, .close],
            [.readRequest, .send("HTTP/1.1 2xx nonsense\r\n\r\n"), .waitForClientClose(limit: .seconds(10))],
            [.readRequest, .respond(body: "ok", close: true)],
            // A whole line, so that a request leased before the bytes arrive fails on them at once
            // rather than waiting for the rest of a status line.
            [
                .readRequest, .respond(body: "ok"), .send("unsolicited\r\n\r\n"),
                .waitForClientClose(limit: .seconds(10)),
            ],
        ]
        let server = try FaultServer { index in faults[index % faults.count] }
        defer { server.stop() }
        let client = try TestRunner { $0.pool.maximumConnectionsPerOrigin = 4 }
        let outcomes = await withTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var (succeeded, failed) = (0, 0)
                    for _ in 0..<2_500 {
                        do {
                            _ = try await client.send(port: server.port, deadline: .now() + .seconds(10))
                            succeeded += 1
                        } catch {
                            failed += 1
                        }
                    }
                    return (succeeded, failed)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(outcomes.0 + outcomes.1 == 10_000 && outcomes.0 > 0 && outcomes.1 > 0)
        let total = try await client.runner.statistics().total
        #expect(total.leases >= 10_000)
        await client.close()
        #expect(OpenSockets.connected(toPort: server.port) == 0)
    }
}
