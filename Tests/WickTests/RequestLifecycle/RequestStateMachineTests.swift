// RequestStateMachine, rule by rule: each input in each state that matters, and its action.
import Foundation
import Testing
import WickCore
import WickReactor

@testable import Wick
@testable import WickTransport

@Suite struct RequestStateMachineTests {
    typealias Machine = RequestStateMachine

    /// A machine that has started (`resume()` returned `start`).
    static func started() -> Machine {
        var machine = Machine()
        _ = machine.resumeRequested()
        return machine
    }

    /// A started machine with an exchange in flight; returns the exchange too.
    static func withExchange(_ cancellations: Cancellations) -> (Machine, Machine.InFlight) {
        var machine = started()
        let inFlight = Lifecycle.inFlight(cancellations)
        let started = machine.exchangeStarting(inFlight)
        #expect(started)
        return (machine, inFlight)
    }

    /// A machine whose run asked to finish (finishing), with `error` as the run's own.
    static func finishing(_ error: WickError? = nil) -> Machine {
        var machine = started()
        _ = machine.finishRequested(Lifecycle.outcome(error))
        return machine
    }

    // MARK: - Rule 1: one start

    @Test("resume() starts an initialized request once; a second resume() does nothing")
    func resumeStartsOnce() {
        var machine = Machine()
        #expect(machine.publicState == .initialized)
        #expect(machine.resumeRequested().name == "start")
        #expect(machine.publicState == .resumed)
        #expect(machine.resumeRequested().name == "none")
        #expect(machine.publicState == .resumed)
    }

    @Test("suspend() before the start keeps the request unstarted; resume() then starts it")
    func suspendBeforeStart() {
        var machine = Machine()
        let suspended = machine.suspendRequested()
        #expect(suspended)
        #expect(machine.publicState == .suspended)
        let again = machine.suspendRequested()
        #expect(!again, "already suspended")
        #expect(machine.resumeRequested().name == "start")
        #expect(machine.publicState == .resumed)
    }

    @Test("A waiter added while initialized may start the request; not once suspended, started or finishing")
    func waiterMayStartOnlyWhenInitializedAndNotSuspended() {
        var initialized = Machine()
        #expect(initialized.waiterAdded(.closure { _ in }).name == "wait mayStart")

        var suspended = Machine()
        _ = suspended.suspendRequested()
        #expect(suspended.waiterAdded(.closure { _ in }).name == "wait")

        var running = Self.started()
        #expect(running.waiterAdded(.closure { _ in }).name == "wait")

        var finishing = Self.finishing()
        #expect(finishing.waiterAdded(.closure { _ in }).name == "wait")
    }

    // MARK: - Rule 2: suspension holds steps, not exchanges

    @Test("A suspended run holds exactly one step; resume() returns it, and the next step proceeds")
    func suspendHoldsOneStep() {
        var machine = Self.started()
        #expect(machine.stepReady(Lifecycle.start).name == "proceed")
        let suspended = machine.suspendRequested()
        #expect(suspended)
        #expect(machine.publicState == .suspended)
        let again = machine.suspendRequested()
        #expect(!again, "already suspended")
        #expect(machine.stepReady(Lifecycle.send("/next")).name == "held")
        #expect(machine.resumeRequested().name == "continue send /next")
        #expect(machine.publicState == .resumed)
        #expect(machine.resumeRequested().name == "none", "the held step was handed over once")
        #expect(machine.stepReady(Lifecycle.send("/next")).name == "proceed")
    }

    @Test("resume() of a suspended run with nothing held continues with no step")
    func resumeWithNothingHeld() {
        var machine = Self.started()
        _ = machine.suspendRequested()
        #expect(machine.resumeRequested().name == "continue none")
    }

