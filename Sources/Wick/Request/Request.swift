// The base of every request: its state, what it has sent and received, and its controls.
public import Dispatch
public import FoundationEssentials
import Logging
import Synchronization
import WickReactor
import WickTransport

/// One request made by a `Session`: what it sends, its state, its retries, and its controls
/// (`resume`, `suspend`, `cancel`). Subclasses (`DataRequest`) add the ways to read the response.
///
/// A request runs once: attempts (adapted, sent, redirected, validated, maybe retried) until an
/// outcome is known. It starts on `resume()`, or, when it starts on its own (its
/// `shouldAutomaticallyResume`, else `Session.startRequestsImmediately`: on by default), when its
/// first response handler, task or sequence is added (what the docs call "starts the request");
/// every handler added, before or after it finished, receives the same outcome.
///
/// `@unchecked Sendable`: the mutable state is behind `mutableState`'s lock; the other stored
/// properties are immutable and Sendable.
public class Request: @unchecked Sendable {
    /// Where a request is in its life.
    public enum State: Sendable, Equatable, CustomStringConvertible {
        /// Created, not started.
        case initialized
        /// Running.
        case resumed
        /// Held by `suspend()`: no new attempt, redirect or retry starts until `resume()`.
        case suspended
        /// `cancel()` was called; it finishes with `WickError.explicitlyCancelled` and stays
        /// `.cancelled` afterwards, as in Alamofire.
        case cancelled
        /// Finished (not cancelled): its outcome is known.
        case finished

        /// `initialized`, `resumed`...
        public var description: String {
            switch self {
            case .initialized: "initialized"
            case .resumed: "resumed"
            case .suspended: "suspended"
            case .cancelled: "cancelled"
            case .finished: "finished"
            }
        }
    }

    /// How a request ended: the last request sent, the last response (kept when validation or a
    /// retrier failed it), the error, and the metrics of every attempt.
    ///
    /// The fields live in one object that copies share (copied on a change): an outcome travels
    /// from the run through the lifecycle to every waiter, and copying its ~900 bytes and two
    /// dozen references at each step cost more than the one allocation.
    @usableFromInline struct Outcome: Sendable {
        /// The fields. `@unchecked Sendable`: changed only through `Outcome`'s setters, after
        /// `isKnownUniquelyReferenced` made sure no other copy shares it.
        private final class Storage: @unchecked Sendable {
            var request: HTTPRequest?
            var response: TransportResponse?
            var error: WickError?
            var metrics: RequestMetrics?
            var fileURL: URL?
            var resumeData: Data?

            init(
                request: HTTPRequest?, response: TransportResponse?, error: WickError?, metrics: RequestMetrics?,
                fileURL: URL?, resumeData: Data?
            ) {
                self.request = request
                self.response = response
                self.error = error
                self.metrics = metrics
                self.fileURL = fileURL
                self.resumeData = resumeData
            }

            func copy() -> Storage {
                Storage(
                    request: request, response: response, error: error, metrics: metrics, fileURL: fileURL,
                    resumeData: resumeData)
            }
        }

        private var storage: Storage

        init(
            request: HTTPRequest?, response: TransportResponse? = nil, error: WickError? = nil,
            metrics: RequestMetrics? = nil, fileURL: URL? = nil, resumeData: Data? = nil
        ) {
            storage = Storage(
                request: request, response: response, error: error, metrics: metrics, fileURL: fileURL,
                resumeData: resumeData)
        }

        /// The storage, unshared, for a change.
        private mutating func unique() -> Storage {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }

        /// The last request sent.
        var request: HTTPRequest? {
            get { storage.request }
            set { unique().request = newValue }
        }
        /// The last response (kept when validation or a retrier failed it).
        var response: TransportResponse? {
            get { storage.response }
            set { unique().response = newValue }
        }
        /// The response's body when it holds a byte, read where it is stored: Alamofire's `data`,
        /// nil for an empty body (an unfollowed redirect, a 401 answered without one, a 204).
        var responseData: Data? {
            guard let body = storage.response?.body, !body.isEmpty else { return nil }
            return body
        }
        /// The response's protocol version, if a response arrived.
        var responseVersion: HTTPVersion? { storage.response?.version }
        /// The response's head (status, fields, version, trailers) at the last request's URL,
        /// read field by field where it is stored, not copied out whole.
        var responseHead: HTTPResponse? {
            let storage = storage
            guard let status = storage.response?.status, let version = storage.response?.version,
                let headers = storage.response?.headers
            else { return nil }
            return HTTPResponse(
                status: status, headers: headers, version: version, trailers: storage.response?.trailers,
                url: storage.request?.url)
        }
        /// Why the request failed; nil when it succeeded.
        var error: WickError? {
            get { storage.error }
            set { unique().error = newValue }
        }
        /// The metrics of every exchange.
        var metrics: RequestMetrics? {
            get { storage.metrics }
            set { unique().metrics = newValue }
        }
        /// Where a download's body is (`DownloadRequest`), once moved to its destination.
        var fileURL: URL? {
            get { storage.fileURL }
            set { unique().fileURL = newValue }
        }
        /// What resumes a failed or cancelled download (`DownloadRequest`).
        var resumeData: Data? {
            get { storage.resumeData }
            set { unique().resumeData = newValue }
        }
    }

