// A request's lifecycle as a value: started, suspended, cancelled or aborted, finishing, finished.
//
// `Request` is the runner: it holds this machine and the request's records behind one lock, feeds
// it every input, and performs the action each input returns in one exhaustive `switch`. The
// machine decides; it never calls out, and it knows nothing of threads, loops or the transport.
//
// Rules:
// 1. **One start.** A request starts once: on its first `resume()`, or when a handler is added
//    while it is initialized and not suspended (the session then decides whether that starts
//    it). `suspend()` before the start keeps it unstarted; `resume()` then starts it.
// 2. **Suspension holds steps, not exchanges.** An exchange in flight completes; the next step
//    (an attempt, a redirect hop, a challenge answer) is held, at most one, until `resume()`.
// 3. **A stop is final.** `cancel()` and `abort(with:)` end the run: the exchange in flight is
//    cancelled (its completion then finishes the request), or, with none in flight, the request
//    finishes at once. No later step runs and no later exchange starts: a step that comes after
//    the stop finishes the request instead (the exchange the stop cancelled may have completed
//    with a response first, and its next step is then the run's end). An abort's error wins
//    over a cancel's `explicitlyCancelled`, whichever came first.
// 4. **One outcome.** The first `finishRequested()` wins and moves the request to finishing,
//    where its subclass completes its own work (a download moves its file); `outcomeCompleted`
//    then records the outcome, with a stop's error in place of the outcome's (a cancel during
//    finishing counts), and hands it to every waiter, once.
// 5. **Waiters.** A waiter added before the end waits; one added after gets the outcome at once,
//    but only once the monitors have been told of the finish (`outcomeAnnounced`): until then it
//    waits too, and the runner hands it the outcome after them. So an awaiting task never
//    resumes before the monitors' `requestDidFinish`, even when it starts awaiting just as the
//    request finishes on another thread.
// 6. **One verdict per response.** The exchange in flight carries the verdict on its response
//    (final, challenge answer, redirect): the first reader (the body sink at the head, or the
//    run at the end) computes it, and every later reader gets the same answer. A status that
//    cannot be followed (`ResponseVerdict.mayFollow`) is final for every reader without asking.
//
// Impossible inputs (an outcome completed before finishing began, an exchange ending in a state
// that has none) trap, naming the state and the input.

/// The request lifecycle (see the rules above). Not thread-safe: `Request` holds it under its lock.
struct RequestStateMachine: Sendable {
    /// What `resume()` must do.
    enum ResumeAction {
        /// Start the request: tell the monitors, then run its first attempt.
        case start
        /// Tell the monitors, then run the held step, if any.
        case continueRun(HeldStep?)
        /// Nothing: running, stopped or over.
        case none
    }

    /// What `cancel()` and `abort(with:)` must do.
    enum StopAction {
        /// Cancel the exchange in flight; its completion finishes the request.
        case cancelExchange(TransportCancellation)
        /// Nothing is in flight: finish now.
        case finishNow
        /// The request is already finishing: tell the monitors, the outcome will carry the stop.
        case stoppedWhileFinishing
        /// Nothing: already stopped this way, or over.
        case none
    }

    /// What a step (`Request.run`) must do.
    enum StepAction {
        /// Run it now.
        case proceed
        /// Held until `resume()`.
        case held
        /// The request was stopped: finish it now, with the stop's error. A stop that found an
        /// exchange in flight leaves the finish to that exchange's completion, which may be a
        /// response (it came before the cancellation) whose next step ends up here; when the stop
        /// finished the request itself, the first finish wins.
        case finishNow
        /// Drop it: the request is finishing or finished.
        case drop
    }

    /// What adding a waiter must do.
    enum WaiterAction {
        /// The outcome is known: hand it over now.
        case deliver(Request.Outcome)
        /// Wait; `mayStart` when the request is initialized and not suspended, so that adding a
        /// handler starts it if the session starts requests immediately.
        case wait(mayStart: Bool)
    }