    @Test("An exchange in flight is not held: it starts and ends while suspended; the step after it is held")
    func suspensionLetsTheExchangeComplete() async throws {
        try await withCancellations { cancellations in
            var machine = Self.started()
            #expect(machine.stepReady(Lifecycle.start).name == "proceed")
            // suspend() between the step's start and its exchange (an adapter running).
            let suspended = machine.suspendRequested()
            #expect(suspended)
            let inFlight = Lifecycle.inFlight(cancellations)
            let started = machine.exchangeStarting(inFlight)
            #expect(started)
            #expect(machine.inFlightCancellation?.handle === inFlight.cancellation.handle)
            #expect(machine.exchangeEnded().cancellation.handle === inFlight.cancellation.handle)
            #expect(machine.inFlightCancellation == nil)
            #expect(machine.stepReady(Lifecycle.send("/hop")).name == "held")
            #expect(machine.resumeRequested().name == "continue send /hop")
        }
    }

    @Test("suspend() does nothing once cancelled, finishing or finished")
    func suspendRefusedAfterCancelOrEnd() {
        var cancelled = Self.started()
        _ = cancelled.cancelRequested()
        let suspendedCancelled = cancelled.suspendRequested()
        #expect(!suspendedCancelled)
        #expect(cancelled.publicState == .cancelled)

        var finishing = Self.finishing()
        let suspendedFinishing = finishing.suspendRequested()
        #expect(!suspendedFinishing)

        var finished = Self.finishing()
        _ = finished.outcomeCompleted(Lifecycle.outcome())
        let suspendedFinished = finished.suspendRequested()
        #expect(!suspendedFinished)
        #expect(finished.publicState == .finished)
    }

    // MARK: - Rule 3: a stop is final

    @Test("cancel() with nothing in flight finishes now; a second cancel() does nothing")
    func cancelWithNothingInFlight() {
        var machine = Self.started()
        #expect(machine.cancelRequested().name == "finishNow")
        #expect(machine.isStopped && machine.isCancelled)
        #expect(machine.publicState == .cancelled)
        #expect(machine.cancelRequested().name == "none")
    }

    @Test("cancel() of an unstarted (or suspended unstarted) request finishes now, and it never starts")
    func cancelBeforeStart() {
        for suspend in [false, true] {
            var machine = Machine()
            if suspend { _ = machine.suspendRequested() }
            #expect(machine.cancelRequested().name == "finishNow")
            #expect(machine.publicState == .cancelled)
            #expect(machine.resumeRequested().name == "none", "a stopped request never starts")
            #expect(machine.waiterAdded(.closure { _ in }).name == "wait", "a handler does not start it either")
        }
    }

