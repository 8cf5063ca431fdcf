// Rules 4 and 6: idle connections, their timers, and when a connection is retired instead of reused.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Idle connections and retirement")
struct PoolRetirementTests {
    @Test("An idle connection is closed when idleTimeout passes")
    func idleTimeoutClosesTheConnection() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(5) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        #expect(idle.deadline == world.now + .seconds(5))
        #expect(try world.advance(by: .seconds(5)) == [.closeConnection(C1, .idleTimeout)])
        #expect(try world.completeClose(C1) == [])
        #expect(world.pool.statistics.total.live == 0)
    }

    @Test("maximumIdleConnectionsPerOrigin: N connections park; connection N+1 is closed", arguments: [0, 1, 3])
    func idleLimitPerOrigin(limit: Int) throws {
        var world = PoolWorld.with { $0.maximumIdleConnectionsPerOrigin = limit }
        for request in 1...(limit + 1) {
            try world.leaseNewConnection(to: UInt64(request))
        }
        for index in 0..<limit {
            try world.finish(PoolConnectionID(UInt64(index + 1)))
        }
        #expect(world.connections { $0 == .idle }.count == limit)
        let last = PoolConnectionID(UInt64(limit + 1))
        #expect(try world.finish(last) == [.closeConnection(last, .tooManyIdle)])
    }

    @Test("The server's Keep-Alive timeout is honoured, less the margin")
    func serverKeepAliveTimeoutRetiresEarly() throws {
        var world = PoolWorld.with { $0.keepAliveTimeoutMargin = .seconds(1) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1, keepAlive: KeepAliveHint(timeout: .seconds(5)))
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        #expect(idle.deadline == world.now + .seconds(4))
        #expect(try world.advance(by: .seconds(4)) == [.closeConnection(C1, .serverKeepAliveTimeout)])
    }

    @Test("A Keep-Alive timeout no longer than the margin retires the connection at once")
    func keepAliveTimeoutWithinTheMarginRetires() throws {
        var world = PoolWorld.with { $0.keepAliveTimeoutMargin = .seconds(1) }
        try world.leaseNewConnection(to: 1)
        #expect(
            try world.finish(C1, keepAlive: KeepAliveHint(timeout: .seconds(1))) == [
                .closeConnection(C1, .serverKeepAliveTimeout)
            ])
        try world.leaseNewConnection(to: 2)
        let actions = try world.finish(C2, keepAlive: KeepAliveHint(timeout: .seconds(2)))
        #expect(actions == [.scheduleTimer(try #require(world.timer(for: .idleConnection(C2))))])
    }

    @Test("The server's Keep-Alive max= is honoured: max=0 retires, max=1 allows one more request")
    func serverKeepAliveMaxIsHonoured() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        #expect(
            try world.finish(C1, keepAlive: KeepAliveHint(maximumRequests: 0)) == [
                .closeConnection(C1, .serverRequestLimitReached)
            ])
        try world.leaseNewConnection(to: 2)
        try world.finish(C2, keepAlive: KeepAliveHint(maximumRequests: 1))
        try world.arrive(3)
        let armed = try #require(world.timer(for: .idleConnection(C2)))
        #expect(try world.finish(C2) == [.cancelTimer(armed), .closeConnection(C2, .serverRequestLimitReached)])
    }

    @Test("maximumRequestsPerConnection: a connection carries N requests, then retires", arguments: [1, 2, 4])
    func requestLimitPerConnection(limit: Int) throws {
        var world = PoolWorld.with { $0.maximumRequestsPerConnection = limit }
        try world.leaseNewConnection(to: 1)
        for request in 1..<limit {
            try world.finish(C1)
            try world.arrive(UInt64(request + 1))
        }
        // Parked before (limit > 1), it carries its retirement timer until it closes.
        let cancelled: [Action] = world.timer(for: .idleConnection(C1)).map { [.cancelTimer($0)] } ?? []
        #expect(try world.finish(C1) == cancelled + [.closeConnection(C1, .requestLimitReached)])
    }

    @Test("maximumConnectionLifetime: a connection back just before it parks; one back at it retires")
    func lifetimeRetiresAReturningConnection() throws {
        var world = PoolWorld.with { $0.maximumConnectionLifetime = .seconds(10) }
        try world.leaseNewConnection(to: 1)
        try world.leaseNewConnection(to: 2)
        try world.advance(by: .milliseconds(9_999))
        #expect(try world.finish(C1) == [.scheduleTimer(try #require(world.timer(for: .idleConnection(C1))))])
        try world.advance(by: .milliseconds(1))
        #expect(try world.finish(C2) == [.closeConnection(C2, .lifetimeExpired)])
    }

    @Test("The Keep-Alive timeout applies to the response that carried it; a later one without it restores idleTimeout")
    func keepAliveTimeoutFollowsTheLatestResponse() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(30) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1, keepAlive: KeepAliveHint(timeout: .seconds(5)))
        try world.arrive(2)
        try world.finish(C1)
        let parked = world.now
        // The timer armed for the first park (5 s less the 1 s margin) is due first; it finds
        // the connection's deadline later and arms again for the rest (rule 4).
        let early = try #require(world.timer(for: .idleConnection(C1)))
        #expect(early.deadline == parked + .seconds(4))
        let rearmed = try world.advance(by: .seconds(4))
        let rest = try #require(world.timer(for: .idleConnection(C1)))
        #expect(rearmed == [.scheduleTimer(rest)])
        #expect(rest.deadline == parked + .seconds(30))
        #expect(try world.advance(by: .seconds(26)) == [.closeConnection(C1, .idleTimeout)])
    }

    @Test("A park with an earlier deadline than the armed timer's replaces the timer")
    func anEarlierDeadlineReplacesTheArmedTimer() throws {
        var world = PoolWorld.with {
            $0.idleTimeout = .seconds(30)
            $0.keepAliveTimeoutMargin = .seconds(1)
        }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        let late = try #require(world.timer(for: .idleConnection(C1)))
        try world.arrive(2)
        let actions = try world.finish(C1, keepAlive: KeepAliveHint(timeout: .seconds(5)))
        let early = try #require(world.timer(for: .idleConnection(C1)))
        #expect(actions == [.cancelTimer(late), .scheduleTimer(early)])
        #expect(early.deadline == world.now + .seconds(4))
        #expect(try world.advance(by: .seconds(4)) == [.closeConnection(C1, .serverKeepAliveTimeout)])
    }

    @Test("A retirement timer that fires while its connection is busy lapses; the next park arms another")
    func aTimerFiringOnABusyConnectionLapses() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(5) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        try world.arrive(2)
        #expect(try world.advance(by: .seconds(5)) == [])
        #expect(world.timer(for: .idleConnection(C1)) == nil)
        let actions = try world.finish(C1)
        let next = try #require(world.timer(for: .idleConnection(C1)))
        #expect(actions == [.scheduleTimer(next)])
        #expect(next.deadline == world.now + .seconds(5))
        #expect(try world.advance(by: .seconds(5)) == [.closeConnection(C1, .idleTimeout)])
    }

    @Test("A closing connection may end by the server's hand before the pool's close completes")
    func closingConnectionMayEndByThePeer() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(1) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        try world.advance(by: .seconds(1))
        #expect(try world.completeClose(C1, by: .peer) == [])
        #expect(world.pool.statistics.total.live == 0)
    }

    @Test("An idle connection's timer is capped at the end of its lifetime")
    func lifetimeCapsTheIdleTimer() throws {
        var world = PoolWorld.with {
            $0.maximumConnectionLifetime = .seconds(10)
            $0.idleTimeout = .seconds(60)
        }
        let established = world.now
        try world.leaseNewConnection(to: 1)
        try world.advance(by: .seconds(7))
        try world.finish(C1)
        #expect(try #require(world.timer(for: .idleConnection(C1))).deadline == established + .seconds(10))
        #expect(try world.advance(by: .seconds(3)) == [.closeConnection(C1, .lifetimeExpired)])
    }

    @Test("A response that forbids reuse retires the connection, and a waiter gets a new one once it is closed")
    func notReusableRetiresAndIsReplaced() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2)
        #expect(try world.finish(C1, isReusable: false) == [.closeConnection(C1, .notReusable)])
        #expect(try world.completeClose(C1) == [.createConnection(C2, origin: "a")])
        #expect(try world.establish(C2).contains(.leaseConnection(C2, to: R2, isReused: false)))
    }

    @Test("An idle connection closed by the server is evicted, its timer cancelled and the gauges updated")
    func serverCloseEvictsAnIdleConnection() throws {
        var world = PoolWorld()
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        #expect(try world.serverCloses(C1) == [.cancelTimer(idle)])
        let statistics = world.pool.statistics
        #expect(statistics.total.idle == 0 && statistics.total.evicted == 1)
        #expect(statistics.origins["a"] == nil)
    }

    @Test("A leased connection that closes frees its place for the next waiter")
    func leasedConnectionCloseFreesItsPlace() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2)
        #expect(try world.serverCloses(C1, error: .reset) == [.createConnection(C2, origin: "a")])
    }

    @Test("Reports racing the pool's own close are ignored until the close completes")
    func reportsRacingACloseAreIgnored() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(1) }
        try world.leaseNewConnection(to: 1)
        try world.shutdown(.cancel)
        #expect(try world.strayReport(about: C1) == [])
        #expect(try world.completeClose(C1) == [.shutdownComplete])
    }
}