    /// Why the run stopped early.
    struct Stop: Sendable {
        /// `cancel()` was called: the public state is `cancelled`.
        var isCancelled = false
        /// `abort(with:)`'s error, which replaces the outcome's.
        var abortError: WickError?
    }

    /// The exchange on the transport now: the handle that cancels it, the request it sends, the
    /// attempt it belongs to, and the verdict on its response once someone asked.
    struct InFlight: Sendable {
        let cancellation: TransportCancellation
        let request: HTTPRequest
        let progress: AttemptProgress
        var verdict: ResponseVerdict?
    }

    /// A started run. The held step and the exchange in flight are kept beside the state, not
    /// in it (`held`, `current`): they are large values, and a state change copies its case's
    /// payload, which cost a few thousand instructions per request when they lived here.
    struct Run: Sendable {
        var isSuspended = false
        var stop: Stop?
    }

    private enum State {
        /// Not started; `suspended` after `suspend()`.
        case initialized(suspended: Bool)
        /// Started; attempts are running or held.
        case running(Run)
        /// `finishRequested` ran; the subclass completes before the outcome is recorded.
        case finishing(Run)
        /// Over; the outcome is `recorded`. Until `announced`, the runner is telling the monitors,
        /// and new waiters wait (rule 5).
        case finished(announced: Bool)
    }

    private var state = State.initialized(suspended: false)
    /// The step held by suspension; only while running (rule 2).
    private var held: HeldStep?
    /// The exchange in flight; only while running.
    private var current: InFlight?
    /// The outcome, once finished.
    private var recorded: Request.Outcome?
    private var waiters = Waiters()

    // MARK: - Reading

    /// The public state. A cancelled request stays `.cancelled` once finished, as in Alamofire
    /// (whose `.cancelled` cannot move to `.finished`).
    var publicState: Request.State {
        switch state {
        case .initialized(let suspended): suspended ? .suspended : .initialized
        case .running(let run), .finishing(let run):
            if run.stop?.isCancelled == true { .cancelled } else if run.isSuspended { .suspended } else { .resumed }
        case .finished: isCancelled ? .cancelled : .finished
        }
    }

    /// Whether `cancel()` or `abort(with:)` was called (a finished request's stop is forgotten:
    /// its outcome says it).
    var isStopped: Bool {
        switch state {
        case .initialized, .finished: false
        case .running(let run), .finishing(let run): run.stop != nil
        }
    }

    /// Whether `cancel()` was called (the outcome, once known, says `explicitlyCancelled`).
    var isCancelled: Bool {
        switch state {
        case .initialized: false
        case .running(let run), .finishing(let run): run.stop?.isCancelled == true
        case .finished:
            if case .explicitlyCancelled? = recorded?.error { true } else { false }
        }
    }

    /// The outcome, once finished.
    var outcome: Request.Outcome? {
        recorded
    }

    /// The cancellation of the exchange in flight, if any. Only that field is read: the
    /// exchange itself is a large value, and copying it out cost its value witnesses.
    var inFlightCancellation: TransportCancellation? {
        if case .running = state { return current?.cancellation }
        return nil
    }

    // MARK: - Controls

    /// `resume()` was called.
    mutating func resumeRequested() -> ResumeAction {
        switch state {
        case .initialized:
            state = .running(Run())
            return .start
        case .running(var run) where run.isSuspended && run.stop == nil:
            run.isSuspended = false
            let released = held
            held = nil
            state = .running(run)
            return .continueRun(released)
        case .running, .finishing, .finished:
            return .none
        }
    }

    /// `suspend()` was called; true when the request is now suspended and the monitors are told.
    mutating func suspendRequested() -> Bool {
        switch state {
        case .initialized(suspended: false):
            state = .initialized(suspended: true)
            return true
        case .running(var run) where !run.isSuspended && run.stop?.isCancelled != true:
            run.isSuspended = true
            state = .running(run)
            return true
        case .initialized, .running, .finishing, .finished:
            return false
        }
    }