    /// A validation as stored: run on each response before the request finishes.
    typealias StoredValidation = @Sendable (HTTPRequest?, TransportResponse) -> Result<Void, WickError>

    /// What the request records as it runs, beside its lifecycle: what it sent and received,
    /// and the settings its handlers added.
    struct Records {
        var retryCount = 0
        /// The delay before the last retry (nil before the first): a decorrelated backoff
        /// grows from it.
        var lastRetryDelay: Duration?
        var redirectCount = 0
        /// The logger named by `logging(to:)`; nil logs to the session's.
        var logger: Logger?
        var sent = InlineList<HTTPRequest>()
        /// The last attempt as it ended (`Request.response` is its head). Kept whole, one
        /// reference, rather than as an `HTTPResponse?`, which every attempt copied in and
        /// destroyed through `Optional`'s generic value witnesses.
        var lastAttempt: Outcome?
        var error: WickError?
        var validators: [StoredValidation] = []
        var credential: HTTPCredential?
        var redirectHandler: (any RedirectHandler)?
        var cachedResponseHandler: (any CachedResponseHandler)?
        var onRequestCreation: [(queue: DispatchQueue, handler: @Sendable (HTTPRequest) -> Void)] = []
    }

    /// Everything mutable, behind the one lock: the lifecycle (`RequestStateMachine`, which
    /// decides) and the records.
    struct MutableState {
        var lifecycle = RequestStateMachine()
        var records = Records()
    }

    /// An identifier, unique per request.
    public var id: UUID { RequestIdentifier.uuid(serial) }
    /// The serial number `id` is made from (`RequestIdentifier`), unique per request: the
    /// identifier is built only when read.
    let serial = RequestIdentifier.nextSerial()
    /// Its slot in the session's `RequestRegistry`, -1 when not there. Read and written only
    /// under the registry's lock.
    nonisolated(unsafe) var registrySlot = -1
    /// The session that runs the request.
    public let session: Session
    /// The request's own interceptor, used with the session's (`Session.interceptor`): its
    /// adapter runs before the session's and its retrier is asked first, as in Alamofire.
    public let interceptor: (any RequestInterceptor)?
    /// Whether `interceptor` is not nil, kept so an attempt does not copy the existential to ask.
    let hasOwnInterceptor: Bool
    /// Whether the request starts on its own when its first response handler, task
    /// (`serializingData()`) or sequence (`streamingData()`) is added: true starts it, false
    /// leaves it to `resume()`, nil (the default) follows `Session.startRequestsImmediately`.
    /// Set by the `shouldAutomaticallyResume` argument of the `Session` call that made it.
    public let shouldAutomaticallyResume: Bool?
    /// The request as created (before adaptation), or why it could not be.
    let initialRequest: Result<HTTPRequest, WickError>
    /// Where streamed response bodies go (set by `DownloadRequest` and `DataStreamRequest`);
    /// nil collects every body in memory.
    let bodySink: (any TransportBodySink)?
    /// The sink each exchange gets: `bodySink`, or one a subclass installs once handlers ask
    /// for it (`DataRequest`'s `ResponseObserver`).
    var exchangeSink: (any TransportBodySink)? { bodySink }
    let mutableState = RequestStateLock(MutableState())

    init(
        session: Session, initialRequest: Result<HTTPRequest, WickError>,
        interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?, bodySink: (any TransportBodySink)? = nil
    ) {
        self.session = session
        self.initialRequest = initialRequest
        hasOwnInterceptor = interceptor != nil
        self.interceptor = interceptor
        self.shouldAutomaticallyResume = shouldAutomaticallyResume
        self.bodySink = bodySink
    }

