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
    struct State {
        var events = ResponseEvents()
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
        let head = HTTPResponse(status: status, headers: headers, version: .http1_1, url: request.request?.url)
        let (heads, deciding, generation) = state.withLock { state in
            state.events.headArrived(headers)
            state.headGeneration += 1
            state.pendingDecisions = state.events.decidingHandlers.count
            return (state.events.headHandlers, state.events.decidingHandlers, state.headGeneration)
        }
        ResponseEvents.tell(head, heads)
        ResponseEvents.ask(head, deciding) { [self] disposition in
            decided(disposition, generation: generation)
        }
        return .observe
    }

    func responseBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        return state.withLock { state in
            state.events.bodyArrived(count)
            guard state.pendingDecisions == 0 else {
                state.isPaused = true
                return false
            }
            return true
        }
    }

    func responseBodyReadComplete() {
        ResponseEvents.report(state.withLock { $0.events.dueProgress() })
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
        let (due, holds) = state.withLock { state in
            let due = state.events.dueProgress()
            guard state.pendingDecisions > 0 else { return (due, false) }
            state.heldEnd = (outcome, record)
            return (due, true)
        }
        ResponseEvents.report(due)
        if !holds { record(outcome) }
    }
}
