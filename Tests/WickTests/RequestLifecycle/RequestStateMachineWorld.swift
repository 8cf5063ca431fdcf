// The world a request's lifecycle lives in, played by the tests: the runner's steps, the
// transport's exchange, the subclass's completion, the user's controls and the waiters.
import Foundation
import WickCore

@testable import Wick
@testable import WickTransport

/// A move the runner could never make, or a rule the machine broke.
struct LifecycleViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Plays `Request`, the machine's runner: feeds a `RequestStateMachine` every input, performs
/// each action it returns, and throws on any action a real runner could not perform (cancelling
/// an exchange that is not in flight, finishing now with one in flight, handing a held step that
/// was never held) or that breaks a rule (a step proceeding after a stop, an outcome recorded
/// twice, a waiter handed two outcomes).
///
/// The runner's work that happens later, on another thread (a step presented, an exchange
/// started, a finish, the subclass's completion), waits in `tasks` until the test runs it, so
/// that the user's controls can come between any two of them, as they can in a real request.
struct RequestStateMachineWorld {
    /// Work the runner will do later, each under the lock on its own.
    enum Task {
        /// The run presents a step (`Request.run`).
        case present(HeldStep)
        /// A step proceeded; its exchange is about to go to the transport (`Request.send`, after
        /// the adapters and the body source).
        case startExchange(HeldStep)
        /// Something finishes the request with this outcome (`Request.finish`): the run's end or
        /// a stop's `finishNow`.
        case finish(Request.Outcome)
        /// The subclass completes this outcome (`completeOutcome`), then records it.
        case complete(Request.Outcome)
        /// The monitors have been told of the finish (`Request.record`, after `requestDidFinish`).
        case announce

        /// `present <step>`, `start <step>`, `finish <error>`, `complete <error>`.
        var name: String {
            switch self {
            case .present(let step): "present \(RequestStateMachineWorld.name(step))"
            case .startExchange(let step): "start \(RequestStateMachineWorld.name(step))"
            case .finish(let outcome): "finish \(errorName(outcome.error))"
            case .complete(let outcome): "complete \(errorName(outcome.error))"
            case .announce: "announce"
            }
        }

        /// Whether this task belongs to the run's one chain of steps.
        var isRunStep: Bool {
            switch self {
            case .present, .startExchange: true
            case .finish, .complete, .announce: false
            }
        }
    }

    /// How the transport ends an exchange.
    enum ExchangeResult {
        /// A response, whose verdict the runner follows.
        case response
        /// A failure: cancelled, or a transport error.
        case failure(WickError)
    }

    /// The exchange on the transport.
    struct Exchange {
        let cancellation: TransportCancellation
        let step: String
        /// The transport was told to cancel it.
        var isCancelled = false
        /// The verdict the world decided for its response, once asked.
        var verdict: String?
    }

    enum Phase: Equatable {
        case initialized
        case running
        case finishing
        case finished
    }

    /// How often the interesting paths were taken.
    struct Coverage {
        var cancelWithExchangeInFlight = 0
        var heldStepReleasedByResume = 0
        var cancelDuringFinishing = 0
        var abortDuringFinishingIgnored = 0
        var waiterAddedAfterFinish = 0
        var waiterAddedWhileAnnouncing = 0
        var responseAfterCancel = 0
        var stepAfterStop = 0
        var verdictReadTwice = 0
        var abortBeatCancel = 0
        var exchangeCompletedWhileSuspended = 0
        var finishLostTheRace = 0
        var startedByWaiter = 0
        var finished = 0
        var stopped = 0
    }

    private(set) var machine = RequestStateMachine()
    let cancellations: Cancellations
    let deliveries = DeliveryLog()
    /// Whether adding a waiter to a request that may start starts it
    /// (`Session.startRequestsImmediately`).
    let startsImmediately: Bool

    // The world's own account of the request.
    private(set) var phase = Phase.initialized
    private(set) var isSuspended = false
    private(set) var isCancelled = false
    private(set) var abortError: WickError?
    private(set) var tasks: [Task] = []
    private(set) var exchange: Exchange?
    /// The step the machine holds (by name), if any.
    private(set) var held: String?
    private(set) var recorded: Request.Outcome?
    private(set) var recordings = 0
    /// Finished, and the monitors told (`announce`): a waiter then gets the outcome at once.
    private(set) var isAnnounced = false
    private(set) var waiters = 0
    private(set) var coverage = Coverage()
    private var nextStep = 0