    // MARK: - What it has sent and received

    /// Wick's own adapter for every attempt, run after the request's and the session's (a
    /// resumed download's `Range`); nil for most requests.
    var finalAdapter: (any RequestAdapter)? { nil }
    /// Whether `finalAdapter` is not nil, asked without building the existential.
    var hasFinalAdapter: Bool { false }

    /// The current state.
    public var state: State { mutableState.withLock { $0.lifecycle.publicState } }

    /// Whether `cancel()` was called (or the task awaiting a `DataTask` was cancelled).
    public var isCancelled: Bool { mutableState.withLock { $0.lifecycle.isCancelled } }
    /// Whether the request is running.
    public var isResumed: Bool { state == .resumed }
    /// Whether the request is suspended.
    public var isSuspended: Bool { state == .suspended }
    /// Whether the request has finished without being cancelled (Alamofire's meaning: a
    /// cancelled request's state stays `.cancelled`).
    public var isFinished: Bool { state == .finished }

    /// How many times the request has been retried (0 on the first attempt).
    public var retryCount: Int { mutableState.withLock { $0.records.retryCount } }

    /// How many redirects the request has followed, over all its attempts.
    public var redirectCount: Int { mutableState.withLock { $0.records.redirectCount } }

    /// The last request sent (after adaptation and redirects); before the first attempt, the
    /// request as created; nil if it could not be built.
    public var request: HTTPRequest? {
        mutableState.withLock { $0.records.sent.last } ?? (try? initialRequest.get())
    }

    /// Every request sent, in order: one per attempt and per redirect hop (a request the
    /// session's response cache answered without sending counts too, so the last is the one the
    /// response answers).
    public var requests: [HTTPRequest] { mutableState.withLock { $0.records.sent.all } }

    /// The response head of the last attempt, if one arrived.
    public var response: HTTPResponse? { mutableState.withLock { $0.records.lastAttempt }?.responseHead }

    /// The error of the last attempt, or of the request once finished; nil while all is well.
    public var error: WickError? { mutableState.withLock { $0.records.error } }

    // MARK: - Controls

    /// Starts the request, or continues a suspended one; does nothing otherwise.
    @discardableResult
    public func resume() -> Self {
        let action = mutableState.withLock { state in
            let action = state.lifecycle.resumeRequested()
            // Under the lock, so that a suspend and a resume reach the loop in their order.
            if case .continueRun = action { state.lifecycle.inFlightCancellation?.resumeReading() }
            return action
        }
        switch action {
        case .start:
            start()
        case .continueRun(let held):
            if session.eventMonitor.handles(.didResume) { session.eventMonitor.requestDidResume(self) }
            if let held { run(held) }
        case .none:
            break
        }
        return self
    }

    /// Holds the request, as suspending Alamofire's task does: a transfer in flight stops
    /// reading its connection (kept open; the server is held back by TCP, and the time paused
    /// does not count against `idleTransferTimeout`, only the request's total deadline), and no
    /// new attempt, redirect hop or retry starts until `resume()`. A suspended request that was
    /// never resumed stays unstarted. Does nothing unless the request is initialized or resumed.
    @discardableResult
    public func suspend() -> Self {
        let suspended = mutableState.withLock { state in
            guard state.lifecycle.suspendRequested() else { return false }
            // Under the lock, so that a suspend and a resume reach the loop in their order.
            state.lifecycle.inFlightCancellation?.pauseReading()
            return true
        }
        if suspended { session.eventMonitor.requestDidSuspend(self) }
        return self
    }

    /// Cancels the request: a waiting request leaves the pool, a running one closes its
    /// connection. It finishes with `WickError.explicitlyCancelled` unless it had finished.
    @discardableResult
    public func cancel() -> Self {
        let action = mutableState.withLock { $0.lifecycle.cancelRequested() }
        if case .none = action { return self }
        session.eventMonitor.requestDidCancel(self)
        perform(action, error: .explicitlyCancelled)
        return self
    }

    /// Ends the request with `error` (a stream's failed validation, a download's file error): the
    /// exchange in flight is cancelled, closing its connection, and the request finishes with
    /// `error` rather than `explicitlyCancelled`. Does nothing once the request is finishing.
    func abort(with error: WickError) {
        perform(mutableState.withLock { $0.lifecycle.abortRequested(error) }, error: error)
    }

