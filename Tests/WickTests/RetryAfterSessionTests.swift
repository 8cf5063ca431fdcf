// Retry-After and the retry budget on real requests: the 503s and 429s injected by a
// FaultInjector, the successes from an in-process backend.
import Foundation
import Synchronization
import Testing
import Wick
import WickTestSupport

struct RetryAfterSessionTests {
    /// A backend answering `ok` to every request on a keep-alive connection.
    static func backend() throws -> FaultServer {
        try FaultServer(steps: [.repeating([.readRequest, .respond(body: "ok")], times: 100)])
    }

    /// A session retrying with a fast backoff, its exchanges failed as `rules` say.
    static func session(
        _ rules: [FaultRule], budget: RetryBudget? = nil, monitor: ClosureEventMonitor? = nil
    ) -> (Session, FaultInjector) {
        let injector = FaultInjector(seed: 1, rules: rules)
        var configuration = Session.Configuration()
        configuration.faultInjector = injector
        configuration.retryBudget = budget
        let session = Session(
            configuration: configuration, interceptor: RetryPolicy(exponentialBackoffScale: 0.001),
            eventMonitors: monitor.map { [$0] } ?? [])
        return (session, injector)
    }

    @Test func a503IsRetriedNoSoonerThanItsRetryAfter() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let (session, _) = Self.session([FaultRule(.serviceUnavailable(retryAfter: 1), limit: 1)])
        let started = ContinuousClock.now
        let request = session.request("http://127.0.0.1:\(backend.port)/").validate(failUnlessSuccessful)
        let response = await request.serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(request.retryCount == 1)
        #expect(response.metrics?.transactions.map(\.statusCode) == [503, 200])
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        await session.shutdown()
    }

    @Test func a429WithRetryAfterIsRetried() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let (session, _) = Self.session([FaultRule(.tooManyRequests(retryAfter: 0), limit: 1)])
        let request = session.request("http://127.0.0.1:\(backend.port)/").validate(failUnlessSuccessful)
        #expect(try await request.serializingData().value == Data("ok".utf8))
        #expect(request.retryCount == 1)
        await session.shutdown()
    }

    @Test func aRetryAfterLongerThanTheMaximumIsNotRetried() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let (session, _) = Self.session([FaultRule(.serviceUnavailable(retryAfter: 3600), limit: 1)])
        let started = ContinuousClock.now
        let request = session.request("http://127.0.0.1:\(backend.port)/").validate(failUnlessSuccessful)
        let response = await request.serializingData().response
        #expect(request.retryCount == 0)
        #expect(response.response?.statusCode == 503)
        #expect(ContinuousClock.now - started < .seconds(60), "far below the 3,600 s asked for")
        await session.shutdown()
    }

    @Test func theBudgetRefusesRetriesPastItsShareAndMonitorsHearIt() async throws {
        let backend = try Self.backend()
        defer { backend.stop() }
        let refusals = Mutex(0)
        let monitor = ClosureEventMonitor()
        monitor.requestRetryWasRefusedByBudget = { _ in refusals.withLock { $0 += 1 } }
        // No share of traffic, a reserve of one retry in the window.
        let budget = RetryBudget(ratio: 0, minimumRetriesPerSecond: 0.1, window: .seconds(10))
        let (session, injector) = Self.session([FaultRule(.serviceUnavailable())], budget: budget, monitor: monitor)
        let url = "http://127.0.0.1:\(backend.port)/"
        let first = session.request(url).validate(failUnlessSuccessful)
        #expect(await first.serializingData().response.response?.statusCode == 503)
        #expect(first.retryCount == 1)
        let second = session.request(url).validate(failUnlessSuccessful)
        #expect(await second.serializingData().response.response?.statusCode == 503)
        #expect(second.retryCount == 0)
        #expect(budget.statistics == RetryBudget.Statistics(requests: 2, retriesAllowed: 1, retriesRefused: 2))
        await session.shutdown()
        // Monitors run on their own queue: give it a moment.
        for _ in 0..<200 where refusals.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let refused = refusals.withLock { $0 }
        #expect(refused == 2)
        // Three attempts in all, every one answered by the injector on one kept-alive connection:
        // the backend never read a request.
        #expect(injector.injectedFaultCount == 3)
        #expect(backend.acceptedConnections == 1)
        #expect(backend.received(onConnection: 0).isEmpty)
    }
}
