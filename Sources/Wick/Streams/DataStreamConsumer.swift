// One reader of a stream's chunks, as the request sees it: takes chunks, says when it is full.
import Dispatch
import FoundationEssentials

/// A reader of a `DataStreamRequest`'s body: a handler (`HandlerStreamConsumer`) or an async
/// sequence (`DataStreamBuffer`). The request calls `take` and `restart` with its stream lock
/// held, so they must not call back into the request nor wake anyone. The reader is woken by
/// `pendingWakeUp()`, which the request calls with no lock held, once per batch of socket
/// reads rather than once per chunk (a woken reader reaches for the locks at once; woken under
/// them, it would sleep again on them). A reader that drains below its low mark calls
/// `DataStreamRequest.consumerDrained()` later, with no lock held.
protocol DataStreamConsumer: AnyObject, Sendable {
    /// Takes a chunk of the final response's body, without waking the reader. Returns true when
    /// this made the reader full (over its high mark); it then owes one `consumerDrained()`.
    func take(_ chunk: Data) -> Bool
    /// What wakes the reader for the chunks taken since it last looked, if it needs waking; to
    /// perform with no lock held.
    func pendingWakeUp() -> DataStreamWakeUp?
    /// A new final response starts (a retried request): forget partial characters and lines.
    /// Returns the wake-up to perform with no lock held.
    func restart() -> DataStreamWakeUp?
    /// The body ended (`success`: read to its end); `done` once the reader has handled all it
    /// took.
    func end(success: Bool, done: @escaping @Sendable () -> Void)
    /// The most bytes the reader ever held (taken and not yet handled).
    var peakBytes: Int { get }
    /// The bytes the reader can take before it passes its high mark (0 past it).
    var room: Int { get }
}

/// A reader's wake-up, performed outside every lock.
enum DataStreamWakeUp: Sendable {
    /// Resumes the task waiting in an async sequence's `next()`.
    case task(UnsafeContinuation<Void, Never>)
    /// Runs a handler's work on its queue.
    case queue(DispatchQueue, @Sendable () -> Void)

    func perform() {
        switch self {
        case .task(let continuation): continuation.resume()
        case .queue(let queue, let work): queue.async(execute: work)
        }
    }
}