    /// Carries out a stop: cancels the exchange in flight (its completion finishes the request)
    /// or finishes now with `error`.
    private func perform(_ action: RequestStateMachine.StopAction, error: WickError) {
        switch action {
        case .cancelExchange(let cancellation):
            // The transport completes the exchange with `cancelled`, which finishes the request.
            cancellation.cancel()
        case .finishNow:
            finish(Outcome(request: request, error: error))
        case .stoppedWhileFinishing, .none:
            break
        }
    }

    /// Tells the exchange in flight that the body sink takes bytes again (see
    /// `TransportBodySink`); does nothing between exchanges.
    func demandMoreBody() {
        mutableState.withLock { $0.lifecycle.inFlightCancellation }?.demandMore()
    }

    /// Answers `401` challenges (Basic, and Digest per RFC 7616) with this user and password:
    /// the challenged request is sent once more with an `Authorization` field. The credential
    /// is sent only in answer to a challenge, never preemptively.
    @discardableResult
    public func authenticate(username: String, password: String) -> Self {
        authenticate(with: HTTPCredential(user: username, password: password))
    }

    /// Answers `401` challenges with `credential` (see `authenticate(username:password:)`).
    @discardableResult
    public func authenticate(with credential: HTTPCredential) -> Self {
        mutableState.withLock { $0.records.credential = credential }
        return self
    }

    /// Decides this request's redirects instead of `Session.redirectHandler`.
    @discardableResult
    public func redirect(using handler: any RedirectHandler) -> Self {
        mutableState.withLock { $0.records.redirectHandler = handler }
        return self
    }

    /// Decides what this request's responses put into the session's response cache, instead of
    /// `Session.cachedResponseHandler` (Alamofire's `cacheResponse(using:)`): e.g.
    /// `ResponseCacher.doNotCache`, or `.modify` to change what is stored.
    @discardableResult
    public func cacheResponse(using handler: any CachedResponseHandler) -> Self {
        mutableState.withLock { $0.records.cachedResponseHandler = handler }
        return self
    }

    /// The request's own `CachedResponseHandler`; nil uses the session's.
    var cachedResponseHandler: (any CachedResponseHandler)? {
        mutableState.withLock { $0.records.cachedResponseHandler }
    }

    /// Calls `handler` on `queue` (nil: `session.responseQueue`) with every request about to be
    /// sent, after adaptation: once per attempt and per redirect hop.
    @discardableResult
    public func onURLRequestCreation(
        on queue: DispatchQueue? = nil, perform handler: @escaping @Sendable (HTTPRequest) -> Void
    ) -> Self {
        mutableState.withLock { $0.records.onRequestCreation.append((queue ?? session.responseQueue, handler)) }
        return self
    }

    // MARK: - Running

    /// Calls `body` with the outcome once known (at once, on this thread, if it is), and
    /// starts the request if the session starts requests immediately and it was neither
    /// started nor suspended (an explicit `suspend()` is never undone by adding a handler).
    func whenFinished(_ body: @escaping @Sendable (Outcome) -> Void) {
        addWaiter(.closure(body))
    }

    /// Calls `body` with the outcome once known (at once if it is), never starting the request:
    /// for what ends with it (the progress and head sequences).
    func onFinish(_ body: @escaping @Sendable (Outcome) -> Void) {
        if case .deliver(let outcome) = mutableState.withLock({ $0.lifecycle.waiterAdded(.closure(body)) }) {
            body(outcome)
        }
    }

    /// Whether adding a handler starts the request (`shouldAutomaticallyResume`, else the
    /// session's `startRequestsImmediately`).
    private var startsAutomatically: Bool { shouldAutomaticallyResume ?? session.startRequestsImmediately }

    /// Starts (or continues) the request if it starts on its own, as adding a handler does:
    /// for the tasks and sequences, which start it when made, before they are awaited.
    func resumeIfAutomatic() {
        if startsAutomatically { resume() }
    }

    /// Adds a waiter for the outcome (see `whenFinished`).
    private func addWaiter(_ waiter: RequestStateMachine.Waiter) {
        switch mutableState.withLock({ $0.lifecycle.waiterAdded(waiter) }) {
        case .deliver(let outcome):
            waiter.deliver(outcome)
        case .wait(let mayStart):
            if mayStart, startsAutomatically { resume() }
        }
    }

