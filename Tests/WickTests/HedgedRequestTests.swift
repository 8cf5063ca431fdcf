// HedgingPolicy on real requests: a stalled first attempt loses to the hedge, the loser's
// connection closes, fast and non-idempotent requests are never hedged, the budget holds. The
// slow replica is a FaultInjector's fault on the first exchange; the fault server's own stall
// stays where a test asserts what the server saw of the loser's connection.
import Foundation
import Testing
import Wick
import WickTestSupport

/// Real time: run alone with the other timing suites (Scripts/test).
struct HedgedRequestTests {
    static let ok = FaultStep.respond(body: "ok")

    /// A session hedging with `policy`.
    static func session(_ policy: HedgingPolicy) -> Session {
        var configuration = Session.Configuration()
        configuration.hedging = policy
        configuration.proxy = .none
        return Session(configuration: configuration)
    }

    /// A backend answering every request at once, on each of its connections.
    static func backend() throws -> FaultServer {
        try FaultServer(steps: [.repeating([.readRequest, ok], times: 10)])
    }

    /// A session hedging with `policy` (nil: none) whose first exchange meets `fault` (a
    /// `FaultInjector`'s): a slow replica, whichever connection the request lands on.
    static func session(_ policy: HedgingPolicy?, firstExchange fault: Fault) -> Session {
        var configuration = Session.Configuration()
        configuration.hedging = policy
        configuration.proxy = .none
        configuration.faultInjector = FaultInjector(seed: 1, rules: [FaultRule(fault, limit: 1)])
        return Session(configuration: configuration)
    }

    /// The first exchange's response held back 400 ms.
    static let slowReplica = Fault.latency(.fixed(.milliseconds(400)))

    @Test func theHedgeWinsOverAStalledFirstAttemptWhoseConnectionCloses() async throws {
        // The first connection never answers (it waits, up to far longer than the bound below,
        // for the client to close): only a hedge answers, and a busy machine has seconds of slack.
        let server = try FaultServer { index in
            index == 0
                ? [.readRequest, .waitForClientClose(limit: .seconds(6))]
                : [.repeating([.readRequest, Self.ok], times: 10)]
        }
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(100)))
        let session = Self.session(policy)
        let started = ContinuousClock.now
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .hedgeWon)
        #expect(policy.statistics == HedgingPolicy.Statistics(requests: 1, hedgesSent: 1, hedgesWon: 1))
        // The loser was cancelled: its connection is closed, not leased nor kept idle.
        #expect(await server.waitForEnd(ofConnection: 0, timeout: .seconds(5)) == .clientClosed)
        var statistics = await session.poolStatistics()
        for _ in 0..<100 where statistics.total.live != 1 {
            try await Task.sleep(for: .milliseconds(10))
            statistics = await session.poolStatistics()
        }
        #expect(statistics.total.leased == 0)
        #expect(statistics.total.idle == 1)
        #expect(server.acceptedConnections == 2)
        await session.shutdown()
    }

    @Test func aHedgeBeatsAnInjectedLatencyAndTheSessionShutsDown() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let session = Self.session(
            HedgingPolicy(delay: .fixed(.milliseconds(50))), firstExchange: .latency(.fixed(.seconds(6))))
        let started = ContinuousClock.now
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(response.metrics?.transactions.last?.hedge == .hedgeWon)
        // The loser, its response held back, closed without waiting for the hold to end.
        await session.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aResponseBeforeTheDelayIsNotHedged() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.seconds(2)))
        let session = Self.session(policy)
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .notNeeded)
        #expect(policy.statistics.hedgesSent == 0)
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func aRequestOfItsOwnIsHedgedWhereTheSessionHedgesNothing() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let session = Self.session(nil, firstExchange: .stall(afterResponseBytes: 0))
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let response = await session.request("http://127.0.0.1:\(server.port)/") { $0.hedging = .policy(policy) }
            .serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .hedgeWon)
        #expect(policy.statistics == HedgingPolicy.Statistics(requests: 1, hedgesSent: 1, hedgesWon: 1))
        await session.shutdown()
    }

    @Test func aRequestCanOptOutOfTheSessionsHedging() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let session = Self.session(policy, firstExchange: Self.slowReplica)
        let response = await session.request("http://127.0.0.1:\(server.port)/") { $0.hedging = .disabled }
            .serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == nil)
        #expect(policy.statistics == HedgingPolicy.Statistics())
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func aNonIdempotentRequestIsNeverHedged() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let session = Self.session(policy, firstExchange: Self.slowReplica)
        let response = await session.request("http://127.0.0.1:\(server.port)/", method: .post).serializingData()
            .response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == nil)
        #expect(policy.statistics == HedgingPolicy.Statistics())
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func anEmptyBudgetRefusesTheHedge() async throws {
        let server = try Self.backend()
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)), budgetRatio: 0, maximumBurst: 0)
        let session = Self.session(policy, firstExchange: Self.slowReplica)
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .refusedByBudget)
        #expect(response.metrics?.transactions.last?.injectedFaults.map(\.fault) == [Self.slowReplica])
        #expect(policy.statistics == HedgingPolicy.Statistics(requests: 1, refusedByBudget: 1))
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func cancellingAHedgedRequestCancelsBothAttempts() async throws {
        let server = try FaultServer { _ in [.readRequest, .waitForClientClose(limit: .seconds(5))] }
        defer { server.stop() }
        let session = Self.session(HedgingPolicy(delay: .fixed(.milliseconds(50))))
        let request = session.request("http://127.0.0.1:\(server.port)/").resume()
        #expect(await server.waitForConnections(2, timeout: .seconds(5)))
        request.cancel()
        let result = await request.serializingData().result
        guard case .failure(let error) = result else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.isExplicitlyCancelledError)
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        #expect(await server.waitForEnd(ofConnection: 1) == .clientClosed)
        await session.shutdown()
    }
}

struct HedgingPolicyTests {
    @Test func aPercentileDelayFollowsTheHostsRecentLatencies() {
        let policy = HedgingPolicy(delay: .percentile(0.9, minimumSamples: 10, fallback: .seconds(1)))
        #expect(policy.requestStarted(host: "a") == .seconds(1))
        for millisecond in 1...20 {
            policy.requestEnded(host: "A", latency: .milliseconds(millisecond), hedgeWon: false)
        }
        #expect(policy.requestStarted(host: "a") == .milliseconds(18))
        #expect(policy.requestStarted(host: "b") == .seconds(1))
    }

    @Test func theBudgetAllowsItsBurstThenItsShareOfRequests() {
        let policy = HedgingPolicy(delay: .fixed(.zero), budgetRatio: 0.25, maximumBurst: 1)
        _ = policy.requestStarted(host: "a")
        #expect(policy.withdrawHedge())
        #expect(!policy.withdrawHedge())
        for _ in 0..<4 { _ = policy.requestStarted(host: "a") }
        #expect(policy.withdrawHedge())
        #expect(policy.statistics == HedgingPolicy.Statistics(requests: 5, hedgesSent: 2, refusedByBudget: 1))
    }
}
