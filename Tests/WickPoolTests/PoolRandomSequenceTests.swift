// Seeded random event sequences against the pool, with its invariants checked after every step.
import Testing
import WickCore
import WickPool

/// A small, fast, seedable generator (SplitMix64), so a failing sequence replays from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("The pool under random event sequences")
struct PoolRandomSequenceTests {
    /// Even seeds end with a draining shutdown, odd ones with a cancelling one.
    static let seeds: [UInt64] = [1, 2, 3, 42, 2026, 0xC0FFEE]
    static let stepsBeforeShutdown = 6_000

    /// Tight limits so that every rule is exercised often.
    static var settings: PoolSettings {
        var settings = PoolSettings()
        settings.maximumConnectionsPerOrigin = 3
        settings.maximumIdleConnectionsPerOrigin = 2
        settings.idleTimeout = .seconds(5)
        settings.maximumConnectionLifetime = .seconds(20)
        settings.maximumRequestsPerConnection = 4
        settings.poolWaitTimeout = .seconds(8)
        settings.keepAliveTimeoutMargin = .seconds(1)
        settings.initialBackoff = .milliseconds(100)
        settings.maximumBackoff = .seconds(2)
        return settings
    }

    @Test(
        "After every step: connections within limits, gauges match the world, no request both waiting and leased; at the end every request completed once, every timer fired or cancelled, shutdown complete",
        arguments: seeds
    )
    func invariantsHoldUnderRandomEvents(seed: UInt64) throws {
        var run = RandomRun(seed: seed, settings: Self.settings)
        do {
            try run.play(steps: Self.stepsBeforeShutdown)
        } catch {
            Issue.record("seed \(seed), step \(run.step): \(error)")
            return
        }
        let world = run.world
        #expect(world.shutdownCompletions == 1)
        #expect(world.connections.isEmpty)
        #expect(world.armedTimers.isEmpty, "timers neither fired nor cancelled: \(world.armedTimers.values)")
        let unfinished = world.requests.keys.filter { world.completions[$0] != 1 }
        #expect(unfinished.isEmpty, "requests not completed exactly once: \(unfinished.sorted())")
        // The run must have exercised the interesting paths, or it proves little.
        let total = world.pool.statistics.total
        #expect(total.reused > 100 && total.failedAttempts > 50 && total.evicted > 10 && total.replayed > 50)
        #expect(
            run.outcomes.poolWaitTimeouts > 10 && run.outcomes.cancellations > 10 && run.outcomes.connectionFailures > 5
        )
    }

    @Test(
        "With multiplexed (HTTP/2) origins beside an HTTP/1.1 one: the same invariants, no waiter while a stream is free, no stream past a capacity, every drained connection closed",
        arguments: seeds
    )
    func invariantsHoldWithMultiplexedConnections(seed: UInt64) throws {
        var run = RandomRun(
            seed: seed, settings: Self.settings,
            multiplexedOrigins: ["https://a.example": 1...6, "http://c.example:8080": 2...3])
        do {
            try run.play(steps: Self.stepsBeforeShutdown)
        } catch {
            Issue.record("seed \(seed), step \(run.step): \(error)")
            return
        }
        let world = run.world
        #expect(world.shutdownCompletions == 1)
        #expect(world.connections.isEmpty)
        #expect(world.armedTimers.isEmpty, "timers neither fired nor cancelled: \(world.armedTimers.values)")
        let unfinished = world.requests.keys.filter { world.completions[$0] != 1 }
        #expect(unfinished.isEmpty, "requests not completed exactly once: \(unfinished.sorted())")
        let total = world.pool.statistics.total
        #expect(total.reused > 100 && total.failedAttempts > 50 && total.replayed > 50)
        #expect(world.sharedStreamLeases > 200, "streams shared \(world.sharedStreamLeases) times")
        #expect(run.outcomes.goAwaysWithStreams > 10 && run.outcomes.capacityChanges > 20)
        #expect(run.outcomes.poolWaitTimeouts > 5 && run.outcomes.cancellations > 5)
    }
}

/// One random run: a world, a generator, and the step count for error messages.
struct RandomRun {
    struct Outcomes {
        var poolWaitTimeouts = 0
        var cancellations = 0
        var connectionFailures = 0
        var shutdownFailures = 0
        var goAwaysWithStreams = 0
        var capacityChanges = 0
    }

    var world: PoolWorld
    var random: SplitMix64
    var step = 0
    var outcomes = Outcomes()
    private var nextRequest: UInt64 = 0
    private let origins = ["https://a.example", "https://b.example", "http://c.example:8080"]

    private let shutdownMode: PoolShutdownMode
    /// Origins whose connections are multiplexed, with the range their stream capacity is
    /// drawn from; the others carry one request at a time.
    private let multiplexedOrigins: [String: ClosedRange<Int>]

    init(seed: UInt64, settings: PoolSettings, multiplexedOrigins: [String: ClosedRange<Int>] = [:]) {
        self.multiplexedOrigins = multiplexedOrigins
        world = PoolWorld(settings: settings)
        random = SplitMix64(seed: seed)
        shutdownMode = seed % 2 == 0 ? .drain : .cancel
    }