    /// The body source for one send of `request` (a fresh one each time: a retry, a redirect
    /// hop); nil sends `request.body`. `UploadRequest` overrides it.
    func makeBodySource(for request: HTTPRequest) -> Result<(any TransportBodySource)?, WickError> {
        .success(nil)
    }

    /// The outcome, awaited; cancelling the awaiting task cancels the request when
    /// `cancellingWithTask` is set (the `serializing...()` tasks' `automaticallyCancelling`).
    /// The task waits as itself (an unsafe continuation the lifecycle resumes exactly once, rule
    /// 4), so awaiting costs no allocation.
    @usableFromInline func awaitOutcome(cancellingWithTask: Bool) async -> Outcome {
        // A response due within microseconds is taken on this thread (see `inlineResponseWait`).
        var probe: InlineWaitProbe?
        if let budget = session.configuration.inlineResponseWait,
            let exchange = mutableState.withLock({ $0.lifecycle.inFlightCancellation })
        {
            switch exchange.waitInline(for: budget) {
            case .skipped: break
            case .probing(let started): probe = started
            case .waited:
                // The response taken on this thread has usually finished the request: its
                // outcome is read as it is, with no continuation to make, resume and await.
                if let outcome = mutableState.withLock({ $0.lifecycle.announcedOutcome }) { return outcome }
            }
        }
        defer { probe?.end() }
        let outcome: Outcome
        if cancellingWithTask {
            outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome, Never>) in
                    addWaiter(.task(continuation))
                }
            } onCancel: {
                cancel()
            }
        } else {
            // No handler to install when cancelling the task leaves the request alone (the
            // default): installing and removing one took the task's status lock twice a request.
            outcome = await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome, Never>) in
                addWaiter(.task(continuation))
            }
        }
        #if WICK_TSAN
            // For ThreadSanitizer only: when the loop resumes the continuation before the task has
            // suspended, the concurrency runtime hands the outcome over through its own atomics,
            // which TSan (the runtime is not instrumented) cannot see, and it reports the outcome's
            // fields as racing. The loop recorded the outcome under this lock before resuming, so
            // taking it once here shows TSan the order that the runtime already guarantees.
            mutableState.withLock { _ in }
        #endif
        return outcome
    }

    /// Adds a validation, run on every response before the request finishes.
    func appendValidation(_ validation: @escaping StoredValidation) {
        mutableState.withLock { $0.records.validators.append(validation) }
    }

    /// Starts the run, or finishes at once when the request could not be built.
    private func start() {
        if session.eventMonitor.handles(.didResume) { session.eventMonitor.requestDidResume(self) }
        let timeout: Duration?
        switch initialRequest {
        case .failure(let error): return finish(Outcome(request: nil, error: error))
        case .success(let request):
            timeout = request.timeout ?? defaultTimeout
            session.configuration.retryBudget?.recordRequest(host: request.url.host())
        }
        run(.startAttempt(AttemptProgress(deadline: timeout.map { .now() + $0 } ?? .distantFuture)))
    }

    /// The total deadline of a request that sets none itself: the session's `requestTimeout`
    /// (streams and downloads override it).
    var defaultTimeout: Duration? { session.configuration.requestTimeout }

    /// Tells the monitors and `onURLRequestCreation` handlers about a request about to be sent.
    func announceSend(_ request: HTTPRequest) {
        if session.eventMonitor.handles(.willSend) { session.eventMonitor.request(self, willSend: request) }
        let (handlers, logger) = mutableState.withLock { ($0.records.onRequestCreation, $0.records.logger) }
        effectiveLogger(logger)?.trace("sending request", metadata: RequestLogMetadata.request(id: id, request))
        for (queue, handler) in handlers { queue.async { handler(request) } }
    }

    /// Records the last attempt: its response head and error.
    func attemptEnded(_ outcome: Outcome) {
        mutableState.withLock { state in
            state.records.lastAttempt = outcome
            state.records.error = outcome.error
        }
    }

    /// Counts a retry of the attempt that failed with `error`, to start after `delay` (kept:
    /// a decorrelated backoff grows from it), and logs it.
    func countRetry(after error: WickError, delay: Duration) {
        let (retries, logger) = mutableState.withLock { state in
            state.records.retryCount += 1
            state.records.lastRetryDelay = delay
            return (state.records.retryCount, state.records.logger)
        }
        effectiveLogger(logger)?.debug(
            "retrying request",
            metadata: {
                var metadata = request.map { RequestLogMetadata.request(id: id, $0) } ?? [:]
                metadata["http.request.resend_count"] = .stringConvertible(retries)
                metadata["wick.retry.delay_ms"] = .string(RequestLogMetadata.milliseconds(delay))
                metadata["error.type"] = .string(error.typeName)
                return metadata
            }())
    }

    /// Counts a redirect about to be followed.
    func countRedirect() {
        mutableState.withLock { $0.records.redirectCount += 1 }
    }

    /// The delay before the last retry, nil before the first.
    var lastRetryDelay: Duration? { mutableState.withLock { $0.records.lastRetryDelay } }

    /// Whether `cancel()` or `abort(with:)` stopped the run.
    var isStopped: Bool { mutableState.withLock { $0.lifecycle.isStopped } }

    /// The stored validations, read once per response.
    var validators: [StoredValidation] { mutableState.withLock { $0.records.validators } }

    /// Ends the request with `outcome`: the first call wins, a stop's error replaces the
    /// outcome's, and the subclass completes it (`completeOutcome`) before it is recorded.
    func finish(_ outcome: Outcome) {
        guard let stopped = mutableState.withLock({ $0.lifecycle.finishRequested(outcome) }) else { return }
        completeOutcome(stopped) { [self] completed in record(completed) }
    }

    /// Finishes a subclass's own work before the outcome is known (a download closes and moves
    /// its file) and then calls `record` once, on any thread. The default records at once.
    func completeOutcome(_ outcome: Outcome, then record: @escaping @Sendable (Outcome) -> Void) {
        record(outcome)
    }

    /// Records the outcome (a stop during finishing still replaces its error), tells the
    /// monitors, and hands it to every waiter: those that came before, then those that came while
    /// the monitors were told (rule 5 of `RequestStateMachine`).
    private func record(_ outcome: Outcome) {
        // The logger and the counts it logs are read again only when something logs: a tuple
        // holding a `Logger?` was too large for the compiler to release directly, and went
        // through its value witnesses on every request.
        let recorded = mutableState.withLock { state -> (Outcome, RequestStateMachine.Waiters, hasLogger: Bool)? in
            guard let recorded = state.lifecycle.outcomeCompleted(outcome) else { return nil }
            state.records.error = recorded.0.error
            return (recorded.0, recorded.1, state.records.logger != nil)
        }
        guard let (final, waiters, hasLogger) = recorded else { return }
        session.unregister(self)
        if hasLogger || session.requestLogger != nil {
            let (logger, retries, redirects) = mutableState.withLock {
                ($0.records.logger, $0.records.retryCount, $0.records.redirectCount)
            }
            effectiveLogger(logger)?.debug(
                final.error == nil ? "request finished" : "request failed",
                metadata: RequestLogMetadata.finished(
                    id: id, request: final.request, metrics: final.metrics, error: final.error, retries: retries,
                    redirects: redirects))
        }
        if session.eventMonitor.handles(.didFinish) { session.eventMonitor.requestDidFinish(self) }
        waiters.deliver(final)
        let late = mutableState.withLock { $0.lifecycle.outcomeAnnounced() }
        late.deliver(final)
    }
}