    init(cancellations: Cancellations, startsImmediately: Bool) {
        self.cancellations = cancellations
        self.startsImmediately = startsImmediately
    }

    var isStopped: Bool { isCancelled || abortError != nil }

    /// The error a stop puts in the outcome: the abort's, else `explicitlyCancelled`.
    var stopError: WickError? { abortError ?? (isCancelled ? .explicitlyCancelled : nil) }

    // MARK: - The user's controls

    mutating func resume() throws {
        let action = machine.resumeRequested()
        let expected: String
        switch phase {
        case .initialized: expected = "start"
        case .running where isSuspended && !isStopped: expected = "continue \(held ?? "none")"
        case .running, .finishing, .finished: expected = "none"
        }
        let actual: String
        switch action {
        case .start:
            actual = "start"
            phase = .running
            isSuspended = false
            tasks.append(.present(makeStart()))
        case .continueRun(let step):
            actual = "continue \(step.map(Self.name) ?? "none")"
            isSuspended = false
            held = nil
            if let step {
                coverage.heldStepReleasedByResume += 1
                tasks.append(.present(step))
            }
        case .none:
            actual = "none"
        }
        guard actual == expected else { throw LifecycleViolation("resume: \(actual), expected \(expected)") }
    }

    mutating func suspend() throws {
        let suspended = machine.suspendRequested()
        let expected: Bool
        switch phase {
        case .initialized: expected = !isSuspended
        // An abort does not forbid suspend(); a cancel does (its public state is `cancelled`).
        case .running: expected = !isSuspended && !isCancelled
        case .finishing, .finished: expected = false
        }
        guard suspended == expected else { throw LifecycleViolation("suspend: \(suspended), expected \(expected)") }
        if suspended { isSuspended = true }
    }

    mutating func cancel() throws {
        let action = machine.cancelRequested()
        let expected: String
        switch phase {
        case .finished: expected = "none"
        case _ where isCancelled: expected = "none"
        case .finishing: expected = "stoppedWhileFinishing"
        case .initialized, .running: expected = exchange == nil ? "finishNow" : "cancelExchange"
        }
        guard action.name == expected else { throw LifecycleViolation("cancel: \(action.name), expected \(expected)") }
        if case .none = action { return }
        isCancelled = true
        if phase == .finishing { coverage.cancelDuringFinishing += 1 }
        try perform(action, error: .explicitlyCancelled)
    }

    mutating func abort(_ number: Int) throws {
        let action = machine.abortRequested(Lifecycle.abortError(number))
        let expected: String
        switch phase {
        case .finishing, .finished: expected = "none"
        case _ where abortError != nil: expected = "none"
        case .initialized, .running: expected = exchange == nil ? "finishNow" : "cancelExchange"
        }
        guard action.name == expected else { throw LifecycleViolation("abort: \(action.name), expected \(expected)") }
        if phase == .finishing { coverage.abortDuringFinishingIgnored += 1 }
        if case .none = action { return }
        abortError = Lifecycle.abortError(number)
        try perform(action, error: Lifecycle.abortError(number))
    }

    /// What `Request.perform` does with a stop's action.
    private mutating func perform(_ action: RequestStateMachine.StopAction, error: WickError) throws {
        coverage.stopped += 1
        // A stop before the start moves the request to running (stopped): it never starts.
        if phase == .initialized { phase = .running }
        // A held step is gone: the stop is final.
        held = nil
        switch action {
        case .cancelExchange(let cancellation):
            guard let current = exchange, current.cancellation.handle === cancellation.handle else {
                throw LifecycleViolation("cancelExchange of an exchange that is not in flight")
            }
            exchange?.isCancelled = true
            coverage.cancelWithExchangeInFlight += 1
        case .finishNow:
            guard exchange == nil else { throw LifecycleViolation("finishNow with an exchange in flight") }
            tasks.append(.finish(Request.Outcome(request: nil, error: error)))
        case .stoppedWhileFinishing:
            guard phase == .finishing else { throw LifecycleViolation("stoppedWhileFinishing while \(phase)") }
        case .none:
            break
        }
    }

