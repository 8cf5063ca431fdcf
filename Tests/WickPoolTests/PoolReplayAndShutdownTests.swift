// Rules 8 and 11: replays on fresh connections, prewarming, and the two ways of shutting down.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Replays on fresh connections")
struct PoolReplayTests {
    @Test("A replay never gets a connection that carried a request before")
    func replayAvoidsUsedConnections() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        let actions = try world.arrive(2, isReplay: true)
        #expect(actions.contains(.createConnection(C2, origin: "a")))
        #expect(world.connections { $0 == .idle } == [C1])
        #expect(try world.establish(C2).contains(.leaseConnection(C2, to: R2, isReused: false)))
    }

    @Test("A replay takes an idle connection that never carried a request")
    func replayTakesANeverUsedIdleConnection() throws {
        var world = PoolWorld()
        try world.prewarm(connections: 1)
        try world.establish(C1)
        #expect(try world.arrive(1, isReplay: true).contains(.leaseConnection(C1, to: R1, isReused: false)))
    }

    @Test("At the connection limit, a replay closes the oldest idle connection to make room")
    func replayMakesRoomAtTheLimit() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 2 }
        try world.leaseNewConnection(to: 1)
        try world.leaseNewConnection(to: 2)
        try world.finish(C1)
        try world.finish(C2)
        let actions = try world.arrive(3, isReplay: true)
        #expect(actions.contains(.closeConnection(C1, .madeRoomForFreshConnection)))
        #expect(world.connections { $0 == .idle } == [C2])
        #expect(try world.completeClose(C1) == [.createConnection(C3, origin: "a")])
        #expect(try world.establish(C3).contains(.leaseConnection(C3, to: R3, isReused: false)))
        #expect(world.pool.statistics.total.replayed == 1)
    }

    @Test("At the limit with every connection busy, a replay gets the room of the next one to come back")
    func replayWaitsForRoomWhenEveryConnectionIsBusy() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        #expect(try world.arrive(2, isReplay: true).count == 2)  // enqueued with its timer, nothing started
        #expect(try world.finish(C1).contains(.closeConnection(C1, .madeRoomForFreshConnection)))
        #expect(try world.completeClose(C1) == [.createConnection(C2, origin: "a")])
        #expect(try world.establish(C2).contains(.leaseConnection(C2, to: R2, isReused: false)))
    }

    @Test("A used connection passes over a waiting replay to the next plain waiter")
    func usedConnectionPassesOverAReplay() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2, isReplay: true)
        try world.arrive(3)
        #expect(try world.finish(C1).contains(.leaseConnection(C1, to: R3, isReused: true)))
    }
}

@Suite("Prewarming")
struct PoolPrewarmTests {
    @Test("prewarm opens connections up to the count, capped by the connection and idle limits")
    func prewarmOpensUpToTheLimits() throws {
        var world = PoolWorld.with {
            $0.maximumConnectionsPerOrigin = 4
            $0.maximumIdleConnectionsPerOrigin = 3
        }
        #expect(
            try world.prewarm(connections: 2) == [
                .createConnection(C1, origin: "a"), .createConnection(C2, origin: "a"),
            ])
        #expect(try world.prewarm(connections: 10) == [.createConnection(C3, origin: "a")])
        try world.establish(C1)
        #expect(world.timer(for: .idleConnection(C1)) != nil)
    }
}

@Suite("Shutdown")
struct PoolShutdownTests {
    @Test("Draining fails waiters, closes idle and connecting connections, and lets leased ones finish")
    func drainLetsLeasedRequestsFinish() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 2 }
        try world.leaseNewConnection(to: 1, at: "a")
        try world.arrive(2, at: "a")
        try world.arrive(3, at: "a")
        try world.leaseNewConnection(to: 4, at: "b")
        try world.finish(C3)
        let idle = try #require(world.timer(for: .idleConnection(C3)))
        let wait2 = try #require(world.timer(for: .poolWait(R2)))
        let wait3 = try #require(world.timer(for: .poolWait(R3)))
        let actions = try world.shutdown(.drain)
        #expect(
            actions == [
                .cancelTimer(wait2), .failRequest(R2, .shutdown), .cancelTimer(wait3), .failRequest(R3, .shutdown),
                .closeConnection(C2, .shutdown), .cancelTimer(idle), .closeConnection(C3, .shutdown),
            ])
        #expect(world.state(of: R1) == .leased(C1))
        #expect(try world.finish(C1) == [.closeConnection(C1, .shutdown)])
        #expect(try world.completeClose(C1) == [])
        #expect(try world.completeClose(C2) == [])
        #expect(try world.completeClose(C3) == [.shutdownComplete])
    }

    @Test("Cancelling closes leased connections too")
    func cancelClosesLeasedConnections() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        #expect(try world.shutdown(.cancel) == [.closeConnection(C1, .shutdown)])
        #expect(try world.completeClose(C1) == [.shutdownComplete])
    }

    @Test("A cancel after a drain closes the leased connections; other repeats do nothing")
    func cancelAfterDrainEscalates() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        #expect(try world.shutdown(.drain) == [])
        #expect(try world.shutdown(.drain) == [])
        #expect(try world.shutdown(.cancel) == [.closeConnection(C1, .shutdown)])
        #expect(try world.shutdown(.cancel) == [])
        try world.completeClose(C1)
        #expect(try world.shutdown(.drain) == [])
    }

    @Test("An empty pool completes its shutdown at once")
    func emptyPoolShutsDownAtOnce() throws {
        var world = PoolWorld()
        #expect(try world.shutdown(.drain) == [.shutdownComplete])
    }

    @Test("Requests after shutdown began fail with shutdown, and prewarm does nothing")
    func requestsAfterShutdownFail() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.shutdown(.drain)
        #expect(try world.arrive(2) == [.failRequest(R2, .shutdown)])
        #expect(try world.prewarm(connections: 2) == [])
        try world.finish(C1)
        try world.completeClose(C1)
        #expect(try world.arrive(3) == [.failRequest(R3, .shutdown)])
    }

    @Test("Shutdown cancels a pending backoff")
    func shutdownCancelsBackoff() throws {
        var world = PoolWorld()
        try world.arrive(1)
        try world.failAttempt(C1)
        let backoff = try #require(world.timer(for: .backoff("a")))
        let actions = try world.shutdown(.drain)
        #expect(actions.first == .cancelTimer(backoff))
        #expect(actions.last == .shutdownComplete)
        #expect(world.armedTimers.isEmpty)
    }
}