    /// `cancel()` was called.
    mutating func cancelRequested() -> StopAction {
        stopRequested { stop in
            guard !stop.isCancelled else { return false }
            stop.isCancelled = true
            return true
        }
    }

    /// `abort(with:)` was called. Unlike a cancel, an abort once finishing has begun does
    /// nothing: the subclass's own completion (a download's file work) has the last word.
    mutating func abortRequested(_ error: WickError) -> StopAction {
        if case .finishing = state { return .none }
        return stopRequested { stop in
            guard stop.abortError == nil else { return false }
            stop.abortError = error
            return true
        }
    }

    /// Records a stop (`apply` returns false when it adds nothing) and says what follows.
    private mutating func stopRequested(_ apply: (inout Stop) -> Bool) -> StopAction {
        switch state {
        case .initialized(let suspended):
            var stop = Stop()
            _ = apply(&stop)
            state = .running(Run(isSuspended: suspended, stop: stop))
            return .finishNow
        case .running(var run):
            var stop = run.stop ?? Stop()
            guard apply(&stop) else { return .none }
            run.stop = stop
            held = nil
            state = .running(run)
            return current.map { .cancelExchange($0.cancellation) } ?? .finishNow
        case .finishing(var run):
            var stop = run.stop ?? Stop()
            guard apply(&stop) else { return .none }
            run.stop = stop
            state = .finishing(run)
            return .stoppedWhileFinishing
        case .finished:
            return .none
        }
    }

    // MARK: - The run

    /// A step is ready (`Request.run`).
    mutating func stepReady(_ step: HeldStep) -> StepAction {
        switch state {
        case .running(let run) where run.stop == nil:
            guard run.isSuspended else { return .proceed }
            held = step
            return .held
        case .running:
            return .finishNow
        case .initialized(let suspended):
            preconditionFailure("RequestStateMachine: a step ran in state initialized(suspended: \(suspended))")
        case .finishing, .finished:
            return .drop
        }
    }

    /// An exchange is about to go to the transport; false when the run has stopped (it must
    /// not be sent).
    mutating func exchangeStarting(_ inFlight: consuming InFlight) -> Bool {
        guard case .running(let run) = state, run.stop == nil else { return false }
        precondition(current == nil, "RequestStateMachine: exchangeStarting with an exchange already in flight")
        current = consume inFlight
        return true
    }

    /// The verdict on the in-flight exchange's response: `decide` runs for the first reader,
    /// later readers get its answer. Nil when no exchange is in flight (the run stopped).
    mutating func verdict(_ decide: (InFlight) -> ResponseVerdict) -> ResponseVerdict? {
        guard case .running = state, let inFlight = current else { return nil }
        if let known = inFlight.verdict { return known }
        let verdict = decide(inFlight)
        current?.verdict = verdict
        return verdict
    }

    /// The exchange in flight completed; returns it (with its verdict, if one was asked for).
    /// Traps when none is in flight: the runner starts every exchange it ends.
    mutating func exchangeEnded() -> InFlight {
        switch state {
        case .running:
            // `take()` moves the exchange out; a copy and then `current = nil` ran the large
            // value's copy and destroy witnesses. It is returned unwrapped: an optional this
            // large is destroyed through `Optional`'s generic value witnesses.
            guard let ended = current.take() else {
                preconditionFailure("RequestStateMachine: an exchange ended with none in flight")
            }
            return ended
        case .initialized, .finishing, .finished:
            preconditionFailure("RequestStateMachine: an exchange ended in state \(stateName)")
        }
    }

    // MARK: - The end