    @Test("cancel() with an exchange in flight cancels that exchange; a second cancel() does nothing")
    func cancelWithExchangeInFlight() async throws {
        try await withCancellations { cancellations in
            var (machine, inFlight) = Self.withExchange(cancellations)
            let action = machine.cancelRequested()
            #expect(action.name == "cancelExchange")
            #expect(action.handle === inFlight.cancellation.handle)
            #expect(machine.cancelRequested().name == "none")
            // The exchange is still the machine's until its completion says it ended.
            #expect(machine.inFlightCancellation?.handle === inFlight.cancellation.handle)
            #expect(machine.exchangeEnded().cancellation.handle === inFlight.cancellation.handle)
            #expect(
                machine.finishRequested(Lifecycle.outcome(.sessionInvalidated)).map { errorName($0.error) }
                    == "cancelled")
        }
    }

    @Test(
        "abort(with:) with an exchange in flight cancels it; a second abort does nothing; the first abort's error wins")
    func abortWithExchangeInFlight() async throws {
        try await withCancellations { cancellations in
            var (machine, inFlight) = Self.withExchange(cancellations)
            let action = machine.abortRequested(Lifecycle.abortError(1))
            #expect(action.handle === inFlight.cancellation.handle)
            #expect(machine.abortRequested(Lifecycle.abortError(2)).name == "none")
            #expect(machine.isStopped && !machine.isCancelled)
            #expect(machine.publicState == .resumed, "an abort is not a cancel")
            _ = machine.exchangeEnded()
            #expect(machine.finishRequested(Lifecycle.outcome()).map { errorName($0.error) } == "abort(1)")
        }
    }

    @Test("cancel() drops the held step: resume() afterwards has nothing to run")
    func cancelDropsTheHeldStep() {
        var machine = Self.started()
        _ = machine.suspendRequested()
        #expect(machine.stepReady(Lifecycle.send("/held")).name == "held")
        #expect(machine.cancelRequested().name == "finishNow")
        #expect(machine.resumeRequested().name == "none")
    }

    @Test("An abort's error wins over a cancel's, abort first or cancel first", arguments: [true, false])
    func abortWinsOverCancel(abortFirst: Bool) {
        var machine = Self.started()
        if abortFirst {
            #expect(machine.abortRequested(Lifecycle.abortError(7)).name == "finishNow")
            #expect(machine.cancelRequested().name == "finishNow", "the cancel adds itself to the stop")
        } else {
            #expect(machine.cancelRequested().name == "finishNow")
            #expect(machine.abortRequested(Lifecycle.abortError(7)).name == "finishNow")
        }
        #expect(machine.publicState == .cancelled)
        let stopped = machine.finishRequested(Lifecycle.outcome())
        #expect(stopped.map { errorName($0.error) } == "abort(7)")
        let recorded = machine.outcomeCompleted(Lifecycle.outcome())
        #expect(recorded.map { errorName($0.0.error) } == "abort(7)")
        #expect(errorName(machine.outcome?.error) == "abort(7)")
    }

    @Test("An abort once finishing does nothing: the subclass's completion has the last word")
    func abortDuringFinishing() {
        var machine = Self.finishing(.sessionInvalidated)
        #expect(machine.abortRequested(Lifecycle.abortError(3)).name == "none")
        #expect(!machine.isStopped)
        let recorded = machine.outcomeCompleted(Lifecycle.outcome(.sessionInvalidated))
        #expect(recorded.map { errorName($0.0.error) } == "\(WickError.sessionInvalidated)")
    }

    @Test("A cancel once finishing is a stop while finishing; the recorded outcome says explicitlyCancelled")
    func cancelDuringFinishing() {
        var machine = Self.finishing()
        #expect(machine.publicState == .resumed)
        #expect(machine.cancelRequested().name == "stoppedWhileFinishing")
        #expect(machine.publicState == .cancelled)
        #expect(machine.isCancelled)
        #expect(machine.cancelRequested().name == "none")
        let recorded = machine.outcomeCompleted(Lifecycle.outcome())
        #expect(recorded.map { errorName($0.0.error) } == "cancelled")
        #expect(machine.publicState == .cancelled, "a cancelled request stays cancelled, as in Alamofire")
        #expect(machine.isCancelled, "the outcome says it")
        #expect(!machine.isStopped, "a finished request's stop is forgotten")
    }

    @Test("A cancel after an abort, once finishing, is a stop while finishing, and the abort's error stays")
    func cancelDuringFinishingAfterAbort() {
        var machine = Self.started()
        _ = machine.abortRequested(Lifecycle.abortError(4))
        _ = machine.finishRequested(Lifecycle.outcome())
        #expect(machine.cancelRequested().name == "stoppedWhileFinishing")
        #expect(machine.outcomeCompleted(Lifecycle.outcome()).map { errorName($0.0.error) } == "abort(4)")
    }

    @Test("cancel() and abort(with:) of a finished request do nothing")
    func stopAfterFinish() {
        var machine = Self.finishing()
        _ = machine.outcomeCompleted(Lifecycle.outcome())
        #expect(machine.cancelRequested().name == "none")
        #expect(machine.abortRequested(Lifecycle.abortError(1)).name == "none")
        #expect(machine.publicState == .finished)
        #expect(!machine.isCancelled && !machine.isStopped)
        #expect(errorName(machine.outcome?.error) == "none")
    }

    @Test("No step runs after a stop, suspended or not: the step finishes the request instead")
    func stepAfterStopFinishes() {
        for suspend in [false, true] {
            var machine = Self.started()
            if suspend { _ = machine.suspendRequested() }
            _ = machine.cancelRequested()
            #expect(machine.stepReady(Lifecycle.send("/late")).name == "finishNow")
        }
        var aborted = Self.started()
        _ = aborted.abortRequested(Lifecycle.abortError(1))
        #expect(aborted.stepReady(Lifecycle.start).name == "finishNow")
    }

    /// The race a real transport allows: `cancel()` finds the exchange in flight, but the
    /// exchange has completed with a redirect before the cancellation reaches it. The redirect's
    /// hop must end the run; dropping it left the request unfinished forever (found by the
    /// random sequences, seed 10).
    @Test("A cancel that loses the race with a response: the next step finishes the request, with explicitlyCancelled")
    func responseAfterCancelFinishes() async throws {
        try await withCancellations { cancellations in
            var (machine, _) = Self.withExchange(cancellations)
            #expect(machine.cancelRequested().name == "cancelExchange")
            _ = machine.verdict { _ in .redirect(Lifecycle.request("/next"), asksHandler: false) }
            let ended = machine.exchangeEnded()
            #expect(verdictName(ended.verdict) == "redirect /next")
            #expect(machine.stepReady(Lifecycle.send("/next")).name == "finishNow")
            #expect(machine.finishRequested(Lifecycle.outcome()).map { errorName($0.error) } == "cancelled")
            #expect(machine.outcomeCompleted(Lifecycle.outcome()).map { errorName($0.0.error) } == "cancelled")
        }
    }

    @Test("A step after the finish has begun, or after the end, is dropped")
    func stepAfterFinishIsDropped() {
        var finishing = Self.finishing()
        #expect(finishing.stepReady(Lifecycle.start).name == "drop")
        var finished = Self.finishing()
        _ = finished.outcomeCompleted(Lifecycle.outcome())
        #expect(finished.stepReady(Lifecycle.start).name == "drop")
    }

    @Test("No exchange starts after a stop, once finishing, or once finished")
    func exchangeStartingRefusedAfterStop() async throws {
        try await withCancellations { cancellations in
            var cancelled = Self.started()
            #expect(cancelled.stepReady(Lifecycle.start).name == "proceed")
            _ = cancelled.cancelRequested()
            let startedCancelled = cancelled.exchangeStarting(Lifecycle.inFlight(cancellations))
            #expect(!startedCancelled)
            #expect(cancelled.inFlightCancellation == nil)

            var aborted = Self.started()
            _ = aborted.abortRequested(Lifecycle.abortError(1))
            let startedAborted = aborted.exchangeStarting(Lifecycle.inFlight(cancellations))
            #expect(!startedAborted)

            var finishing = Self.finishing()
            let startedFinishing = finishing.exchangeStarting(Lifecycle.inFlight(cancellations))
            #expect(!startedFinishing)
            var finished = Self.finishing()
            _ = finished.outcomeCompleted(Lifecycle.outcome())
            let startedFinished = finished.exchangeStarting(Lifecycle.inFlight(cancellations))
            #expect(!startedFinished)
        }
    }

    // MARK: - Rule 4: one outcome

    @Test("The first finishRequested wins: it returns the run's outcome, later ones nil")
    func finishRequestedFirstWins() {
        var machine = Self.started()
        let first = machine.finishRequested(Lifecycle.outcome(.sessionInvalidated))
        #expect(first.map { errorName($0.error) } == "\(WickError.sessionInvalidated)")
        #expect(machine.finishRequested(Lifecycle.outcome()) == nil)
        #expect(machine.outcome == nil, "finishing, not finished")
        #expect(machine.publicState == .resumed)
    }

    @Test("finishRequested puts the stop's error in place of the run's: a cancel's, else nothing")
    func finishRequestedAppliesTheStop() {
        var cancelled = Self.started()
        _ = cancelled.cancelRequested()
        #expect(
            cancelled.finishRequested(Lifecycle.outcome(.sessionInvalidated)).map { errorName($0.error) } == "cancelled"
        )

        var plain = Self.started()
        #expect(plain.finishRequested(Lifecycle.outcome()).map { errorName($0.error) } == "none")
    }

    @Test("outcomeCompleted records the outcome and hands it to every waiter once; later calls return nil")
    func outcomeCompletedHandsWaitersOnce() {
        let log = DeliveryLog()
        var machine = Machine()
        for number in 0..<3 { _ = machine.waiterAdded(log.waiter(number)) }
        _ = machine.resumeRequested()
        _ = machine.finishRequested(Lifecycle.outcome(.sessionInvalidated))
        let recorded = machine.outcomeCompleted(Lifecycle.outcome(.sessionInvalidated))
        #expect(log.count == 0, "the machine never calls out; its runner delivers")
        recorded?.1.deliver(recorded!.0)
        let invalidated = "\(WickError.sessionInvalidated)"
        #expect(log.all == ["0 \(invalidated)", "1 \(invalidated)", "2 \(invalidated)"])
        #expect(errorName(machine.outcome?.error) == invalidated)
        #expect(machine.outcomeCompleted(Lifecycle.outcome()) == nil)
        #expect(machine.publicState == .finished)
    }

    @Test("The completed outcome is the subclass's (a download's file), with the stop's error")
    func outcomeCompletedKeepsTheSubclassWork() {
        var machine = Self.started()
        _ = machine.cancelRequested()
        _ = machine.finishRequested(Lifecycle.outcome())
        var completed = Lifecycle.outcome()
        completed.fileURL = URL(fileURLWithPath: "/tmp/file")
        let recorded = machine.outcomeCompleted(completed)
        #expect(recorded?.0.fileURL?.path == "/tmp/file")
        #expect(errorName(machine.outcome?.error) == "cancelled")
    }

    // MARK: - Rule 5: waiters

    @Test("A waiter added after the end gets the recorded outcome at once")
    func waiterAfterFinishIsDelivered() {
        var machine = Self.finishing(.sessionInvalidated)
        _ = machine.cancelRequested()
        _ = machine.outcomeCompleted(Lifecycle.outcome())
        #expect(machine.announcedOutcome == nil, "recorded, not yet announced")
        #expect(machine.outcomeAnnounced().isEmpty)
        #expect(errorName(machine.announcedOutcome?.error) == "cancelled")
        #expect(machine.waiterAdded(.closure { _ in }).name == "deliver cancelled")
    }

    @Test("A waiter added after the recording but before the monitors were told waits, and comes next")
    func waiterWhileAnnouncingWaits() {
        let log = DeliveryLog()
        var machine = Self.finishing()
        #expect(machine.waiterAdded(log.waiter(0)).name == "wait")
        let recorded = machine.outcomeCompleted(Lifecycle.outcome())
        #expect(machine.publicState == .finished)
        #expect(machine.waiterAdded(log.waiter(1)).name == "wait", "the monitors have not been told yet")
        recorded?.1.deliver(recorded!.0)
        #expect(log.all == ["0 none"])
        machine.outcomeAnnounced().deliver(recorded!.0)
        #expect(log.all == ["0 none", "1 none"])
        #expect(machine.waiterAdded(log.waiter(2)).name == "deliver none")
    }

    @Test("A waiter added while finishing waits and is handed the outcome with the others")
    func waiterWhileFinishingWaits() {
        let log = DeliveryLog()
        var machine = Self.finishing()
        #expect(machine.waiterAdded(log.waiter(0)).name == "wait")
        let recorded = machine.outcomeCompleted(Lifecycle.outcome())
        recorded?.1.deliver(recorded!.0)
        #expect(log.all == ["0 none"])
    }

    // MARK: - Rule 6: one verdict per response

    @Test("The verdict is decided once per exchange: later readers get the first answer, and the exchange carries it")
    func verdictDecidedOnce() async throws {
        try await withCancellations { cancellations in
            var (machine, inFlight) = Self.withExchange(cancellations)
            var decisions = 0
            let first = machine.verdict { exchange in
                decisions += 1
                #expect(exchange.cancellation.handle === inFlight.cancellation.handle)
                return .redirect(Lifecycle.request("/there"), asksHandler: false)
            }
            let second = machine.verdict { _ in
                decisions += 1
                return .final
            }
            #expect(decisions == 1)
            #expect(verdictName(first) == "redirect /there")
            #expect(verdictName(second) == "redirect /there")
            #expect(verdictName(machine.exchangeEnded().verdict) == "redirect /there")

            // The next exchange's response gets a verdict of its own.
            let startedNext = machine.exchangeStarting(Lifecycle.inFlight(cancellations, "/there"))
            #expect(startedNext)
            #expect(verdictName(machine.verdict { _ in .final }) == "final")
        }
    }

    @Test("An exchange nobody asked about ends without a verdict")
    func exchangeEndsWithoutVerdict() async throws {
        try await withCancellations { cancellations in
            var (machine, _) = Self.withExchange(cancellations)
            let ended = machine.exchangeEnded()
            #expect(ended.verdict == nil)
        }
    }

    @Test("With nothing in flight there is no verdict, and nobody decides one")
    func noVerdictWithoutExchange() {
        var decisions = 0
        func decide(_: Machine.InFlight) -> ResponseVerdict {
            decisions += 1
            return .final
        }
        var idle = Self.started()
        #expect(idle.verdict(decide) == nil)
        var unstarted = Machine()
        #expect(unstarted.verdict(decide) == nil)
        var finishing = Self.finishing()
        #expect(finishing.verdict(decide) == nil)
        #expect(decisions == 0)
    }

    @Test("A verdict is still decided for an exchange being cancelled (the sink asks before it hears)")
    func verdictWhileCancelling() async throws {
        try await withCancellations { cancellations in
            var (machine, _) = Self.withExchange(cancellations)
            _ = machine.cancelRequested()
            #expect(verdictName(machine.verdict { _ in .final }) == "final")
        }
    }

    // MARK: - Reading

    @Test("publicState, isStopped and isCancelled in every state")
    func readingsInEveryState() async throws {
        try await withCancellations { cancellations in
            var states: [(String, Machine)] = []
            states.append(("initialized", Machine()))
            var suspendedUnstarted = Machine()
            _ = suspendedUnstarted.suspendRequested()
            states.append(("initialized, suspended", suspendedUnstarted))
            states.append(("running", Self.started()))
            var suspended = Self.started()
            _ = suspended.suspendRequested()
            states.append(("running, suspended", suspended))
            var inFlight = Self.withExchange(cancellations).0
            states.append(("running, exchange in flight", inFlight))
            _ = inFlight.cancelRequested()
            states.append(("running, exchange being cancelled", inFlight))
            var suspendedThenCancelled = Self.started()
            _ = suspendedThenCancelled.suspendRequested()
            _ = suspendedThenCancelled.cancelRequested()
            states.append(("running, suspended, cancelled", suspendedThenCancelled))
            var aborted = Self.started()
            _ = aborted.abortRequested(Lifecycle.abortError(1))
            states.append(("running, aborted", aborted))
            states.append(("finishing", Self.finishing()))
            var finishingCancelled = Self.finishing()
            _ = finishingCancelled.cancelRequested()
            states.append(("finishing, cancelled", finishingCancelled))
            var finished = Self.finishing()
            _ = finished.outcomeCompleted(Lifecycle.outcome())
            states.append(("finished", finished))
            var finishedCancelled = Self.started()
            _ = finishedCancelled.cancelRequested()
            _ = finishedCancelled.finishRequested(Lifecycle.outcome())
            _ = finishedCancelled.outcomeCompleted(Lifecycle.outcome())
            states.append(("finished, cancelled", finishedCancelled))

            let readings = states.map { name, machine in
                "\(name): \(machine.publicState) stopped=\(machine.isStopped) cancelled=\(machine.isCancelled)"
                    + " outcome=\(machine.outcome != nil)"
            }
            #expect(
                readings == [
                    "initialized: initialized stopped=false cancelled=false outcome=false",
                    "initialized, suspended: suspended stopped=false cancelled=false outcome=false",
                    "running: resumed stopped=false cancelled=false outcome=false",
                    "running, suspended: suspended stopped=false cancelled=false outcome=false",
                    "running, exchange in flight: resumed stopped=false cancelled=false outcome=false",
                    "running, exchange being cancelled: cancelled stopped=true cancelled=true outcome=false",
                    "running, suspended, cancelled: cancelled stopped=true cancelled=true outcome=false",
                    "running, aborted: resumed stopped=true cancelled=false outcome=false",
                    "finishing: resumed stopped=false cancelled=false outcome=false",
                    "finishing, cancelled: cancelled stopped=true cancelled=true outcome=false",
                    "finished: finished stopped=false cancelled=false outcome=true",
                    "finished, cancelled: cancelled stopped=false cancelled=true outcome=true",
                ])
        }
    }

    @Test("inFlightCancellation is the exchange on the transport's: none before, during finishing, or after")
    func inFlightReading() async throws {
        try await withCancellations { cancellations in
            var (machine, inFlight) = Self.withExchange(cancellations)
            #expect(machine.inFlightCancellation?.handle === inFlight.cancellation.handle)
            #expect(machine.exchangeEnded().request.url == inFlight.request.url)
            #expect(machine.inFlightCancellation == nil)
            #expect(Self.finishing().inFlightCancellation == nil)
            #expect(Machine().inFlightCancellation == nil)
        }
    }
}

