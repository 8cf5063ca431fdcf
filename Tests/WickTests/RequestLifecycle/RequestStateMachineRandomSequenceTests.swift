// Seeded random input sequences against the request lifecycle, with its rules checked after every step.
import Testing
import WickCore
import WickTestSupport

@testable import Wick
@testable import WickTransport

@Suite("The request lifecycle under random input sequences")
struct RequestStateMachineRandomSequenceTests {
    static let seeds: ClosedRange<UInt64> = 1...2_000
    static let steps = 60

    @Test(
        "After every input: at most one exchange, no step after a stop, one outcome for every waiter, the stop's error, a consistent public state; at the end, resumed and left to run, every request finishes"
    )
    func rulesHoldUnderRandomInputs() async throws {
        let coverage = try await withCancellations { cancellations -> RequestStateMachineWorld.Coverage? in
            var total = RequestStateMachineWorld.Coverage()
            for seed in Self.seeds {
                var run = RandomLifecycleRun(seed: seed, cancellations: cancellations)
                do {
                    try run.play(steps: Self.steps)
                    try run.settle()
                } catch {
                    Issue.record("seed \(seed), step \(run.step): \(error)\n\(run.trail.joined(separator: "\n"))")
                    return nil
                }
                total.add(run.world.coverage)
            }
            return total
        }
        guard let coverage else { return }
        // The runs must have taken the interesting paths, or they prove little.
        #expect(coverage.cancelWithExchangeInFlight > 0)
        #expect(coverage.heldStepReleasedByResume > 0)
        #expect(coverage.cancelDuringFinishing > 0)
        #expect(coverage.abortDuringFinishingIgnored > 0)
        #expect(coverage.waiterAddedAfterFinish > 0)
        #expect(coverage.waiterAddedWhileAnnouncing > 0)
        #expect(coverage.responseAfterCancel > 0)
        #expect(coverage.stepAfterStop > 0)
        #expect(coverage.verdictReadTwice > 0)
        #expect(coverage.abortBeatCancel > 0)
        #expect(coverage.exchangeCompletedWhileSuspended > 0)
        #expect(coverage.finishLostTheRace > 0)
        #expect(coverage.startedByWaiter > 0)
        #expect(coverage.finished == Self.seeds.count)
        print("RequestStateMachineRandomSequenceTests: \(Self.seeds.count) seeds × \(Self.steps) steps: \(coverage)")
    }
}

extension RequestStateMachineWorld.Coverage {
    mutating func add(_ other: Self) {
        cancelWithExchangeInFlight += other.cancelWithExchangeInFlight
        heldStepReleasedByResume += other.heldStepReleasedByResume
        cancelDuringFinishing += other.cancelDuringFinishing
        abortDuringFinishingIgnored += other.abortDuringFinishingIgnored
        waiterAddedAfterFinish += other.waiterAddedAfterFinish
        waiterAddedWhileAnnouncing += other.waiterAddedWhileAnnouncing
        responseAfterCancel += other.responseAfterCancel
        stepAfterStop += other.stepAfterStop
        verdictReadTwice += other.verdictReadTwice
        abortBeatCancel += other.abortBeatCancel
        exchangeCompletedWhileSuspended += other.exchangeCompletedWhileSuspended
        finishLostTheRace += other.finishLostTheRace
        startedByWaiter += other.startedByWaiter
        finished += other.finished
        stopped += other.stopped
    }
}

/// One random run: a world, a generator, and a trail of the inputs for the failure message.
struct RandomLifecycleRun {
    var world: RequestStateMachineWorld
    var random: SeededRandom
    var step = 0
    var trail: [String] = []

    init(seed: UInt64, cancellations: Cancellations) {
        random = SeededRandom(seed: seed)
        world = RequestStateMachineWorld(cancellations: cancellations, startsImmediately: seed % 3 != 0)
    }

    /// Plays `steps` random inputs, checking the rules after each.
    mutating func play(steps: Int) throws {
        for _ in 0..<steps {
            try randomStep()
        }
    }

    /// Lets the request run to its end: resumes it, runs every pending task and completes every
    /// exchange with a final response, and requires it to finish (bounded).
    mutating func settle() throws {
        for _ in 0..<100 {
            if world.phase == .finished && world.tasks.isEmpty { return }
            if world.phase == .initialized || (world.isSuspended && !world.isStopped) {
                try input("resume") { try $0.resume() }
            } else if !world.tasks.isEmpty {
                try input("run \(world.tasks[0].name)") { try $0.runTask(at: 0) }
            } else if world.exchange != nil {
                try input("response final") { try $0.exchangeCompletes(.response, deciding: .final, retries: false) }
            } else {
                break
            }
        }
        throw LifecycleViolation(
            "the request never finished: \(world.phase), stopped \(world.isStopped), held \(world.held ?? "none"), "
                + "exchange \(world.exchange?.step ?? "none"), tasks \(world.tasks.map(\.name))")
    }

    private mutating func randomStep() throws {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<10:
            try input("resume") { try $0.resume() }
        case 10..<18:
            try input("suspend") { try $0.suspend() }
        case 18..<23:
            try input("cancel") { try $0.cancel() }
        case 23..<26:
            let number = Int.random(in: 1...9, using: &random)
            try input("abort \(number)") { try $0.abort(number) }
        case 26..<33:
            try input("add waiter") { try $0.addWaiter() }
        case 33..<43 where world.exchange != nil:
            let verdict = randomVerdict()
            try input("head, deciding \(verdictName(verdict))") { try $0.headArrives(deciding: verdict) }
        case 43..<65 where world.exchange != nil:
            let result: RequestStateMachineWorld.ExchangeResult
            if world.exchange!.isCancelled {
                // Usually the cancellation wins; sometimes the response was complete already.
                result = Int.random(in: 0..<10, using: &random) < 6 ? .failure(.explicitlyCancelled) : .response
            } else {
                result = Int.random(in: 0..<10, using: &random) < 8 ? .response : .failure(.sessionInvalidated)
            }
            let verdict = randomVerdict()
            let retries = Bool.random(using: &random)
            try input("exchange ends: \(result), deciding \(verdictName(verdict)), retries \(retries)") {
                try $0.exchangeCompletes(result, deciding: verdict, retries: retries)
            }
        default:
            guard !world.tasks.isEmpty else { return }
            let index = Int.random(in: 0..<world.tasks.count, using: &random)
            try input("run \(world.tasks[index].name)") { try $0.runTask(at: index) }
        }
    }

    /// A verdict on a response: mostly final, often a redirect or a challenge answer.
    private mutating func randomVerdict() -> ResponseVerdict {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: .final
        case 4..<7: .redirect(world.makeNextRequest(), asksHandler: Bool.random(using: &random))
        case 7..<9: .answerChallenge(world.makeNextRequest())
        default: .refused(.tooManyRedirects(limit: 10))
        }
    }

    /// Applies one input and checks the rules.
    private mutating func input(_ name: String, _ apply: (inout RequestStateMachineWorld) throws -> Void) throws {
        step += 1
        trail.append("\(step): \(name)")
        try apply(&world)
        try world.checkInvariants()
    }
}