    /// A waiter for the outcome (a response handler, a task awaiting it).
    mutating func addWaiter() throws {
        let number = waiters
        waiters += 1
        let action = machine.waiterAdded(deliveries.waiter(number))
        switch action {
        case .deliver(let outcome):
            guard phase == .finished, isAnnounced else {
                throw LifecycleViolation("a waiter was handed an outcome while \(phase), announced \(isAnnounced)")
            }
            guard errorName(outcome.error) == errorName(recorded?.error) else {
                throw LifecycleViolation("a late waiter got \(errorName(outcome.error)), not the recorded outcome")
            }
            coverage.waiterAddedAfterFinish += 1
            deliveries.waiter(number).deliver(outcome)
        case .wait(let mayStart):
            guard phase != .finished || !isAnnounced else {
                throw LifecycleViolation("a waiter waits on a finished request whose end was announced")
            }
            let expected = phase == .initialized && !isSuspended
            guard mayStart == expected else {
                throw LifecycleViolation("waiter: mayStart \(mayStart), expected \(expected)")
            }
            if mayStart && startsImmediately {
                coverage.startedByWaiter += 1
                try resume()
            }
        }
    }

    // MARK: - The transport

    /// The response head arrives and the body sink asks for the verdict (`Request.bodyHandling`).
    mutating func headArrives(deciding decided: ResponseVerdict) throws {
        guard exchange != nil else { throw LifecycleViolation("the test made a head arrive with no exchange") }
        var decisions = 0
        let verdict = machine.verdict { _ in
            decisions += 1
            return decided
        }
        guard let verdict else { throw LifecycleViolation("no verdict with an exchange in flight") }
        if let known = exchange?.verdict {
            guard decisions == 0, verdictName(verdict) == known else {
                throw LifecycleViolation("the verdict \(known) was decided again: \(verdictName(verdict))")
            }
            coverage.verdictReadTwice += 1
        } else {
            guard decisions == 1, verdictName(verdict) == verdictName(decided) else {
                throw LifecycleViolation("the first verdict was not decided once: \(decisions) times")
            }
            exchange?.verdict = verdictName(verdict)
        }
    }

    /// The exchange in flight completes with `result`; the runner then follows the verdict
    /// (`decided`, unless the sink asked already) or ends the attempt, retrying when `retries`.
    mutating func exchangeCompletes(_ result: ExchangeResult, deciding decided: ResponseVerdict, retries: Bool) throws {
        guard let current = exchange else { throw LifecycleViolation("the test completed an exchange not in flight") }
        let ended = machine.exchangeEnded()
        guard ended.cancellation.handle === current.cancellation.handle else {
            throw LifecycleViolation("the machine ended another exchange than \(current.step)")
        }
        guard verdictName(ended.verdict) == (current.verdict ?? "none") else {
            throw LifecycleViolation(
                "the exchange ended with verdict \(verdictName(ended.verdict)), not \(current.verdict ?? "none")")
        }
        exchange = nil
        if isSuspended { coverage.exchangeCompletedWhileSuspended += 1 }
        switch result {
        case .failure(let error):
            // `Request.attemptEnded`: a stopped request finishes, another may be retried.
            if retries && !isStopped {
                tasks.append(.present(makeStart()))
            } else {
                tasks.append(.finish(Request.Outcome(request: ended.request, error: error)))
            }
        case .response:
            if current.isCancelled { coverage.responseAfterCancel += 1 }
            switch ended.verdict ?? decided {
            case .final:
                tasks.append(.finish(Request.Outcome(request: ended.request)))
            case .refused(let failure):
                tasks.append(
                    .finish(Request.Outcome(request: ended.request, error: .sessionTaskFailed(error: failure))))
            case .answerChallenge(let next), .redirect(let next, _):
                tasks.append(.present(.send(next, ended.progress)))
            }
        }
    }

    // MARK: - The runner's later work