    /// The run wants to finish with `outcome`. The first call moves the request to finishing and
    /// returns the outcome with a stop's error in place of its own (what the subclass completes);
    /// later calls return nil.
    mutating func finishRequested(_ outcome: Request.Outcome) -> Request.Outcome? {
        let run: Run
        switch state {
        case .initialized(let suspended):
            run = Run(isSuspended: suspended)
        case .running(let running):
            // Both are nil on a run's usual end (the exchange was taken, no step held), and
            // clearing a nil this large ran `Optional`'s generic destroy anyway.
            if case .some = held { held = nil }
            if case .some = current { current = nil }
            run = running
        case .finishing, .finished:
            return nil
        }
        state = .finishing(run)
        return Self.applying(run.stop, to: outcome)
    }

    /// The subclass completed `outcome`: the request is finished with it (a stop's error in
    /// place of its own). Returns the final outcome and the waiters to hand it to; nil when it
    /// was already recorded.
    mutating func outcomeCompleted(_ outcome: Request.Outcome) -> (Request.Outcome, Waiters)? {
        switch state {
        case .finishing(let run):
            let final = Self.applying(run.stop, to: outcome)
            state = .finished(announced: false)
            recorded = final
            defer { waiters = Waiters() }
            return (final, waiters)
        case .finished:
            return nil
        case .initialized, .running:
            preconditionFailure("RequestStateMachine: outcomeCompleted in state \(stateName)")
        }
    }

    /// The monitors were told of the finish: waiters added since the outcome was recorded get
    /// it now (returned), later ones at once (rule 5).
    mutating func outcomeAnnounced() -> Waiters {
        guard case .finished(announced: false) = state else {
            preconditionFailure("RequestStateMachine: outcomeAnnounced in state \(stateName)")
        }
        state = .finished(announced: true)
        defer { waiters = Waiters() }
        return waiters
    }

    /// The outcome, once recorded and announced to the waiters: what a waiter added now would be
    /// given at once (`waiterAdded`); nil before.
    var announcedOutcome: Request.Outcome? {
        guard case .finished(announced: true) = state else { return nil }
        return recorded
    }

    /// A waiter for the outcome was added.
    mutating func waiterAdded(_ waiter: Waiter) -> WaiterAction {
        switch state {
        case .finished(announced: true):
            guard let recorded else { preconditionFailure("RequestStateMachine: finished without an outcome") }
            return .deliver(recorded)
        case .initialized(let suspended):
            waiters.append(waiter)
            return .wait(mayStart: !suspended)
        case .running, .finishing, .finished(announced: false):
            waiters.append(waiter)
            return .wait(mayStart: false)
        }
    }

    /// `outcome` with the stop's error in place of its own: an abort's error, else
    /// `explicitlyCancelled` after a cancel.
    private static func applying(_ stop: Stop?, to outcome: Request.Outcome) -> Request.Outcome {
        var stopped = outcome
        if let abortError = stop?.abortError {
            stopped.error = abortError
        } else if stop?.isCancelled == true {
            stopped.error = .explicitlyCancelled
        }
        return stopped
    }

    /// The state's name, for trap messages.
    private var stateName: String {
        switch state {
        case .initialized(let suspended): "initialized(suspended: \(suspended))"
        case .running: "running"
        case .finishing: "finishing"
        case .finished(let announced): announced ? "finished" : "finished(announcing)"
        }
    }
}

extension RequestStateMachine {
    /// Someone awaiting the outcome: a closure (a handler, a stream's end) or a suspended task.
    enum Waiter: Sendable {
        case closure(@Sendable (Request.Outcome) -> Void)
        case task(UnsafeContinuation<Request.Outcome, Never>)

        /// Hands `outcome` over.
        func deliver(_ outcome: Request.Outcome) {
            switch self {
            case .closure(let body): body(outcome)
            case .task(let continuation): continuation.resume(returning: outcome)
            }
        }
    }

    /// The waiters, in the order they came: usually one (an awaiting task or a handler), kept
    /// without an array.
    typealias Waiters = InlineList<Waiter>
}

extension InlineList where Element == RequestStateMachine.Waiter {
    /// Hands `outcome` to every waiter, in the order they were added.
    func deliver(_ outcome: Request.Outcome) {
        forEach { $0.deliver(outcome) }
    }
}