    /// Plays `steps` random events, then shuts down and plays on until the pool reports that
    /// shutdown is complete (bounded).
    mutating func play(steps: Int) throws {
        for _ in 0..<steps {
            try randomStep()
        }
        try count(world.shutdown(shutdownMode))
        try world.checkInvariants()
        var bound = 10_000
        while world.shutdownCompletions == 0 {
            bound -= 1
            guard bound > 0 else { throw WorldViolation("shutdown never completed") }
            try randomStep(afterShutdown: true)
        }
    }

    private mutating func randomStep(afterShutdown: Bool = false) throws {
        step += 1
        let roll = Int.random(in: 0..<(multiplexedOrigins.isEmpty ? 100 : 112), using: &random)
        switch roll {
        case 0..<22 where !afterShutdown || roll < 2:
            nextRequest += 1
            let origin = origins[Int.random(in: 0..<origins.count, using: &random)]
            let deadline: Deadline =
                Bool.random(using: &random)
                ? .distantFuture : world.now + .milliseconds(Int.random(in: -100...12_000, using: &random))
            let isReplay = Int.random(in: 0..<10, using: &random) == 0
            let hint = multiplexedOrigins[origin].map(\.upperBound)
            try count(
                world.arrive(nextRequest, at: origin, deadline: deadline, isReplay: isReplay, multiplexingHint: hint))
        case 22..<27:
            if let request = pick(world.waitingRequests()) { try count(world.cancel(request.rawValue)) }
        case 27..<45:
            if let id = pick(world.connections { $0 == .connecting }) {
                let capacity = try multiplexedOrigins[origin(of: id)].map { Int.random(in: $0, using: &random) }
                try count(world.establish(id, streamCapacity: capacity))
            }
        case 45..<50:
            if let id = pick(world.connections { $0 == .connecting }) {
                let permanent = Int.random(in: 0..<8, using: &random) == 0
                try count(world.failAttempt(id, permanent ? .trustRejected : .refused, isRetryable: !permanent))
            }
        case 50..<72:
            let busy = world.connections {
                switch $0 {
                case .leased, .multiplexing, .draining: true
                default: false
                }
            }
            guard let id = pick(busy) else { break }
            switch world.connections[id]!.state {
            case .multiplexing(let requests), .draining(let requests):
                if let request = pick(requests.sorted()) { try count(world.releaseStream(of: request, on: id)) }
            default:
                try count(
                    world.finish(id, keepAlive: randomHint(), isReusable: Int.random(in: 0..<8, using: &random) != 0))
            }
        case 72..<76:
            let open = world.connections {
                switch $0 {
                case .idle, .leased, .multiplexing, .draining: true
                default: false
                }
            }
            if let id = pick(open) {
                try count(world.serverCloses(id, error: Bool.random(using: &random) ? nil : .reset))
            }
        case 76..<86:
            let closing = world.connections { if case .closing = $0 { true } else { false } }
            if let id = pick(closing) {
                if Int.random(in: 0..<4, using: &random) == 0 { try world.strayReport(about: id) }
                let closer: Pool.ClosedBy =
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0: .peer
                    case 1: .error(.reset)
                    default: .local
                    }
                try count(world.completeClose(id, by: closer))
            }
        case 86..<97:
            try count(world.advance(by: .milliseconds(Int.random(in: 0...3_000, using: &random))))
        case 97..<99:
            let origin = origins[Int.random(in: 0..<origins.count, using: &random)]
            try count(world.prewarm(origin, connections: Int.random(in: 0...4, using: &random)))
        case 99:
            // A fire that lost the race with its cancellation: the pool must ignore it.
            if let stale = pick(world.finishedTimerList) {
                try world.fireStale(stale)
            }
        case 100..<104:
            let multiplexed = world.connections {
                switch $0 {
                case .idle, .multiplexing: true
                default: false
                }
            }.filter { world.connections[$0]!.streamCapacity != nil }
            if let id = pick(multiplexed) {
                if case .multiplexing = world.connections[id]!.state { outcomes.goAwaysWithStreams += 1 }
                try count(world.goAway(id))
            }
        default:
            let multiplexed = world.connections { _ in true }.filter { world.connections[$0]!.streamCapacity != nil }
            if let id = pick(multiplexed), let range = try multiplexedOrigins[origin(of: id)] {
                outcomes.capacityChanges += 1
                try count(world.changeCapacity(of: id, to: Int.random(in: range, using: &random)))
            }
        }
        try world.checkInvariants()
    }

    private func origin(of id: PoolConnectionID) throws -> String {
        guard let connection = world.connections[id] else { throw WorldViolation("no connection \(id)") }
        return connection.origin
    }

    private mutating func randomHint() -> KeepAliveHint? {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: nil
        case 6..<8: KeepAliveHint(timeout: .seconds(Int.random(in: 0...10, using: &random)))
        default:
            KeepAliveHint(
                timeout: .seconds(Int.random(in: 2...10, using: &random)),
                maximumRequests: Int.random(in: 0...5, using: &random)
            )
        }
    }

    private mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
    }

    private mutating func count(_ actions: [Action]) {
        for case .failRequest(_, let failure) in actions {
            switch failure {
            case .poolWaitTimeout: outcomes.poolWaitTimeouts += 1
            case .cancelled: outcomes.cancellations += 1
            case .connectionFailed: outcomes.connectionFailures += 1
            case .shutdown: outcomes.shutdownFailures += 1
            }
        }
    }
}