    /// Runs the pending task at `index`.
    mutating func runTask(at index: Int) throws {
        let task = tasks.remove(at: index)
        switch task {
        case .present(let step): try present(step)
        case .startExchange(let step): try startExchange(step)
        case .finish(let outcome): try finish(outcome)
        case .complete(let outcome): try complete(outcome)
        case .announce: try announce()
        }
    }

    private mutating func present(_ step: HeldStep) throws {
        let action = machine.stepReady(step)
        let expected: String
        switch phase {
        case .initialized: throw LifecycleViolation("the runner presented \(Self.name(step)) before the start")
        case .running where isStopped: expected = "finishNow"
        case .running: expected = isSuspended ? "held" : "proceed"
        case .finishing, .finished: expected = "drop"
        }
        guard action.name == expected else {
            throw LifecycleViolation("step \(Self.name(step)): \(action.name), expected \(expected)")
        }
        switch action {
        case .proceed:
            guard exchange == nil else { throw LifecycleViolation("a step proceeded with an exchange in flight") }
            tasks.append(.startExchange(step))
        case .held:
            guard held == nil else { throw LifecycleViolation("a second step held beside \(held!)") }
            held = Self.name(step)
        case .finishNow:
            coverage.stepAfterStop += 1
            tasks.append(.finish(Request.Outcome(request: nil, error: .explicitlyCancelled)))
        case .drop:
            break
        }
    }

    private mutating func startExchange(_ step: HeldStep) throws {
        let request: HTTPRequest
        let progress: AttemptProgress
        switch step {
        case .startAttempt(let attempt): (request, progress) = (Lifecycle.request("/\(Self.name(step))"), attempt)
        case .send(let next, let attempt): (request, progress) = (next, attempt)
        }
        let cancellation = cancellations.make()
        let started = machine.exchangeStarting(
            RequestStateMachine.InFlight(cancellation: cancellation, request: request, progress: progress))
        let expected = phase == .running && !isStopped
        guard started == expected else {
            throw LifecycleViolation(
                "exchangeStarting(\(Self.name(step))): \(started) while \(phase), stopped \(isStopped)")
        }
        guard started else {
            // `Request.send` returns: the stop that came first found nothing in flight, so it
            // finished the request (or queued its finish).
            let finishing = phase != .running || tasks.contains { if case .finish = $0 { true } else { false } }
            guard finishing else { throw LifecycleViolation("a stopped run was dropped with no finish under way") }
            return
        }
        guard exchange == nil else { throw LifecycleViolation("a second exchange started") }
        exchange = Exchange(cancellation: cancellation, step: Self.name(step))
    }

    private mutating func finish(_ outcome: Request.Outcome) throws {
        let stopped = machine.finishRequested(outcome)
        switch phase {
        case .initialized:
            throw LifecycleViolation("the runner finished a request that never started")
        case .running:
            guard let stopped else { throw LifecycleViolation("the first finish was refused") }
            guard exchange == nil else { throw LifecycleViolation("finishing with an exchange in flight") }
            let expected = errorName(stopError ?? outcome.error)
            guard errorName(stopped.error) == expected else {
                throw LifecycleViolation("finish handed the subclass \(errorName(stopped.error)), expected \(expected)")
            }
            phase = .finishing
            held = nil
            tasks.append(.complete(stopped))
        case .finishing, .finished:
            guard stopped == nil else { throw LifecycleViolation("a second finish won while \(phase)") }
            coverage.finishLostTheRace += 1
        }
    }

    private mutating func complete(_ outcome: Request.Outcome) throws {
        guard phase == .finishing else { throw LifecycleViolation("the subclass completed while \(phase)") }
        guard let (final, waiting) = machine.outcomeCompleted(outcome) else {
            throw LifecycleViolation("the outcome was not recorded")
        }
        let expected = errorName(stopError ?? outcome.error)
        guard errorName(final.error) == expected else {
            throw LifecycleViolation("recorded \(errorName(final.error)), expected \(expected)")
        }
        if isCancelled && abortError != nil { coverage.abortBeatCancel += 1 }
        phase = .finished
        recorded = final
        recordings += 1
        coverage.finished += 1
        waiting.deliver(final)
        tasks.append(.announce)
    }

