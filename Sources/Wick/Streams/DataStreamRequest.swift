// A request whose response body is handed to its readers in chunks as it arrives, with backpressure.
import Dispatch
import FoundationEssentials
import WickReactor

/// A request whose response body is read as it arrives (`Session.streamRequest`), like
/// Alamofire 5's `DataStreamRequest`: by handlers (`responseStream`, `responseStreamString`,
/// `responseStreamDecodable`) or with async/await (`streamingData()`, `streamingStrings()`,
/// `streamingDecodables(_:)`).
///
/// Only the final response's body is streamed: a redirect the request follows, or a `401` it
/// answers, is collected as for an ordinary request. The body is not collected in memory and
/// `Session.Configuration.maximumResponseBodyBytes` does not apply to it. Its total deadline is
/// `Session.Configuration.streamAndDownloadTimeout` (none by default: a stream may last for
/// hours) or its own `HTTPRequest.timeout`; `idleTransferTimeout` still ends a stream that
/// goes quiet while its reader keeps up.
///
/// Backpressure: each reader holds at most its `BufferingPolicy`'s high mark of bytes received
/// and not yet handled (plus one socket read). Above it the connection stops reading the socket
/// until the reader is back down to its low mark, so a slow reader slows the server instead of
/// filling memory. With several readers, the slowest one sets the pace. Time that reading is
/// paused for a reader does not count against `idleTransferTimeout`.
///
/// A retried request (a retrier asked for it after a failure mid-body) streams the new
/// response's body from its first byte: readers see the body again, their partial characters
/// and lines forgotten.
///
/// `@unchecked Sendable`: the stream's mutable state is behind `streamState`'s lock; the other
/// stored properties are immutable and Sendable.
public final class DataStreamRequest: Request, @unchecked Sendable {
    /// A closure that receives a stream's events (Alamofire's `DataStreamRequest.Handler`).
    /// A thrown error ends the stream: the request is cancelled, and finishes with the error
    /// (a `WickError` as it is, any other as
    /// `responseSerializationFailed(reason: .customSerializationFailed)`).
    public typealias Handler<Success, Failure: Error> = @Sendable (Stream<Success, Failure>) throws -> Void

    /// A closure that checks the final response head before any body byte is handed over
    /// (Alamofire's `DataStreamRequest.Validation`): `.failure` ends the request with
    /// `responseValidationFailed(reason: .customValidationFailed)`, or with the error as it is
    /// when it is a `WickError`.
    public typealias Validation = @Sendable (HTTPRequest?, HTTPResponse) -> Result<Void, any Error>

    /// Whether a chunk that a reader fails to turn into a value (a line of newline-delimited
    /// JSON that does not decode) ends the request, with that failure as its error. The failure
    /// is delivered first either way.
    public let automaticallyCancelOnStreamError: Bool

    /// Where the final response's validations are.
    enum ValidationState {
        /// No validation, or every one passed: chunks go to the readers.
        case passed
        /// Running on the root queue; chunks that arrive meanwhile are held (reading paused).
        case pending(held: [Data])
        /// One failed: chunks are dropped while the request ends with the error.
        case failed(WickError)
    }

    struct StreamState {
        /// Every reader, in the order added; emptied once they have all ended.
        var consumers: [any DataStreamConsumer] = []
        var validations: [Validation] = []
        /// The final response head, once it arrived.
        var head: HTTPResponse?
        /// Counts final heads, so a validation decided late cannot apply to a newer response.
        var headGeneration = 0
        var validation = ValidationState.passed
        /// Readers over their high mark.
        var fullConsumers = 0
        /// The sink told the exchange to stop reading, and nothing asked it to resume since.
        var isPaused = false
        /// The outcome, waiting for a pending validation.
        var pendingEnd: (outcome: Outcome, record: @Sendable (Outcome) -> Void)?
        /// The readers are ending (`completeOutcome` ran): no reader is added any more.
        var isEnding = false
        /// Readers still flushing their last elements.
        var endingConsumers = 0
        /// The most bytes any reader that has ended ever held.
        var endedPeakBytes = 0
        /// Why a reader ended the stream (a handler threw; a value failed with
        /// `automaticallyCancelOnStreamError`): the request's error, even when the body had
        /// been read to its end before the reader got there.
        var streamError: WickError?
        /// The `onHTTPResponse` and `downloadProgress` handlers, and the body's progress.
        var events = ResponseEvents()
    }

    /// A pthread mutex (`Locked`), not `Synchronization.Mutex`: the loop and the readers meet
    /// here, and ThreadSanitizer must see it.
    let streamState = Locked(StreamState())

    init(
        session: Session, initialRequest: Result<HTTPRequest, WickError>,
        interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?, automaticallyCancelOnStreamError: Bool
    ) {
        let sink = DataStreamSink()
        self.automaticallyCancelOnStreamError = automaticallyCancelOnStreamError
        super.init(
            session: session, initialRequest: initialRequest, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume, bodySink: sink)
        sink.request = self
    }

