// The onHTTPResponse and downloadProgress handlers of a request, and the progress they are
// shown: kept by data requests (ResponseObserver) and data streams alike.
import Dispatch
import WickCore

/// What a request's response-event handlers need: the handlers, and the current final
/// response's progress. A value kept under its request's lock; handlers are called by
/// `announce` and `report`, outside it.
struct ResponseEvents {
    /// A handler that sees the final head.
    typealias HeadHandler = @Sendable (HTTPResponse) -> Void
    /// A handler that sees the final head and decides whether the request goes on.
    typealias DecidingHandler = @Sendable (HTTPResponse, @escaping @Sendable (ResponseDisposition) -> Void) -> Void
    /// A progress handler.
    typealias ProgressHandler = @Sendable (TransferProgress) -> Void

    var headHandlers: [(queue: DispatchQueue, handler: HeadHandler)] = []
    var decidingHandlers: [(queue: DispatchQueue, handler: DecidingHandler)] = []
    var progressHandlers: [(queue: DispatchQueue, handler: ProgressHandler)] = []
    /// Body bytes of the current final response so far.
    private var completedBytes: Int64 = 0
    /// Its `Content-Length`, when that is the body's length (not for a `Content-Encoding`).
    private var totalBytes: Int64?
    /// Bytes arrived since progress was last reported.
    private var isProgressDue = false

    /// Whether a head needs announcing at all.
    var hasHeadHandlers: Bool { !headHandlers.isEmpty || !decidingHandlers.isEmpty }

    /// A final head with `headers` arrived: the progress starts again at 0.
    mutating func headArrived(_ headers: HTTPHeaders) {
        let isEncoded = headers.value(for: "Content-Encoding").map { $0.lowercased() != "identity" } ?? false
        completedBytes = 0
        totalBytes = isEncoded ? nil : headers.value(for: "Content-Length").flatMap { Int64($0) }
        isProgressDue = false
    }

    /// `count` body bytes arrived.
    mutating func bodyArrived(_ count: Int) {
        completedBytes += Int64(count)
        isProgressDue = true
    }

    /// The progress and its handlers, if bytes arrived since the last report; then none are due.
    mutating func dueProgress() -> (TransferProgress, [(queue: DispatchQueue, handler: ProgressHandler)])? {
        guard isProgressDue, !progressHandlers.isEmpty else { return nil }
        isProgressDue = false
        return (TransferProgress(completedBytes: completedBytes, totalBytes: totalBytes), progressHandlers)
    }

    /// Queues `head` to every handler of `heads`.
    static func tell(_ head: HTTPResponse, _ heads: [(queue: DispatchQueue, handler: HeadHandler)]) {
        for (queue, handler) in heads { queue.async { handler(head) } }
    }

    /// Queues `head` to every handler of `deciding`, whose answers go to `decided`.
    static func ask(
        _ head: HTTPResponse, _ deciding: [(queue: DispatchQueue, handler: DecidingHandler)],
        decided: @escaping @Sendable (ResponseDisposition) -> Void
    ) {
        for (queue, handler) in deciding { queue.async { handler(head, decided) } }
    }

    /// Queues `due` (from `dueProgress`) to its handlers.
    static func report(_ due: (TransferProgress, [(queue: DispatchQueue, handler: ProgressHandler)])?) {
        guard let (progress, handlers) = due else { return }
        for (queue, handler) in handlers { queue.async { handler(progress) } }
    }
}
