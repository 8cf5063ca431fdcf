// Helpers for the request lifecycle's tests: cancellation handles, sample steps and outcomes,
// and short names for the errors an outcome carries.
import Foundation
import Synchronization
import WickCore
import WickReactor

@testable import Wick
@testable import WickTransport

/// Makes `TransportCancellation`s, each with a handle of its own, on a runner that never sends
/// anything: the machine only carries them, and a test compares them by handle.
struct Cancellations {
    let runner: ConnectionPoolRunner

    /// A fresh cancellation.
    func make() -> TransportCancellation {
        TransportCancellation(
            runner: runner, handle: runner.makeExchange(TransportRequest(.get, .http, host: "example.com")))
    }
}

/// Calls `body` with `Cancellations` on a runner of its own (one loop thread), then shuts the
/// runner down.
func withCancellations<T>(_ body: (Cancellations) throws -> T) async throws -> T {
    let group = try EventLoopGroup(threadCount: 1)
    let runner = ConnectionPoolRunner(group: group, settings: TransportSettings())
    let result = Result { try body(Cancellations(runner: runner)) }
    await runner.shutdown()
    // Joining the loop thread blocks: off the cooperative threads.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            group.shutdownGracefully()
            continuation.resume()
        }
    }
    return try result.get()
}

/// Sample values for the lifecycle's inputs.
enum Lifecycle {
    /// A request to `https://a.example<path>`.
    static func request(_ path: String = "/") -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: "https://a.example\(path)")!, headers: HTTPHeaders(), body: nil)
    }

    static let progress = AttemptProgress(deadline: .distantFuture)

    /// A first attempt.
    static let start = HeldStep.startAttempt(progress)

    /// A redirect hop or challenge answer to `path`.
    static func send(_ path: String) -> HeldStep {
        .send(request(path), progress)
    }

    /// An exchange of `request(path)` with a fresh cancellation.
    static func inFlight(_ cancellations: Cancellations, _ path: String = "/") -> RequestStateMachine.InFlight {
        RequestStateMachine.InFlight(cancellation: cancellations.make(), request: request(path), progress: progress)
    }

    /// An outcome for `request()` with `error`.
    static func outcome(_ error: WickError? = nil) -> Request.Outcome {
        Request.Outcome(request: request(), error: error)
    }

    /// An abort's error, told apart from others by `number`.
    static func abortError(_ number: Int) -> WickError {
        .bodyTooLarge(limit: number)
    }
}

/// Waiters that log what they are handed: a waiter is a `@Sendable` closure, so the log is
/// behind a lock.
final class DeliveryLog: Sendable {
    private let entries = Mutex<[(waiter: Int, error: String)]>([])

    /// A waiter numbered `number` that logs each outcome handed to it.
    func waiter(_ number: Int) -> RequestStateMachine.Waiter {
        .closure { [self] outcome in entries.withLock { $0.append((number, errorName(outcome.error))) } }
    }

    /// Every delivery, in order: `<waiter> <error>`.
    var all: [String] { entries.withLock { $0.map { "\($0.waiter) \($0.error)" } } }

    /// The error names handed to waiter `number`, in order.
    func deliveries(to number: Int) -> [String] {
        entries.withLock { $0.filter { $0.waiter == number }.map(\.error) }
    }

    /// How many deliveries there were.
    var count: Int { entries.withLock { $0.count } }
}

/// A short name for an outcome's error: `none`, `cancelled`, `abort(N)` (`Lifecycle.abortError`)
/// or the error's description.
func errorName(_ error: WickError?) -> String {
    switch error {
    case nil: "none"
    case .explicitlyCancelled?: "cancelled"
    case .bodyTooLarge(let number)?: "abort(\(number))"
    case let other?: "\(other)"
    }
}

/// A short name for a step: `start` or `send <path>`.
func stepName(_ step: HeldStep?) -> String {
    switch step {
    case nil: "none"
    case .startAttempt?: "start"
    case .send(let request, _)?: "send \(request.url.path())"
    }
}

/// A short name for a verdict: `final`, `challenge <path>`, `redirect <path> asks`,
/// `redirect <path>`, or `refused <failure>`.
func verdictName(_ verdict: ResponseVerdict?) -> String {
    switch verdict {
    case nil: "none"
    case .final?: "final"
    case .answerChallenge(let answer)?: "challenge \(answer.url.path())"
    case .redirect(let next, let asksHandler)?: "redirect \(next.url.path())" + (asksHandler ? " asks" : "")
    case .refused(let failure)?: "refused \(failure)"
    }
}

extension RequestStateMachine.ResumeAction {
    /// `start`, `continue <step>` or `none`.
    var name: String {
        switch self {
        case .start: "start"
        case .continueRun(let held): "continue \(stepName(held))"
        case .none: "none"
        }
    }
}

extension RequestStateMachine.StopAction {
    /// `cancelExchange`, `finishNow`, `stoppedWhileFinishing` or `none`.
    var name: String {
        switch self {
        case .cancelExchange: "cancelExchange"
        case .finishNow: "finishNow"
        case .stoppedWhileFinishing: "stoppedWhileFinishing"
        case .none: "none"
        }
    }

    /// The handle of the exchange to cancel, if that is the action.
    var handle: TransportExchange? {
        if case .cancelExchange(let cancellation) = self { return cancellation.handle }
        return nil
    }
}

extension RequestStateMachine.StepAction {
    /// `proceed`, `held`, `finishNow` or `drop`.
    var name: String {
        switch self {
        case .proceed: "proceed"
        case .held: "held"
        case .finishNow: "finishNow"
        case .drop: "drop"
        }
    }
}

extension RequestStateMachine.WaiterAction {
    /// `deliver <error>` or `wait` / `wait mayStart`.
    var name: String {
        switch self {
        case .deliver(let outcome): "deliver \(errorName(outcome.error))"
        case .wait(let mayStart): mayStart ? "wait mayStart" : "wait"
        }
    }
}