    /// A stream may rightly last for hours: `Session.Configuration.streamAndDownloadTimeout`.
    override var defaultTimeout: Duration? { session.configuration.streamAndDownloadTimeout }

    /// The response head of the last attempt; for a stream, as soon as the final head arrived
    /// (also when a stream validation then failed it).
    public override var response: HTTPResponse? {
        super.response ?? streamState.withLock { $0.head }
    }

    // MARK: - Readers

    /// Adds `consumer`; false once the stream is ending (it then gets no chunk).
    func register(_ consumer: any DataStreamConsumer) -> Bool {
        streamState.withLock { state in
            guard !state.isEnding else { return false }
            state.consumers.append(consumer)
            return true
        }
    }

    /// The most bytes any reader ever held (taken and not yet handled): what the buffering
    /// policies bound.
    var peakBufferedBytes: Int {
        streamState.withLock { state in
            state.consumers.reduce(state.endedPeakBytes) { max($0, $1.peakBytes) }
        }
    }

    /// The bytes every reader can take before one passes its high mark (`Int.max` with none).
    var readerRoom: Int {
        streamState.withLock { state in state.consumers.reduce(Int.max) { min($0, $1.room) } }
    }

    /// A reader that was full is back at its low mark: reading resumes if no reader is full.
    func consumerDrained() {
        let resume = streamState.withLock { state -> Bool in
            precondition(state.fullConsumers > 0, "DataStreamRequest: a reader drained while none was full")
            state.fullConsumers -= 1
            guard state.fullConsumers == 0, state.isPaused, case .passed = state.validation else { return false }
            state.isPaused = false
            return true
        }
        if resume { demandMoreBody() }
    }

    /// Whether readers stop getting values: the request was cancelled, or a reader ended the
    /// stream.
    var isStreamStopped: Bool {
        isCancelled || streamState.withLock { $0.streamError != nil }
    }

    /// A reader ends the stream with `error` (the first one wins): no reader gets another value,
    /// the exchange in flight is cancelled, and the request finishes with `error`.
    func failStream(_ error: WickError) {
        let first = streamState.withLock { state -> Bool in
            guard state.streamError == nil else { return false }
            state.streamError = error
            return true
        }
        if first { abort(with: error) }
    }

    /// The stream's end as a handler or sequence reports it.
    func completion(_ outcome: Outcome) -> Completion {
        Completion(
            request: outcome.request,
            response: outcome.responseHead ?? response,
            metrics: outcome.metrics, error: outcome.error)
    }

    /// The error a handler threw, as the request's error.
    static func streamError(_ error: any Error) -> WickError {
        (error as? WickError) ?? .responseSerializationFailed(reason: .customSerializationFailed(error: error))
    }

    // MARK: - From the sink (on the event loop)

    /// The final response head arrived: readers restart if an earlier attempt streamed, the
    /// `onHTTPResponse` handlers are told, and the validations start on the root queue, then the
    /// deciding handlers are asked (the body is held until all passed and allowed).
    func finalHeadArrived(_ head: HTTPResponse) {
        var wakeUps = InlineList<DataStreamWakeUp>()
        let (validations, heads, deciding, generation) = streamState.withLock { state in
            if state.head != nil {
                for consumer in state.consumers {
                    if let wakeUp = consumer.restart() { wakeUps.append(wakeUp) }
                }
            }
            state.head = head
            state.headGeneration += 1
            state.isPaused = false
            state.events.headArrived(head.headers)
            let deciding = state.events.decidingHandlers
            state.validation = state.validations.isEmpty && deciding.isEmpty ? .passed : .pending(held: [])
            return (state.validations, state.events.headHandlers, deciding, state.headGeneration)
        }
        wakeUps.forEach { $0.perform() }
        ResponseEvents.tell(head, heads)
        guard !validations.isEmpty || !deciding.isEmpty else { return }
        let sent = request
        session.rootQueue.async { [self] in
            var failure: WickError?
            for validation in validations {
                let result: Result<Void, WickError> =
                    switch validation(sent, head) {
                    case .success: .success(())
                    case .failure(let error as WickError): .failure(error)
                    case .failure(let error):
                        .failure(.responseValidationFailed(reason: .customValidationFailed(error: error)))
                    }
                session.eventMonitor.request(self, didValidateRequest: sent, response: head, withResult: result)
                if case .failure(let error) = result {
                    failure = error
                    break
                }
            }
            guard failure == nil, !deciding.isEmpty else { return validationDecided(failure, generation: generation) }
            ask(deciding, about: head, generation: generation)
        }
    }

