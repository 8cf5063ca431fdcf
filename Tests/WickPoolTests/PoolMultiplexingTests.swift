// Rules 13 to 16: multiplexed (HTTP/2) connections carry many requests, one stream each.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Multiplexed connections")
struct PoolMultiplexingTests {
    /// Leases to `request` in `actions`, in order.
    static func leases(_ actions: [Action]) -> [(PoolConnectionID, PoolRequestID)] {
        actions.compactMap { if case .leaseConnection(let id, let request, _) = $0 { (id, request) } else { nil } }
    }

    static func created(_ actions: [Action]) -> [PoolConnectionID] {
        actions.compactMap { if case .createConnection(let id, _) = $0 { id } else { nil } }
    }

    @Test(
        "A burst with a multiplexing hint opens one connection, which serves the waiters in FIFO order up to its capacity"
    )
    func aBurstOpensOneConnectionThatServesWaitersInOrder() throws {
        var world = PoolWorld()
        var created: [PoolConnectionID] = []
        for request in 1...5 { created += Self.created(try world.arrive(UInt64(request), multiplexingHint: 100)) }
        #expect(created == [C1])
        let actions = try world.establish(C1, streamCapacity: 3)
        #expect(Self.leases(actions).map(\.1) == [R1, R2, R3])
        #expect(Self.leases(actions).allSatisfy { $0.0 == C1 })
        // Two wait; the pool now expects 3 streams per connection, so one more connection serves both.
        #expect(Self.created(actions) == [C2])
        #expect(world.waitingRequests() == [R4, PoolRequestID(5)])
    }

    @Test("Without a hint every waiter starts its own attempt, as for HTTP/1.1; the extra connections park")
    func withoutAHintTheFirstBurstOpensOneAttemptPerWaiter() throws {
        var world = PoolWorld()
        for request in 1...3 { try world.arrive(UInt64(request)) }
        #expect(world.connections { $0 == .connecting }.count == 3)
        let actions = try world.establish(C1, streamCapacity: 10)
        #expect(Self.leases(actions).map(\.1) == [R1, R2, R3])
        try world.establish(C2, streamCapacity: 10)
        #expect(world.connections { $0 == .idle } == [C2])
    }

    @Test("A request takes a free stream on a busy connection before an idle one, and the lease says reused")
    func aFreeStreamIsTakenBeforeAnIdleConnection() throws {
        var world = PoolWorld()
        try world.arrive(1, multiplexingHint: 10)
        try world.establish(C1, streamCapacity: 10)
        let actions = try world.arrive(2, multiplexingHint: 10)
        #expect(actions == [.leaseConnection(C1, to: R2, isReused: true)])
        #expect(world.connections[C1]?.state == .multiplexing([R1, R2]))
    }

