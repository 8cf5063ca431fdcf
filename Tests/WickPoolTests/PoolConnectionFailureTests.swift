// Rule 7: failed connection attempts, backoff while requests wait, and what waiters are told.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Failed connection attempts and backoff")
struct PoolConnectionFailureTests {
    @Test("A retryable failure keeps the waiters and backs off for initialBackoff before one new attempt")
    func retryableFailureBacksOff() throws {
        var world = PoolWorld.with { $0.initialBackoff = .milliseconds(100) }
        try world.arrive(1)
        let actions = try world.failAttempt(C1, .refused)
        let backoff = try #require(world.timer(for: .backoff("a")))
        #expect(actions == [.scheduleTimer(backoff)])
        #expect(backoff.deadline == world.now + .milliseconds(100))
        #expect(world.waitingRequests() == [R1])
        #expect(try world.advance(by: .milliseconds(100)) == [.createConnection(C2, origin: "a")])
    }

    @Test("Consecutive failures double the backoff")
    func backoffDoubles() throws {
        var world = PoolWorld.with { $0.initialBackoff = .milliseconds(100) }
        try world.arrive(1, deadline: .distantFuture)
        try world.failAttempt(C1)
        try world.advance(by: .milliseconds(100))
        let start = world.now
        try world.failAttempt(C2)
        #expect(try #require(world.timer(for: .backoff("a"))).deadline == start + .milliseconds(200))
    }

    @Test("While an origin is failing, only one attempt is in flight, however many requests wait")
    func oneAttemptAtATimeWhileFailing() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.arrive(2)
        try world.arrive(3)
        try world.failAttempt(C1)
        try world.failAttempt(C2)
        try world.failAttempt(C3)
        let created = try world.advance(by: .seconds(1)).filter {
            if case .createConnection = $0 { true } else { false }
        }
        #expect(created == [.createConnection(C4, origin: "a")])
    }

    @Test("A success resets the failures, ends the backoff, and starts connections for the other waiters")
    func successResetsTheOrigin() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.arrive(2)
        try world.failAttempt(C1)
        let backoff = try #require(world.timer(for: .backoff("a")))
        let actions = try world.establish(C2)
        let wait = try #require(world.finishedTimers.values.first { $0.purpose == .poolWait(R1) })
        #expect(
            actions == [
                .cancelTimer(backoff), .cancelTimer(wait), .leaseConnection(C2, to: R1, isReused: false),
                .createConnection(C3, origin: "a"),
            ])
    }

    @Test("Waiters that time out while the origin fails are told the last connection error")
    func timedOutWaiterHearsTheConnectionError() throws {
        var world = PoolWorld.with { $0.poolWaitTimeout = .seconds(1) }
        try world.arrive(1)
        try world.failAttempt(C1, .refused)
        let failures = try world.advance(by: .seconds(1)).filter { if case .failRequest = $0 { true } else { false } }
        #expect(failures == [.failRequest(R1, .poolWaitTimeout(lastConnectionFailure: .refused))])
    }

    @Test("A failure that retrying cannot fix fails every waiter of the origin with that error")
    func permanentFailureFailsAllWaiters() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.arrive(2)
        try world.arrive(3, at: "b")
        let actions = try world.failAttempt(C1, .trustRejected, isRetryable: false)
        #expect(
            actions.filter { if case .failRequest = $0 { true } else { false } } == [
                .failRequest(R1, .connectionFailed(.trustRejected)),
                .failRequest(R2, .connectionFailed(.trustRejected)),
            ])
        #expect(world.timer(for: .backoff("a")) == nil)
        #expect(world.waitingRequests() == [R3])
    }

    @Test("With retriesFailedAttempts off, a retryable failure fails the origin's waiters at once, as curl does")
    func retryableFailureFailsWaitersWhenRetriesAreOff() throws {
        var world = PoolWorld.with { $0.retriesFailedAttempts = false }
        try world.arrive(1)
        try world.arrive(2)
        try world.arrive(3, at: "b")
        let actions = try world.failAttempt(C1, .refused)
        #expect(
            actions.filter { if case .failRequest = $0 { true } else { false } } == [
                .failRequest(R1, .connectionFailed(.refused)),
                .failRequest(R2, .connectionFailed(.refused)),
            ])
        #expect(world.timer(for: .backoff("a")) == nil)
        #expect(world.waitingRequests() == [R3])
    }

    @Test("A failure with nobody waiting schedules no backoff")
    func failureWithoutWaitersDoesNotBackOff() throws {
        var world = PoolWorld()
        try world.prewarm(connections: 1)
        #expect(try world.failAttempt(C1) == [])
        #expect(world.pool.statistics.total.failedAttempts == 1)
    }

    @Test("A backoff that ends with nobody waiting starts nothing")
    func backoffEndingWithoutWaitersStartsNothing() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.failAttempt(C1)
        try world.cancel(1)
        #expect(try world.advance(by: .seconds(1)) == [])
        #expect(world.pool.statistics.origins.isEmpty)
    }
}