    /// Asks the deciding `onHTTPResponse` handlers about head `generation`; once all answered,
    /// the body goes on, or, if one said `.cancel`, the request is cancelled.
    private func ask(
        _ deciding: [(queue: DispatchQueue, handler: ResponseEvents.DecidingHandler)], about head: HTTPResponse,
        generation: Int
    ) {
        let answers = Locked((pending: deciding.count, cancelled: false))
        ResponseEvents.ask(head, deciding) { [self] disposition in
            let (done, cancelled) = answers.withLock { answers in
                answers.pending -= 1
                if disposition == .cancel { answers.cancelled = true }
                return (answers.pending == 0, answers.cancelled)
            }
            guard done else { return }
            if cancelled { cancel() }
            validationDecided(cancelled ? .explicitlyCancelled : nil, generation: generation)
        }
    }

    /// Body bytes of the final response. Returns whether the readers take more now.
    func bodyArrived(_ chunk: Data) -> Bool {
        streamState.withLock { state in
            state.events.bodyArrived(chunk.count)
            switch state.validation {
            case .failed:
                return true
            case .pending(var held):
                state.validation = .passed
                held.append(chunk)
                state.validation = .pending(held: held)
                state.isPaused = true
                return false
            case .passed:
                Self.deliver(chunk, &state)
                if state.fullConsumers > 0 { state.isPaused = true }
                return state.fullConsumers == 0
            }
        }
    }

    /// The socket reads that brought the last chunks are over: the readers that took some are
    /// woken, once for the batch.
    func bodyReadComplete() {
        let (consumers, progress) = streamState.withLock { ($0.consumers, $0.events.dueProgress()) }
        wakeReaders(consumers)
        ResponseEvents.report(progress)
    }

    /// Wakes those of `consumers` that took chunks they have not been woken for (no lock held).
    private func wakeReaders(_ consumers: [any DataStreamConsumer]) {
        for consumer in consumers { consumer.pendingWakeUp()?.perform() }
    }

    /// Hands `chunk` to every reader, counting those it made full; they are woken later.
    private static func deliver(_ chunk: Data, _ state: inout StreamState) {
        for consumer in state.consumers {
            if consumer.take(chunk) { state.fullConsumers += 1 }
        }
    }

    /// The validations of head `generation` ended with `failure` (nil: all passed).
    private func validationDecided(_ failure: WickError?, generation: Int) {
        var delivered: [any DataStreamConsumer] = []
        let (resume, end) = streamState.withLock { state -> (Bool, (Outcome, @Sendable (Outcome) -> Void)?) in
            guard state.headGeneration == generation, case .pending(let held) = state.validation else {
                return (false, nil)
            }
            if let failure {
                state.validation = .failed(failure)
            } else {
                state.validation = .passed
                for chunk in held { Self.deliver(chunk, &state) }
                if !held.isEmpty { delivered = state.consumers }
            }
            defer { state.pendingEnd = nil }
            let resume = failure == nil && state.isPaused && state.fullConsumers == 0
            if resume { state.isPaused = false }
            return (resume, state.pendingEnd)
        }
        wakeReaders(delivered)
        if let (outcome, record) = end {
            endConsumers(outcome, record)
        } else if let failure {
            abort(with: failure)
        }
        if resume { demandMoreBody() }
    }

    // MARK: - The end

    /// Lets the readers finish (a pending validation decided, handlers flushed, every chunk
    /// handled) before the outcome is recorded, so every handler's `.complete` event comes after
    /// its last `.stream` event.
    override func completeOutcome(_ outcome: Outcome, then record: @escaping @Sendable (Outcome) -> Void) {
        let (waitsForValidation, progress) = streamState.withLock { state -> (Bool, _) in
            let progress = state.events.dueProgress()
            guard case .pending = state.validation else { return (false, progress) }
            state.pendingEnd = (outcome, record)
            return (true, progress)
        }
        ResponseEvents.report(progress)
        if !waitsForValidation { endConsumers(outcome, record) }
    }

    /// Ends every reader, then records the outcome (failed by the validation, if one failed
    /// after the body was complete).
    private func endConsumers(_ outcome: Outcome, _ record: @escaping @Sendable (Outcome) -> Void) {
        var final = outcome
        let consumers = streamState.withLock { state -> [any DataStreamConsumer] in
            if case .failed(let failure) = state.validation, final.error == nil { final.error = failure }
            state.isEnding = true
            state.endingConsumers = state.consumers.count
            return state.consumers
        }
        guard !consumers.isEmpty else { return record(final) }
        for consumer in consumers {
            consumer.end(success: final.error == nil) { [self, final] in
                let last = streamState.withLock { state -> Outcome? in
                    state.endingConsumers -= 1
                    guard state.endingConsumers == 0 else { return nil }
                    state.endedPeakBytes = state.consumers.reduce(state.endedPeakBytes) { max($0, $1.peakBytes) }
                    state.consumers = []
                    var ended = final
                    if ended.error == nil { ended.error = state.streamError }
                    return ended
                }
                if let last { record(last) }
            }
        }
    }
}
