// HedgingPolicy on real requests: a stalled first attempt loses to the hedge, the loser's
// connection closes, fast and non-idempotent requests are never hedged, the budget holds.
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

    /// A server whose first connection answers after `stall`, and the others at once.
    static func server(stallingFirstBy stall: Duration) throws -> FaultServer {
        try FaultServer { index in
            index == 0
                ? [.readRequest, .pause(stall), ok, .waitForClientClose(limit: .seconds(5))]
                : [.repeating([.readRequest, ok], times: 10)]
        }
    }

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
        let server = try FaultServer(steps: [.repeating([.readRequest, Self.ok], times: 10)])
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.hedging = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        configuration.faultInjector = FaultInjector(
            seed: 1, rules: [FaultRule(.latency(.fixed(.seconds(6))), limit: 1)])
        let session = Session(configuration: configuration)
        let started = ContinuousClock.now
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(response.metrics?.transactions.last?.hedge == .hedgeWon)
        // The loser, its response held back, closed without waiting for the hold to end.
        await session.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aResponseBeforeTheDelayIsNotHedged() async throws {
        let server = try FaultServer(steps: [.repeating([.readRequest, Self.ok], times: 10)])
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
        let server = try FaultServer { index in
            index == 0
                ? [.readRequest, .waitForClientClose(limit: .seconds(6))]
                : [.repeating([.readRequest, Self.ok], times: 10)]
        }
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.proxy = .none
        let session = Session(configuration: configuration)
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let response = await session.request("http://127.0.0.1:\(server.port)/") { $0.hedging = .policy(policy) }
            .serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .hedgeWon)
        #expect(policy.statistics == HedgingPolicy.Statistics(requests: 1, hedgesSent: 1, hedgesWon: 1))
        await session.shutdown()
    }

    @Test func aRequestCanOptOutOfTheSessionsHedging() async throws {
        let server = try Self.server(stallingFirstBy: .milliseconds(400))
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let session = Self.session(policy)
        let response = await session.request("http://127.0.0.1:\(server.port)/") { $0.hedging = .disabled }
            .serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == nil)
        #expect(policy.statistics == HedgingPolicy.Statistics())
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func aNonIdempotentRequestIsNeverHedged() async throws {
        let server = try Self.server(stallingFirstBy: .milliseconds(400))
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)))
        let session = Self.session(policy)
        let response = await session.request("http://127.0.0.1:\(server.port)/", method: .post).serializingData()
            .response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == nil)
        #expect(policy.statistics == HedgingPolicy.Statistics())
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func anEmptyBudgetRefusesTheHedge() async throws {
        let server = try Self.server(stallingFirstBy: .milliseconds(400))
        defer { server.stop() }
        let policy = HedgingPolicy(delay: .fixed(.milliseconds(50)), budgetRatio: 0, maximumBurst: 0)
        let session = Self.session(policy)
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(response.metrics?.transactions.last?.hedge == .refusedByBudget)
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