    @Test("A released stream goes to the oldest waiter; the last one parks the connection idle")
    func aReleasedStreamServesTheOldestWaiter() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        for request in 1...3 { try world.arrive(UInt64(request), multiplexingHint: 2) }
        try world.establish(C1, streamCapacity: 2)
        #expect(world.waitingRequests() == [R3])
        let released = try world.releaseStream(of: R1, on: C1)
        #expect(Self.leases(released).map(\.1) == [R3])
        try world.releaseStream(of: R2, on: C1)
        try world.releaseStream(of: R3, on: C1)
        #expect(world.connections[C1]?.state == .idle)
        #expect(world.timer(for: .idleConnection(C1)) != nil)
    }

    @Test("A larger capacity from the server's SETTINGS serves waiters at once; a smaller one waits for streams to end")
    func capacityChangesTakeEffect() throws {
        var world = PoolWorld.with { $0.maximumConnectionsPerOrigin = 1 }
        for request in 1...4 { try world.arrive(UInt64(request), multiplexingHint: 1) }
        try world.establish(C1, streamCapacity: 1)
        let grown = try world.changeCapacity(of: C1, to: 3)
        #expect(Self.leases(grown).map(\.1) == [R2, R3])
        try world.changeCapacity(of: C1, to: 1)
        let released = try world.releaseStream(of: R1, on: C1)
        #expect(Self.leases(released).isEmpty, "three streams are open against a capacity of one")
        #expect(world.waitingRequests() == [R4])
    }

    @Test("GOAWAY: no new streams, waiters get a new connection, the old one closes after its last stream")
    func goAwayDrainsTheConnection() throws {
        var world = PoolWorld()
        try world.arrive(1, multiplexingHint: 2)
        try world.establish(C1, streamCapacity: 2)
        try world.arrive(2, multiplexingHint: 2)
        let away = try world.goAway(C1)
        #expect(away.isEmpty)
        #expect(world.connections[C1]?.state == .draining([R1, R2]))
        let next = try world.arrive(3, multiplexingHint: 2)
        #expect(Self.created(next) == [C2])
        try world.releaseStream(of: R1, on: C1)
        let last = try world.releaseStream(of: R2, on: C1)
        #expect(last == [.closeConnection(C1, .serverGoingAway)])
        #expect(world.pool.statistics.total.closing == 1)
        try world.completeClose(C1)
    }

    @Test("GOAWAY on an idle connection closes it at once")
    func goAwayOnAnIdleConnectionClosesIt() throws {
        var world = PoolWorld()
        try world.arrive(1, multiplexingHint: 2)
        try world.establish(C1, streamCapacity: 2)
        try world.releaseStream(of: R1, on: C1)
        let idle = try #require(world.timer(for: .idleConnection(C1)))
        let actions = try world.goAway(C1)
        #expect(actions == [.cancelTimer(idle), .closeConnection(C1, .serverGoingAway)])
    }

    @Test("The request limit stops new streams; the connection retires when its last stream ends")
    func theRequestLimitStopsNewStreams() throws {
        var world = PoolWorld.with { $0.maximumRequestsPerConnection = 2 }
        for request in 1...3 { try world.arrive(UInt64(request), multiplexingHint: 10) }
        let actions = try world.establish(C1, streamCapacity: 10)
        #expect(Self.leases(actions).map(\.1) == [R1, R2])
        #expect(Self.created(actions) == [C2])
        try world.releaseStream(of: R1, on: C1)
        let last = try world.releaseStream(of: R2, on: C1)
        #expect(last == [.closeConnection(C1, .requestLimitReached)])
    }

    @Test("A replay takes only a multiplexed connection that never carried a request")
    func aReplayNeedsAFreshConnection() throws {
        var world = PoolWorld()
        try world.arrive(1, multiplexingHint: 10)
        try world.establish(C1, streamCapacity: 10)
        let actions = try world.arrive(2, isReplay: true, multiplexingHint: 10)
        #expect(Self.leases(actions).isEmpty)
        #expect(Self.created(actions) == [C2])
    }

    @Test("Shutdown with drain waits for every stream; with cancel it closes busy connections")
    func shutdownWaitsForStreamsOrClosesThem() throws {
        var draining = PoolWorld()
        try draining.arrive(1, multiplexingHint: 4)
        try draining.establish(C1, streamCapacity: 4)
        try draining.arrive(2, multiplexingHint: 4)
        #expect(try draining.shutdown(.drain).isEmpty)
        #expect(try draining.releaseStream(of: R1, on: C1).isEmpty)
        #expect(try draining.releaseStream(of: R2, on: C1) == [.closeConnection(C1, .shutdown)])
        #expect(try draining.completeClose(C1) == [.shutdownComplete])

        var cancelling = PoolWorld()
        try cancelling.arrive(1, multiplexingHint: 4)
        try cancelling.establish(C1, streamCapacity: 4)
        #expect(try cancelling.shutdown(.cancel) == [.closeConnection(C1, .shutdown)])
    }

    @Test("A stream released on an HTTP/1.1 connection traps, naming the event")
    func streamReleasedOnAnHTTP1ConnectionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var pool = PoolStateMachine<String, TestFailure>()
            let now = Deadline(uptimeNanoseconds: 1)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
            _ = pool.connectionEstablished(PoolConnectionID(1), at: now)
            _ = pool.streamReleased(on: PoolConnectionID(1), at: now)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("streamReleased(on: C1): the connection is leased"))
    }

    @Test("GOAWAY on an HTTP/1.1 connection traps")
    func goAwayOnAnHTTP1ConnectionTraps() async {
        await #expect(processExitsWith: .failure) {
            var pool = PoolStateMachine<String, TestFailure>()
            let now = Deadline(uptimeNanoseconds: 1)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
            _ = pool.connectionEstablished(PoolConnectionID(1), at: now)
            _ = pool.connectionGoingAway(PoolConnectionID(1), at: now)
        }
    }
}
