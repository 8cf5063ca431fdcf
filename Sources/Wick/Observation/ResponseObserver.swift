// A data request's view of its final response as it arrives: the head handed to onHTTPResponse
// handlers (the body held until they decide) and the body's progress.
import Dispatch
import FoundationEssentials
import WickCore
import WickReactor

/// The body sink of a `DataRequest` with `onHTTPResponse` or `downloadProgress` handlers: the
/// exchange still collects the body (`.observe`) and shows it here. A request without such
/// handlers has none, so it costs nothing.
///
/// Threads: `responseHead`, `responseBody` and `responseBodyReadComplete` run on the pool's
/// loop; handlers are added on the user's threads and run on their queues; `state` (behind a
/// lock) is what they share. Handlers are queued, never called, under the lock.
///
/// Rules:
/// 1. Only the final response is observed: a redirect the request follows or a challenge it
///    answers is collected as usual and shown to nobody.
/// 2. Each final head (a retry or a replay brings another) goes to every head handler and
///    restarts the progress at 0 of its `Content-Length` (unknown for a `Content-Encoding`).
/// 3. While a handler that decides (`ResponseDisposition`) has not answered, reading pauses
///    after the bytes in hand, and the request does not finish. `.cancel` cancels the request;
///    when every handler allowed, reading resumes.
/// 4. Progress goes to the handlers once per batch of socket reads that brought body bytes,
///    and once more at the end for the bytes of the read that completed the response.
final class ResponseObserver: TransportBodySink, @unchecked Sendable {
    /// A handler that sees the final head.
    typealias HeadHandler = @Sendable (HTTPResponse) -> Void
    /// A handler that sees the final head and decides whether the request goes on.
    typealias DecidingHandler = @Sendable (HTTPResponse, @escaping @Sendable (ResponseDisposition) -> Void) -> Void
    /// A progress handler.
    typealias ProgressHandler = @Sendable (TransferProgress) -> Void

    struct State {
        var headHandlers: [(queue: DispatchQueue, handler: HeadHandler)] = []
        var decidingHandlers: [(queue: DispatchQueue, handler: DecidingHandler)] = []
        var progressHandlers: [(queue: DispatchQueue, handler: ProgressHandler)] = []
        /// Body bytes of the current final response so far.
        var completedBytes: Int64 = 0
        /// Its `Content-Length`, when that is the body's length.
        var totalBytes: Int64?
        /// Bytes arrived since progress was last reported.
        var isProgressDue = false
        /// Answers still awaited from deciding handlers, for the current head.
        var pendingDecisions = 0
        /// Counts final heads, so an answer about an older one changes nothing.
        var headGeneration = 0
        /// `responseBody` said it takes no more until the decisions are in.
        var isPaused = false
        /// The request's end, held until the decisions are in (rule 3).
        var heldEnd: (outcome: Request.Outcome, record: @Sendable (Request.Outcome) -> Void)?
    }

    let state = Locked(State())
    /// The request, for `bodyHandling`, `demandMoreBody` and `cancel`. Set once, when the
    /// observer is made, then only read.
    weak var request: Request?

    init(request: Request) {
        self.request = request
    }

    // MARK: - TransportBodySink (on the loop)

    func responseHead(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling {
        guard let request, request.bodyHandling(status: status, headers: headers) == .stream else { return .collect }
        let head = HTTPResponse(status: status, headers: headers, version: .http1_1)
        let isEncoded = headers.value(for: "Content-Encoding").map { $0.lowercased() != "identity" } ?? false
        let total = isEncoded ? nil : headers.value(for: "Content-Length").flatMap { Int64($0) }
        let (heads, deciding, generation) = state.withLock { state in
            state.completedBytes = 0
            state.totalBytes = total
            state.isProgressDue = false
            state.headGeneration += 1
            state.pendingDecisions = state.decidingHandlers.count
            return (state.headHandlers, state.decidingHandlers, state.headGeneration)
        }
        for (queue, handler) in heads { queue.async { handler(head) } }
        for (queue, handler) in deciding {
            queue.async { [self] in
                handler(head) { [self] disposition in decided(disposition, generation: generation) }
            }
        }
        return .observe
    }

    func responseBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = Int64(bytes.count)
        return state.withLock { state in
            state.completedBytes += count
            state.isProgressDue = true
            guard state.pendingDecisions == 0 else {
                state.isPaused = true
                return false
            }
            return true
        }
    }

    func responseBodyReadComplete() {
        reportProgressIfDue()
    }

    /// Hands the progress to the handlers if bytes arrived since the last report.
    private func reportProgressIfDue() {
        let report = state.withLock { state -> (TransferProgress, [(DispatchQueue, ProgressHandler)])? in
            guard state.isProgressDue, !state.progressHandlers.isEmpty else { return nil }
            state.isProgressDue = false
            let progress = TransferProgress(completedBytes: state.completedBytes, totalBytes: state.totalBytes)
            return (progress, state.progressHandlers.map { ($0.queue, $0.handler) })
        }
        guard let (progress, handlers) = report else { return }
        for (queue, handler) in handlers { queue.async { handler(progress) } }
    }

    // MARK: - Decisions and the end

    /// A deciding handler answered about head `generation`.
    private func decided(_ disposition: ResponseDisposition, generation: Int) {
        if disposition == .cancel { request?.cancel() }
        let (resumes, end) = state.withLock { state -> (Bool, (Request.Outcome, @Sendable (Request.Outcome) -> Void)?) in
            guard state.headGeneration == generation, state.pendingDecisions > 0 else { return (false, nil) }
            state.pendingDecisions -= 1
            guard state.pendingDecisions == 0 else { return (false, nil) }
            defer { state.heldEnd = nil }
            let resumes = state.isPaused
            state.isPaused = false
            return (resumes, state.heldEnd)
        }
        if let (outcome, record) = end { return record(outcome) }
        if resumes { request?.demandMoreBody() }
    }

    /// Reports the last progress (the read that ended the response is not followed by
    /// `responseBodyReadComplete`), then records `outcome` now, or once the decisions about the
    /// last head are in (rule 3).
    func end(_ outcome: Request.Outcome, then record: @escaping @Sendable (Request.Outcome) -> Void) {
        reportProgressIfDue()
        let holds = state.withLock { state -> Bool in
            guard state.pendingDecisions > 0 else { return false }
            state.heldEnd = (outcome, record)
            return true
        }
        if !holds { record(outcome) }
    }
}
