// Rules 1 to 5: how requests get connections, wait for them in FIFO order, and leave the queue.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Leasing and waiting")
struct PoolLeasingTests {
    @Test("A request with no idle connection waits, with a pool-wait timer, and starts a connection")
    func firstRequestStartsAConnection() throws {
        var world = PoolWorld()
        let actions = try world.arrive(1)
        let wait = try #require(world.timer(for: .poolWait(R1)))
        #expect(actions == [.enqueueRequest(R1), .scheduleTimer(wait), .createConnection(C1, origin: "a")])
        #expect(wait.deadline == world.now + world.settings.poolWaitTimeout)
    }

    @Test("An established connection goes to the waiting request, whose timer is cancelled")
    func establishedConnectionServesTheWaiter() throws {
        var world = PoolWorld()
        try world.arrive(1)
        let wait = try #require(world.timer(for: .poolWait(R1)))
        let actions = try world.establish(C1)
        #expect(actions == [.cancelTimer(wait), .leaseConnection(C1, to: R1, isReused: false)])
    }

    @Test(
        "A request takes an idle connection at once, and the lease says it is reused; the retirement timer stays armed")
    func idleConnectionIsLeasedAtOnce() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        let actions = try world.arrive(2)
        #expect(actions == [.leaseConnection(C1, to: R2, isReused: true)])
        #expect(world.timer(for: .idleConnection(C1)) == idle)
        // Back and parked again, later: the armed timer is due earlier, so it is kept (rule 4).
        try world.advance(by: .seconds(1))
        #expect(try world.finish(C1) == [])
        #expect(world.timer(for: .idleConnection(C1)) == idle)
    }

    @Test("The most recently parked idle connection is taken first (LIFO), so cold ones age out")
    func idleConnectionsAreTakenLastInFirstOut() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.leaseNewConnection(to: 2)
        try world.finish(C2)
        try world.finish(C1)
        let actions = try world.arrive(3)
        #expect(actions.contains(.leaseConnection(C1, to: R3, isReused: true)))
    }

    @Test("A freed connection goes to the oldest waiter (FIFO)")
    func freedConnectionGoesToTheOldestWaiter() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2)
        try world.arrive(3)
        let actions = try world.finish(C1)
        #expect(actions.contains(.leaseConnection(C1, to: R2, isReused: true)))
        #expect(world.waitingRequests() == [R3])
    }

    @Test("No more connections start than requests wait for")
    func connectionsStartOnlyForUnservedWaiters() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.arrive(2)
        #expect(world.connections { $0 == .connecting } == [C1, C2])
        try world.cancel(2)
        let actions = try world.arrive(3)
        #expect(!actions.contains { if case .createConnection = $0 { true } else { false } })
    }

    @Test("maximumConnectionsPerOrigin: N requests open N connections; request N+1 waits", arguments: [1, 2, 5])
    func connectionLimitPerOrigin(limit: Int) throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = limit }
        for request in 1...limit {
            try world.arrive(UInt64(request))
        }
        #expect(world.connections { $0 == .connecting }.count == limit)
        let actions = try world.arrive(UInt64(limit + 1))
        let wait = try #require(world.timer(for: .poolWait(PoolRequestID(UInt64(limit + 1)))))
        #expect(actions == [.enqueueRequest(PoolRequestID(UInt64(limit + 1))), .scheduleTimer(wait)])
    }

    @Test("One origin at its limit never blocks another origin")
    func oneSlowOriginNeverBlocksAnother() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.arrive(1, at: "slow")
        try world.arrive(2, at: "slow")
        try world.leaseNewConnection(to: 3, at: "fast")
        #expect(world.state(of: R3) == .leased(C2))
        #expect(world.waitingRequests("slow") == [R1, R2])
    }

    @Test("A connection of one origin never serves a request for another")
    func connectionsServeOnlyTheirOrigin() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1, at: "a")
        try world.finish(C1)
        let actions = try world.arrive(2, at: "b")
        #expect(actions.contains(.createConnection(C2, origin: "b")))
        #expect(world.connections("a") { $0 == .idle } == [C1])
    }

    @Test("A cancelled waiter leaves the queue, and the connection it started serves the next waiter")
    func cancelledWaiterFreesItsPlace() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.arrive(1)
        try world.arrive(2)
        let wait = try #require(world.timer(for: .poolWait(R1)))
        #expect(try world.cancel(1) == [.cancelTimer(wait), .failRequest(R1, .cancelled)])
        let actions = try world.establish(C1)
        #expect(actions.contains(.leaseConnection(C1, to: R2, isReused: false)))
    }

    @Test("A connection whose waiter left before it was established parks idle")
    func connectionOfALeftWaiterParks() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.cancel(1)
        let actions = try world.establish(C1)
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        #expect(actions == [.scheduleTimer(idle)])
    }

    @Test("Cancelling a request that holds a connection, or that already ended, does nothing")
    func cancellingALeasedOrUnknownRequestDoesNothing() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        #expect(try world.cancel(1) == [])
        #expect(try world.cancel(99) == [])
    }

    @Test("A waiter fails with poolWaitTimeout at its own deadline when that comes first")
    func waiterTimesOutAtItsOwnDeadline() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2, deadline: world.now + .seconds(2))
        let wait = try #require(world.timer(for: .poolWait(R2)))
        #expect(wait.deadline == world.now + .seconds(2))
        #expect(try world.advance(by: .seconds(2)) == [.failRequest(R2, .poolWaitTimeout(lastConnectionFailure: nil))])
        #expect(try world.finish(C1).contains(.scheduleTimer(try #require(world.timer(for: .idleConnection(C1))))))
    }

    @Test("A waiter fails with poolWaitTimeout after poolWaitTimeout when its own deadline is later")
    func waiterTimesOutAtThePoolWaitTimeout() throws {
        var world = PoolWorld.with {
            $0.maximumConnectionsPerOrigin = 1
            $0.poolWaitTimeout = .seconds(3)
        }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2, deadline: world.now + .seconds(60))
        #expect(try world.advance(by: .milliseconds(2_999)) == [])
        #expect(
            try world.advance(by: .milliseconds(1)) == [.failRequest(R2, .poolWaitTimeout(lastConnectionFailure: nil))])
    }

    @Test("A request whose deadline has already passed fails at once without waiting")
    func expiredRequestFailsAtOnce() throws {
        var world = PoolWorld()
        let actions = try world.arrive(1, deadline: world.now)
        #expect(actions == [.failRequest(R1, .poolWaitTimeout(lastConnectionFailure: nil))])
        #expect(world.connections.isEmpty)
    }

    @Test("A request with an expired deadline still takes an idle connection that is there")
    func expiredRequestStillTakesAnIdleConnection() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        #expect(try world.arrive(2, deadline: world.now).contains(.leaseConnection(C1, to: R2, isReused: true)))
    }

    @Test("A timer fire that lost the race with its cancellation is ignored")
    func staleTimerFireIsIgnored() throws {
        var world = PoolWorld()
        try world.arrive(1)
        let wait = try #require(world.timer(for: .poolWait(R1)))
        try world.establish(C1)
        #expect(try world.fireStale(wait) == [])
        #expect(world.state(of: R1) == .leased(C1))
    }
}