    private mutating func announce() throws {
        guard phase == .finished, !isAnnounced, let recorded else {
            throw LifecycleViolation("announced while \(phase), announced \(isAnnounced)")
        }
        let late = machine.outcomeAnnounced()
        isAnnounced = true
        let before = deliveries.count
        late.deliver(recorded)
        if deliveries.count > before { coverage.waiterAddedWhileAnnouncing += 1 }
    }

    // MARK: - Steps

    private mutating func makeStart() -> HeldStep {
        nextStep += 1
        return .startAttempt(AttemptProgress(deadline: Deadline(uptimeNanoseconds: UInt64(nextStep))))
    }

    /// A fresh request for a redirect hop or a challenge answer.
    mutating func makeNextRequest() -> HTTPRequest {
        nextStep += 1
        return Lifecycle.request("/hop\(nextStep)")
    }

    /// A step's name: `attempt<N>`, or the path of the request it sends.
    static func name(_ step: HeldStep) -> String {
        switch step {
        case .startAttempt(let progress): "attempt\(progress.deadline.uptimeNanoseconds)"
        case .send(let request, _): request.url.path()
        }
    }

    // MARK: - Invariants

    /// Rules that hold between any two inputs; throws naming the first one broken.
    func checkInvariants() throws {
        guard machine.inFlightCancellation?.handle === exchange?.cancellation.handle else {
            throw LifecycleViolation("the machine's exchange in flight is not the transport's")
        }
        guard tasks.filter(\.isRunStep).count + (exchange == nil ? 0 : 1) + (held == nil ? 0 : 1) <= 1 else {
            throw LifecycleViolation(
                "more than one step of the run under way: \(tasks.map(\.name)), exchange \(exchange != nil)")
        }
        guard (machine.outcome != nil) == (phase == .finished), recordings <= 1 else {
            throw LifecycleViolation("outcome \(machine.outcome != nil) while \(phase), recorded \(recordings) times")
        }
        // What an awaiting task reads without becoming a waiter: only once announced, and then
        // the recorded outcome.
        guard (machine.announcedOutcome != nil) == (phase == .finished && isAnnounced),
            errorName(machine.announcedOutcome?.error) == errorName(isAnnounced ? machine.outcome?.error : nil)
        else {
            throw LifecycleViolation("announced outcome \(machine.announcedOutcome != nil) while \(phase)")
        }
        if phase == .finished {
            let expected = errorName(recorded?.error)
            // Before the announcement, a waiter added since the recording still waits.
            for number in 0..<waiters
            where deliveries.deliveries(to: number) != [expected]
                && (isAnnounced || !deliveries.deliveries(to: number).isEmpty)
            {
                throw LifecycleViolation(
                    "waiter \(number) was handed \(deliveries.deliveries(to: number)), not [\(expected)]")
            }
            if let stopError, errorName(machine.outcome?.error) != errorName(stopError) {
                throw LifecycleViolation("a stopped request finished with \(errorName(machine.outcome?.error))")
            }
        } else if deliveries.count != 0 {
            throw LifecycleViolation("a waiter was handed an outcome before the end")
        }
        let expectedState: Request.State
        switch phase {
        case .initialized: expectedState = isSuspended ? .suspended : .initialized
        case .running, .finishing: expectedState = isCancelled ? .cancelled : isSuspended ? .suspended : .resumed
        case .finished: expectedState = errorName(machine.outcome?.error) == "cancelled" ? .cancelled : .finished
        }
        guard machine.publicState == expectedState else {
            throw LifecycleViolation("public state \(machine.publicState), expected \(expectedState)")
        }
        let expectedStopped = (phase == .running || phase == .finishing) && isStopped
        guard machine.isStopped == expectedStopped else {
            throw LifecycleViolation("isStopped \(machine.isStopped), expected \(expectedStopped)")
        }
        let expectedCancelled =
            switch phase {
            case .initialized: false
            case .running, .finishing: isCancelled
            case .finished: errorName(recorded?.error) == "cancelled"
            }
        guard machine.isCancelled == expectedCancelled else {
            throw LifecycleViolation("isCancelled \(machine.isCancelled), expected \(expectedCancelled)")
        }
        if machine.isCancelled && !isCancelled { throw LifecycleViolation("cancelled without a cancel") }
    }
}