extension Request: Hashable {
    /// Requests are equal when they are the same request (the same `id`).
    public static func == (lhs: Request, rhs: Request) -> Bool { lhs.serial == rhs.serial }

    /// Hashes what the identifier is made from.
    public func hash(into hasher: inout Hasher) { hasher.combine(serial) }
}

extension Request: CustomStringConvertible {
    /// `GET https://example.com/path (200)`, or the method and URL alone before a response.
    public var description: String {
        guard let request else { return "(no request: \(error.map { "\($0)" } ?? "not built"))" }
        let head = "\(request.method.rawValue) \(request.url.absoluteString)"
        return response.map { "\(head) (\($0.statusCode))" } ?? head
    }
}

#if WICK_TSAN
    /// The lock of a request's state. Under ThreadSanitizer (`Scripts/tsan` builds with
    /// `-DWICK_TSAN`) it is the pthread-based `Locked`, whose synchronisation TSan sees; otherwise
    /// `Synchronization.Mutex`, which lives inline and costs the request no allocation.
    typealias RequestStateLock<Value: Sendable> = Locked<Value>
#else
    /// The lock of a request's state: `Synchronization.Mutex`, inline, no allocation (under
    /// ThreadSanitizer, `Locked`; see the other branch).
    typealias RequestStateLock<Value: Sendable> = Mutex<Value>
#endif
