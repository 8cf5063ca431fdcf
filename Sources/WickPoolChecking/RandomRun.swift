// One seeded random run of events against the pool, with its invariants checked after every step.
package import WickCore
package import WickPool

/// One random run: a world, a generator, the step count and the last events for error messages.
package struct RandomRun {
    /// How many failures of each kind the run caused, to prove the interesting paths were reached.
    package struct Outcomes {
        package var poolWaitTimeouts = 0
        package var cancellations = 0
        package var connectionFailures = 0
        package var shutdownFailures = 0
        package var goAwaysWithStreams = 0
        package var capacityChanges = 0
    }

    package var world: PoolWorld
    package var random: SplitMix64
    package var step = 0
    package var outcomes = Outcomes()
    /// The last `traceLength` events played, oldest first, for a failure's report.
    package private(set) var trace: [String] = []
    /// A rule checked after every step beside `PoolWorld.checkInvariants` (a test injects one
    /// that breaks to see the failure reported); nil: none.
    package var extraInvariant: (@Sendable (PoolWorld) throws -> Void)?
    /// How many events `trace` keeps.
    package static let traceLength = 40
    private var nextRequest: UInt64 = 0
    private let origins = ["https://a.example", "https://b.example", "http://c.example:8080"]

    private let shutdownMode: PoolShutdownMode
    /// Origins whose connections are multiplexed, with the range their stream capacity is
    /// drawn from; the others carry one request at a time.
    private let multiplexedOrigins: [String: ClosedRange<Int>]

    package init(seed: UInt64, settings: PoolSettings, multiplexedOrigins: [String: ClosedRange<Int>] = [:]) {
        self.multiplexedOrigins = multiplexedOrigins
        world = PoolWorld(settings: settings)
        random = SplitMix64(seed: seed)
        shutdownMode = seed % 2 == 0 ? .drain : .cancel
    }

    /// Plays `steps` random events, then shuts down and plays on until the pool reports that
    /// shutdown is complete (bounded).
    /// - Throws: `WorldViolation` when an invariant broke or the pool asked for an illegal move.
    package mutating func play(steps: Int) throws {
        for _ in 0..<steps {
            try randomStep()
        }
        note("shutdown \(shutdownMode)")
        try count(world.shutdown(shutdownMode))
        try world.checkInvariants()
        try extraInvariant?(world)
        var bound = 10_000
        while world.shutdownCompletions == 0 {
            bound -= 1
            guard bound > 0 else { throw WorldViolation("shutdown never completed") }
            try randomStep(afterShutdown: true)
        }
    }

    /// Checks what must hold once `play` returned: shutdown completed once, no connection
    /// left, every timer fired or cancelled, every request completed exactly once.
    /// - Throws: `WorldViolation` naming the first that does not hold.
    package func checkEnd() throws {
        guard world.shutdownCompletions == 1 else {
            throw WorldViolation("shutdown completed \(world.shutdownCompletions) times")
        }
        guard world.connections.isEmpty else {
            throw WorldViolation("connections left: \(world.connections.keys.sorted())")
        }
        guard world.armedTimers.isEmpty else {
            throw WorldViolation("timers neither fired nor cancelled: \(world.armedTimers.values)")
        }
        let unfinished = world.requests.keys.filter { world.completions[$0] != 1 }
        guard unfinished.isEmpty else {
            throw WorldViolation("requests not completed exactly once: \(unfinished.sorted())")
        }
    }

    /// Records `event` in `trace`.
    private mutating func note(_ event: String) {
        if trace.count == Self.traceLength { trace.removeFirst() }
        trace.append("\(step): \(event)")
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
            note("request \(nextRequest) arrives for \(origin)\(isReplay ? " (replay)" : "")")
            try count(
                world.arrive(nextRequest, at: origin, deadline: deadline, isReplay: isReplay, multiplexingHint: hint))
        case 22..<27:
            if let request = pick(world.waitingRequests()) {
                note("request \(request.rawValue) cancelled")
                try count(world.cancel(request.rawValue))
            }
        case 27..<45:
            if let id = pick(world.connections { $0 == .connecting }) {
                let capacity = try multiplexedOrigins[origin(of: id)].map { Int.random(in: $0, using: &random) }
                note("connection \(id) established\(capacity.map { ", \($0) streams" } ?? "")")
                try count(world.establish(id, streamCapacity: capacity))
            }
        case 45..<50:
            if let id = pick(world.connections { $0 == .connecting }) {
                let permanent = Int.random(in: 0..<8, using: &random) == 0
                note("connection \(id) attempt failed\(permanent ? " for good" : "")")
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
                if let request = pick(requests.sorted()) {
                    note("request \(request) done with its stream on \(id)")
                    try count(world.releaseStream(of: request, on: id))
                }
            default:
                note("connection \(id) finished its request")
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
                note("the server closes connection \(id)")
                try count(world.serverCloses(id, error: Bool.random(using: &random) ? nil : .reset))
            }
        case 76..<86:
            let closing = world.connections { if case .closing = $0 { true } else { false } }
            if let id = pick(closing) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    note("a stray report about connection \(id)")
                    try world.strayReport(about: id)
                }
                let closer: Pool.ClosedBy =
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0: .peer
                    case 1: .error(.reset)
                    default: .local
                    }
                note("connection \(id) closed (\(closer))")
                try count(world.completeClose(id, by: closer))
            }
        case 86..<97:
            let duration = Duration.milliseconds(Int.random(in: 0...3_000, using: &random))
            note("the clock advances \(duration)")
            try count(world.advance(by: duration))
        case 97..<99:
            let origin = origins[Int.random(in: 0..<origins.count, using: &random)]
            let connections = Int.random(in: 0...4, using: &random)
            note("prewarm \(connections) for \(origin)")
            try count(world.prewarm(origin, connections: connections))
        case 99:
            // A fire that lost the race with its cancellation: the pool must ignore it.
            if let stale = pick(world.finishedTimerList) {
                note("a stale timer fires: \(stale)")
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
                note("GOAWAY on connection \(id)")
                try count(world.goAway(id))
            }
        default:
            let multiplexed = world.connections { _ in true }.filter { world.connections[$0]!.streamCapacity != nil }
            if let id = pick(multiplexed), let range = try multiplexedOrigins[origin(of: id)] {
                outcomes.capacityChanges += 1
                let capacity = Int.random(in: range, using: &random)
                note("connection \(id) allows \(capacity) streams")
                try count(world.changeCapacity(of: id, to: capacity))
            }
        }
        try world.checkInvariants()
        try extraInvariant?(world)
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
