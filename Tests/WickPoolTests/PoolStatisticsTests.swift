// The statistics snapshot: gauges per origin and in total, counters, and pool-wait time.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Statistics")
struct PoolStatisticsTests {
    @Test("Gauges count idle, leased, connecting, closing and waiting per origin and in total")
    func gaugesPerOriginAndTotal() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 2 }
        try world.leaseNewConnection(to: 1, at: "a")
        try world.arrive(2, at: "a")
        try world.arrive(3, at: "a")
        try world.leaseNewConnection(to: 4, at: "b")
        try world.finish(C3)
        let statistics = world.pool.statistics
        let a = try #require(statistics.origins["a"])
        let b = try #require(statistics.origins["b"])
        #expect((a.leased, a.connecting, a.waiting, a.idle) == (1, 1, 2, 0))
        #expect((b.leased, b.idle) == (0, 1))
        #expect((statistics.total.live, statistics.total.waiting) == (3, 2))
    }

    @Test("Pool-wait time is summed from arrival to lease, using the times the runner passes in")
    func poolWaitTimeIsSummed() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        try world.leaseNewConnection(to: 1)
        try world.arrive(2)
        try world.advance(by: .milliseconds(250))
        try world.finish(C1)
        try world.advance(by: .milliseconds(50))
        try world.finish(C1)
        try world.arrive(3)
        let total = world.pool.statistics.total
        #expect(total.totalPoolWait == .milliseconds(250))
        #expect((total.leases, total.reused, total.created) == (3, 2, 1))
    }

    @Test("An origin's counters stay in the total after the origin empties and leaves the snapshot")
    func countersOutliveTheirOrigin() throws {
        var world = PoolWorld.with { $0.idleTimeout = .seconds(1) }
        try world.leaseNewConnection(to: 1)
        try world.finish(C1)
        try world.advance(by: .seconds(1))
        try world.completeClose(C1)
        let statistics = world.pool.statistics
        #expect(statistics.origins.isEmpty)
        #expect((statistics.total.created, statistics.total.retired, statistics.total.live) == (1, 1, 0))
    }
}