/// Inputs that a correct runner never gives trap, naming the state and the input.
@Suite struct RequestStateMachineTrapTests {
    @Test("outcomeCompleted before finishing began traps, naming the state")
    func outcomeBeforeFinishingTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = RequestStateMachine()
            _ = machine.resumeRequested()
            _ = machine.outcomeCompleted(Request.Outcome(request: nil))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RequestStateMachine: outcomeCompleted in state running"))
    }

    @Test("An exchange ending once finishing has begun traps, naming the state")
    func exchangeEndedWhileFinishingTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = RequestStateMachine()
            _ = machine.resumeRequested()
            _ = machine.finishRequested(Request.Outcome(request: nil))
            _ = machine.exchangeEnded()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RequestStateMachine: an exchange ended in state finishing"))
    }

    @Test("A step before the start traps, naming the state")
    func stepBeforeStartTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = RequestStateMachine()
            _ = machine.suspendRequested()
            _ = machine.stepReady(.startAttempt(AttemptProgress(deadline: .distantFuture)))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RequestStateMachine: a step ran in state initialized(suspended: true)"))
    }

    @Test("A second exchange starting while one is in flight traps")
    func secondExchangeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let group = try EventLoopGroup(threadCount: 1)
            let runner = ConnectionPoolRunner(group: group)
            func exchange() -> RequestStateMachine.InFlight {
                RequestStateMachine.InFlight(
                    cancellation: TransportCancellation(
                        runner: runner, handle: runner.makeExchange(TransportRequest(.get, .http, host: "example.com"))),
                    request: HTTPRequest(
                        method: .get, url: URL(string: "https://a.example/")!, headers: HTTPHeaders(), body: nil),
                    progress: AttemptProgress(deadline: .distantFuture))
            }
            var machine = RequestStateMachine()
            _ = machine.resumeRequested()
            _ = machine.exchangeStarting(exchange())
            _ = machine.exchangeStarting(exchange())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("exchangeStarting with an exchange already in flight"))
    }
}
