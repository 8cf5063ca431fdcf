// One hedged request: the first attempt, a second one if its head is late, the first response wins.
import WickCore
import WickReactor

/// Runs a request under a `HedgingPolicy`: it starts the first attempt (`primary`) and, if that
/// attempt has no response head when the policy's delay has passed and the budget allows,
/// a second one (`hedge`) on the same runner, which gives it another connection (the first
/// holds its own). The first attempt to complete with a response wins: the caller hears it,
/// and the other is cancelled, which takes it out of the pool's wait queue or closes its
/// connection (a connection mid-response is never returned to the pool). A failure waits for
/// the other attempt, if one runs; when both fail the caller hears the first attempt's failure.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): `completion`, `deadline` and
/// `leaseObserver` are written in `start`, on the caller's thread, before the first attempt is
/// queued on the runner's loop (whose inbox lock orders them before every read there); every
/// other `var` is read and written only on the runner's loop, where the attempts complete, the
/// hedge timer fires, and `cancel` hops.
package final class HedgedExchange: @unchecked Sendable {
    let policy: HedgingPolicy
    let runner: ConnectionPoolRunner
    /// The first attempt; it is also what the request's cancellation handle names.
    let primary: TransportExchange
    private var hedge: TransportExchange?
    private var deadline = Deadline.distantFuture
    private var leaseObserver: TransportExchange.LeaseObserver?
    private var completion: @Sendable (consuming Result<TransportResponse, TransportError>) -> Void = { _ in }
    private var isPrimaryRunning = true
    private var isHedgeRunning = false
    private var primaryFailure: TransportError?
    private var isFinished = false
    private var isCancelled = false
    private var refusedByBudget = false

    /// A hedged run of `primary` on `runner` under `policy`, not started.
    init(policy: HedgingPolicy, runner: ConnectionPoolRunner, primary: TransportExchange) {
        self.policy = policy
        self.runner = runner
        self.primary = primary
    }

    /// The faults injected into both attempts (`TransportExchange.injectedFaults`); on the loop.
    var injectedFaults: [InjectedFault] { primary.injectedFaults + (hedge?.injectedFaults ?? []) }

    /// Starts the first attempt and arms the hedge; `completion` runs once, on the loop (or on
    /// this thread when the runner is shut down), as `ConnectionPoolRunner.start` says.
    func start(
        deadline: Deadline, leaseObserver: TransportExchange.LeaseObserver?,
        completion: @escaping @Sendable (consuming Result<TransportResponse, TransportError>) -> Void
    ) {
        self.deadline = deadline
        self.leaseObserver = leaseObserver
        self.completion = completion
        let wait = policy.requestStarted(host: primary.request.host)
        runner.start(primary, deadline: deadline, leaseObserver: leaseObserver) { [self] result in
            attemptEnded(isHedge: false, result)
        }
        runner.loop.schedule(after: wait) { [self] in hedgeDue() }
    }

    /// Cancels both attempts; the caller hears `.cancelled` (unless a response won already).
    func cancel() {
        runner.cancel(primary)
        runner.loop.execute { [self] in
            isCancelled = true
            if let hedge { runner.cancel(hedge) }
        }
    }

    /// The delay has passed: sends the hedge if the first attempt is still without a head.
    private func hedgeDue() {
        guard !isFinished, !isCancelled, isPrimaryRunning, primary.metrics.responseHead == nil else { return }
        guard policy.withdrawHedge() else { return refusedByBudget = true }
        let second = runner.makeExchange(primary.request)
        hedge = second
        isHedgeRunning = true
        runner.start(second, deadline: deadline, leaseObserver: leaseObserver) { [self] result in
            attemptEnded(isHedge: true, result)
        }
    }

    private func attemptEnded(isHedge: Bool, _ result: Result<TransportResponse, TransportError>) {
        if isHedge { isHedgeRunning = false } else { isPrimaryRunning = false }
        guard !isFinished else { return }
        switch result {
        case .success(var response):
            isFinished = true
            if let loser = isHedge ? primary : hedge { runner.cancel(loser) }
            response.metrics.hedge =
                hedge == nil ? (refusedByBudget ? .refusedByBudget : .notNeeded) : (isHedge ? .hedgeWon : .firstWon)
            if let head = response.metrics.responseHead {
                policy.requestEnded(
                    host: primary.request.host, latency: head - primary.metrics.started, hedgeWon: isHedge)
            }
            completion(.success(response))
        case .failure(let error):
            if !isHedge { primaryFailure = error }
            // The other attempt may still answer.
            if isHedge ? isPrimaryRunning : isHedgeRunning, !isCancelled { return }
            isFinished = true
            completion(.failure(primaryFailure ?? error))
        }
    }
}
