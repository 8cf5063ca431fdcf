// A handle on a timer scheduled on an event loop: cancel it from any thread.
import Synchronization

/// A scheduled timer. Cancelling it from any thread guarantees its body never runs if `cancel()`
/// returns `true`; the body and the cancel race on one atomic, so exactly one of them wins.
public final class Scheduled: Sendable {
    /// What became of a timer.
    public enum Outcome: UInt8, Sendable {
        /// Still waiting for its deadline.
        case pending
        /// Its body ran (or is running).
        case fired
        /// Cancelled by `cancel()` or by the loop's shutdown; its body never runs.
        case cancelled
    }

    let id: UInt64
    /// The loop the timer lives on.
    public let loop: EventLoop
    private let state = Atomic<UInt8>(Outcome.pending.rawValue)

    init(id: UInt64, loop: EventLoop) {
        self.id = id
        self.loop = loop
    }

    /// Where the timer is now.
    public var outcome: Outcome {
        Outcome(rawValue: state.load(ordering: .acquiring))!
    }

    /// Cancels the timer. Returns `true` if this call prevented the body from running, `false`
    /// if it had already fired or been cancelled. Safe from any thread.
    @discardableResult
    public func cancel() -> Bool {
        guard markCancelled() else { return false }
        loop.forgetTimer(id: id)
        return true
    }

    /// Moves pending → fired; `false` if it was cancelled first. Called by the loop before the body.
    func markFired() -> Bool {
        state.compareExchange(
            expected: Outcome.pending.rawValue, desired: Outcome.fired.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Moves pending → cancelled; `false` if it had fired or was cancelled already.
    func markCancelled() -> Bool {
        state.compareExchange(
            expected: Outcome.pending.rawValue, desired: Outcome.cancelled.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }
}
