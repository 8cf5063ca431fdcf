// One reader of a stream's chunks, as the request sees it: takes chunks, says when it is full.
import FoundationEssentials

/// A reader of a `DataStreamRequest`'s body: a handler (`HandlerStreamConsumer`) or an async
/// sequence (`DataStreamBuffer`). The request calls `take` and `restart` with its stream lock
/// held, so they must not call back into the request; a reader that drains below its low mark
/// calls `DataStreamRequest.consumerDrained()` later, with no lock held.
protocol DataStreamConsumer: AnyObject, Sendable {
    /// Takes a chunk of the final response's body. Returns true when this made the reader full
    /// (over its high mark); it then owes one `consumerDrained()`.
    func take(_ chunk: Data) -> Bool
    /// A new final response starts (a retried request): forget partial characters and lines.
    func restart()
    /// The body ended (`success`: read to its end); `done` once the reader has handled all it
    /// took.
    func end(success: Bool, done: @escaping @Sendable () -> Void)
    /// The most bytes the reader ever held (taken and not yet handled).
    var peakBytes: Int { get }
}
