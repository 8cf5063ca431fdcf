// A request's run: adapt, send (following redirects and answering challenges), validate, retry.
import Dispatch
import Logging
import WickCore

/// What an attempt carries from step to step: the request's shared deadline, the metrics of
/// every exchange so far, and the redirect and challenge bookkeeping of the current attempt.
struct AttemptProgress: Sendable {
    /// One budget for the whole request: every attempt, hop and retry delay.
    let deadline: Deadline
    /// The metrics of the exchanges so far; nil before the first. Kept as the request's
    /// `RequestMetrics` (one reference) rather than a list the metrics were built from at each
    /// end: a transaction is moved into its box once, not copied through a list, an optional
    /// and the box (seven copies of 144 bytes a request, each retaining what it holds).
    private(set) var metrics: RequestMetrics?
    var redirects = 0
    /// Challenge answers sent in this attempt: one, plus one more after a stale Digest nonce.
    var challengeAnswers = 0
    /// The stored response the exchange in flight validates (a conditional request the
    /// session's cache made); nil for every other exchange.
    var validation: CacheValidation?

    /// A first attempt's progress, or a retry's, which carries the metrics of the attempts
    /// before it.
    init(deadline: Deadline, metrics: RequestMetrics? = nil) {
        self.deadline = deadline
        self.metrics = metrics
    }

    /// Adds the metrics of an exchange that ended.
    mutating func record(_ transaction: consuming TransactionMetrics) {
        metrics = RequestMetrics(appending: transaction, to: metrics)
    }
}

/// A step of the run that `suspend()` can hold until `resume()`.
enum HeldStep: Sendable {
    /// Adapt and send the request as created (a first attempt or a retry).
    case startAttempt(AttemptProgress)
    /// Send this request (a redirect hop or a challenge answer).
    case send(HTTPRequest, AttemptProgress)
}

extension Request {
    /// Runs `step` unless the request is suspended (then `resume()` runs it), stopped (then it
    /// finishes) or already over.
    ///
    /// The run is a chain of callbacks, not a Swift task: the caller's thread starts the first
    /// attempt and hands it to the connection pool's loop, which completes it; the default path
    /// (no adapter, retrier, validation or redirect handler of the user's) then finishes on the
    /// loop, so a request costs one hop to the loop and one back to its awaiting task or handler
    /// queue. Code of the user's runs on the session's queues, never on a loop: adapters on
    /// `Session.requestQueue` (the root queue by default), validations, retriers and redirect
    /// handlers on `Session.rootQueue`; adapters that all declare `adaptsWithoutBlocking` (a
    /// tracing span's context injected, say) run where the attempt starts instead.
    func run(_ step: consuming HeldStep) {
        switch mutableState.withLock({ $0.lifecycle.stepReady(step) }) {
        case .proceed:
            // Consumed: the step's progress moves on instead of being copied.
            switch consume step {
            case .startAttempt(let progress): startAttempt(progress)
            case .send(let request, let progress): send(request, progress)
            }
        case .finishNow:
            // A stop cancelled the exchange before this step, but the exchange completed with a
            // response first: the run ends here. The stop's error replaces this one.
            let progress =
                switch step {
                case .startAttempt(let progress), .send(_, let progress): progress
                }
            finish(Outcome(request: request, error: .explicitlyCancelled, metrics: progress.metrics))
        case .held, .drop:
            break
        }
    }

    /// Adapts the request as created, then sends it.
    private func startAttempt(_ progress: consuming AttemptProgress) {
        guard case .success(let initial) = initialRequest else {
            preconditionFailure("Request.startAttempt: started without a request")
        }
        // Asked first: an attempt without adapters, the common case, then builds no existential
        // optional to test and destroy (through `Optional`'s generic value witnesses).
        guard hasAttemptAdapter, let adapter = attemptAdapter else { return send(initial, progress) }
        // Adapters that complete at once without blocking run here; the others on the request
        // queue (the root queue unless the session was given another).
        if adapter.adaptsWithoutBlocking { return adapt(initial, with: adapter, progress) }
        session.requestQueue.async { [self, progress] in adapt(initial, with: adapter, progress) }
    }

    /// The adapters of an attempt as one, nil when there is none: the request's adapter first,
    /// then the session's, Alamofire's order (its `Session.adapter(for:)`) and the same as the
    /// retriers'; Wick's own adapter comes last. A single adapter runs as it is, without an
    /// `Interceptor`'s list and a closure per step.
    private var attemptAdapter: (any RequestAdapter)? {
        switch (hasOwnInterceptor, session.hasInterceptor, hasFinalAdapter) {
        case (false, false, false): return nil
        case (false, false, true): return finalAdapter
        case (true, false, false): return interceptor
        case (false, true, false): return session.interceptor
        default: return Interceptor(adapters: [interceptor, session.interceptor, finalAdapter].compactMap { $0 })
        }
    }

    /// Whether an attempt has any adapter: from the flags set at creation, without reading an
    /// existential optional (each read copied and destroyed one through generic value witnesses).
    var hasAttemptAdapter: Bool { hasOwnInterceptor || session.hasInterceptor || hasFinalAdapter }

    /// Runs `adapter` on `initial`, then sends the adapted request (or ends the attempt).
    private func adapt(_ initial: HTTPRequest, with adapter: any RequestAdapter, _ progress: AttemptProgress) {
        adapter.adapt(initial, using: RequestAdapterState(requestID: id, session: session)) { [self] result in
            switch result {
            case .success(let adapted):
                session.eventMonitor.request(self, didAdaptInitialRequest: initial, to: adapted)
                // An adapter may produce any URL: checked here, where it is made, not per send.
                var adapted = adapted
                if let invalid = Session.validate(&adapted) {
                    return attemptEnded(Outcome(request: adapted, error: invalid, metrics: progress.metrics), progress)
                }
                send(adapted, progress)
            case .failure(let error):
                let wrapped = (error as? WickError) ?? .requestAdaptationFailed(error: error)
                session.eventMonitor.request(self, didFailToAdaptRequest: initial, withError: wrapped)
                attemptEnded(Outcome(request: initial, error: wrapped, metrics: progress.metrics), progress)
            }
        }
    }

    /// Sends `request` on the transport (as https when the HSTS store knows its host);
    /// `exchangeCompleted` continues on the pool's loop. When the session's cache can answer
    /// (`CacheDecision`), nothing is sent and the response goes on at once; when it validates, the
    /// request carries the conditional fields.
    private func send(_ request: HTTPRequest, _ progress: consuming AttemptProgress) {
        let request = session.upgradedForHSTS(request)
        // Cleared only when set: assigning nil destroyed the old value through `Optional`'s
        // generic value witnesses on every send.
        if progress.validation != nil { progress.validation = nil }
        if session.configuration.responseCache != nil, exchangeSink == nil,
            let decision = session.cacheDecision(for: session.withSessionHeaders(request))
        {
            switch decision {
            case .network:
                break
            case .useStored(let stored, let age):
                return servedFromCache(
                    Session.responseFromCache(stored, age: age, to: request.method), from: .cache, to: request,
                    progress)
            case .useStaleWhileRevalidating(let stored, let age, let fields):
                session.revalidateInBackground(
                    stored, conditionalFields: fields, request: request, progress.deadline, for: self)
                return servedFromCache(
                    Session.responseFromCache(stored, age: age, to: request.method), from: .staleWhileRevalidating,
                    to: request, progress)
            case .gatewayTimeout:
                return servedFromCache(Session.gatewayTimeoutFromCache(), from: .cache, to: request, progress)
            case .validate(let stored, let fields):
                progress.validation = CacheValidation(stored: stored, conditionalFields: fields)
            }
        }
        let source: (any TransportBodySource)?
        switch makeBodySource(for: request) {
        case .success(let made): source = made
        case .failure(let error):
            return attemptEnded(Outcome(request: request, error: error, metrics: progress.metrics), progress)
        }
        let transport: Session.PreparedSend
        switch session.prepareSend(
            request, bodySource: source, conditionalFields: progress.validation?.conditionalFields)
        {
        case .success(let prepared): transport = prepared
        case .failure(let error):
            return attemptEnded(Outcome(request: request, error: error, metrics: progress.metrics), progress)
        }
        let deadline = progress.deadline
        // Taken inside the lock, so the exchange (progress and all) moves into the machine
        // instead of being copied there and destroyed here.
        var inFlight = Optional(
            RequestStateMachine.InFlight(cancellation: transport.cancellation, request: request, progress: progress))
        let started = mutableState.withLock { state -> Bool in
            guard let starting = inFlight.take(), state.lifecycle.exchangeStarting(starting) else { return false }
            state.records.sent.append(request)
            return true
        }
        // A stop that came first has finished the request already (nothing was in flight).
        guard started else { return }
        announceSend(request)
        transport.start(deadline: deadline, sink: exchangeSink, leaseObserver: leaseObserver()) {
            [self] result in
            exchangeCompleted(result)
        }
    }

    /// What tells the event monitors, live, that the exchange got its connection (and how a new
    /// TLS connection's server was trusted); nil when no monitor handles either event, so such
    /// a request carries no closure.
    private func leaseObserver() -> TransportExchange.LeaseObserver? {
        guard !session.eventMonitor.handledEvents.isDisjoint(with: [.didAcquireConnection, .didEvaluateServerTrust])
        else {
            return nil
        }
        return { [self] isReused, details in
            if !isReused, let trust = details.serverTrust {
                session.eventMonitor.request(self, didEvaluateServerTrust: ServerTrustEvaluation(trust))
            }
            session.eventMonitor.request(
                self, didAcquireConnection: ConnectionInfo(isReused: isReused, details: details))
        }
    }

    /// Handles one exchange's end, as its response's verdict says: a challenge answer, a
    /// redirect, or the attempt's end.
    private func exchangeCompleted(_ result: consuming Result<TransportResponse, TransportError>) {
        let (ended, logger) = mutableState.withLock { ($0.lifecycle.exchangeEnded(), $0.records.logger) }
        let request = ended.request
        let faults = ended.cancellation.injectedFaults
        if !faults.isEmpty {
            for fault in faults { session.eventMonitor.request(self, didInjectFault: fault) }
        }
        switch consume result {
        case .success(let received):
            session.storeCookies(from: received.headers, for: request)
            session.recordHSTS(from: received, for: request)
            guard session.configuration.responseCache != nil else {
                return responseArrived(
                    consume received, from: .network, to: request, ended.progress, verdict: ended.verdict,
                    logger: logger)
            }
            // The cache matches `Vary` against the fields sent, the session's included.
            let (response, source) = session.cacheAfterExchange(
                received, to: session.withSessionHeaders(request), validation: ended.progress.validation, by: self)
            responseArrived(response, from: source, to: request, ended.progress, verdict: ended.verdict, logger: logger)
        case .failure(let error):
            // RFC 5861 §4: a stale response the server allowed for errors answers instead
            // (not for a cancellation, which is no error of the server's).
            if !error.isCancellation,
                let stale = session.staleResponseOnError(
                    validating: ended.progress.validation, request: session.withSessionHeaders(request))
            {
                return responseArrived(stale, from: .cache, to: request, ended.progress, verdict: nil, logger: logger)
            }
            let failure = WickError(error)
            if case .serverTrustEvaluationFailed(let refusal) = failure {
                session.eventMonitor.request(self, didEvaluateServerTrust: ServerTrustEvaluation(refusal))
            }
            effectiveLogger(logger)?.trace(
                "exchange failed",
                metadata: {
                    var metadata = RequestLogMetadata.request(id: id, request)
                    metadata["error.type"] = .string(failure.typeName)
                    metadata["error.message"] = .string(failure.description)
                    return metadata
                }())
            attemptEnded(Outcome(request: request, error: failure, metrics: ended.progress.metrics), ended.progress)
        }
    }

    /// Goes on with a response the session's cache gave for `request` without sending it.
    private func servedFromCache(
        _ response: TransportResponse, from source: ResponseSource, to request: HTTPRequest, _ progress: AttemptProgress
    ) {
        let logger = mutableState.withLock { state in
            state.records.sent.append(request)
            return state.records.logger
        }
        responseArrived(response, from: source, to: request, progress, verdict: nil, logger: logger)
    }

    /// Handles the response to `request` as its verdict says (`verdict`, when the body sink
    /// asked at the head; else decided now): a challenge answer, a redirect, or the attempt's end.
    private func responseArrived(
        _ response: consuming TransportResponse, from source: ResponseSource, to request: HTTPRequest,
        _ progress: consuming AttemptProgress,
        verdict headVerdict: ResponseVerdict?, logger: Logger?
    ) {
        if progress.validation != nil { progress.validation = nil }
        progress.record(TransactionMetrics(request: request, response: response, source: source))
        if let logger = effectiveLogger(logger), let transaction = progress.metrics?.last {
            logger.trace("exchange completed", metadata: RequestLogMetadata.exchange(id: id, transaction))
        }
        let monitor = session.eventMonitor
        let events = monitor.handledEvents
        // A response that cannot be followed (no redirect, no challenge), the common case, is
        // final: unless a monitor asks for the head, it ends the attempt without one being built.
        if !ResponseVerdict.mayFollow(response.status)
            && events.isDisjoint(with: [.didReceiveCachedResponse, .didReceiveResponse])
        {
            if events.contains(.didGatherMetrics), let metrics = progress.metrics {
                monitor.request(self, didGatherMetrics: metrics)
            }
            return validateThenEnd(
                Outcome(request: request, response: consume response, metrics: progress.metrics), progress)
        }
        let head = HTTPResponse(response, url: request.url)
        if source != .network && events.contains(.didReceiveCachedResponse) {
            monitor.request(self, didReceiveCachedResponse: head, source: source)
        }
        if events.contains(.didReceiveResponse) {
            monitor.request(self, didReceiveResponse: head, bodyByteCount: response.body.count)
        }
        if events.contains(.didGatherMetrics), let metrics = progress.metrics {
            monitor.request(self, didGatherMetrics: metrics)
        }
        switch headVerdict ?? verdict(on: head, to: request, progress) {
        case .final:
            validateThenEnd(Outcome(request: request, response: consume response, metrics: progress.metrics), progress)
        case .answerChallenge(let answer):
            progress.challengeAnswers += 1
            run(.send(answer, progress))
        case .refused(let failure):
            attemptEnded(
                Outcome(
                    request: request, response: consume response, error: .sessionTaskFailed(error: failure),
                    metrics: progress.metrics), progress)
        case .redirect(let next, asksHandler: false):
            progress.redirects += 1
            countRedirect()
            monitor.request(self, willRedirectTo: next, for: head)
            run(.send(next, progress))
        case .redirect(let next, asksHandler: true):
            progress.redirects += 1
            let handler = mutableState.withLock { $0.records.redirectHandler } ?? session.redirectHandler
            session.rootQueue.async { [self, progress, response] in
                handler.request(self, willBeRedirectedTo: next, for: head) { [self] decided in
                    guard let decided else {
                        return validateThenEnd(
                            Outcome(request: request, response: response, metrics: progress.metrics), progress)
                    }
                    // A handler may change the URL: checked here (`RedirectRules` checked Wick's own).
                    if let invalid = Session.invalidity(of: decided) {
                        return attemptEnded(
                            Outcome(request: decided, error: invalid, metrics: progress.metrics), progress)
                    }
                    countRedirect()
                    monitor.request(self, willRedirectTo: decided, for: head)
                    run(.send(decided, progress))
                }
            }
        }
    }

    /// The verdict on `head`, the response to `request` in the attempt `progress`, with the
    /// request's credential and redirect handler as they are now.
    private func verdict(on head: HTTPResponse, to request: HTTPRequest, _ progress: AttemptProgress) -> ResponseVerdict
    {
        guard ResponseVerdict.mayFollow(head.status) else { return .final }
        let (credential, handler) = mutableState.withLock { ($0.records.credential, $0.records.redirectHandler) }
        return decideVerdict(head, request, progress, credential: credential, handler: handler)
    }

    /// `ResponseVerdict.decide` for `head`, the response to `request` in the attempt
    /// `progress`, with the request's credential and redirect handler (nil: the session's).
    private func decideVerdict(
        _ head: HTTPResponse, _ request: HTTPRequest, _ progress: AttemptProgress, credential: HTTPCredential?,
        handler: (any RedirectHandler)?
    ) -> ResponseVerdict {
        ResponseVerdict.decide(
            request: request, head: head, progress: progress, credential: credential,
            redirects: handler ?? session.redirectHandler, configuration: session.configuration)
    }

    /// Runs the validations (on the root queue, when there are any) and ends the attempt with
    /// the first failure.
    private func validateThenEnd(_ attempt: Outcome, _ progress: AttemptProgress) {
        let validators = validators
        guard !validators.isEmpty, let response = attempt.response else { return attemptEnded(attempt, progress) }
        session.rootQueue.async { [self] in
            var validated = attempt
            let request = attempt.request
            let head = HTTPResponse(response, url: request?.url)
            for validator in validators {
                let result = validator(request, response)
                session.eventMonitor.request(self, didValidateRequest: request, response: head, withResult: result)
                if case .failure(let error) = result {
                    validated.error = error
                    break
                }
            }
            attemptEnded(validated, progress)
        }
    }

    /// Finishes the request with `outcome`, one attempt's end (the last request sent, the final
    /// response if one arrived, the error that fails the attempt: transport, redirect or
    /// validation, the response kept when validation failed), or asks the retriers (on the root
    /// queue) and runs it again.
    private func attemptEnded(_ outcome: Outcome, _ progress: AttemptProgress) {
        let failure = outcome.error
        attemptEnded(outcome)
        guard let error = failure, !isStopped else { return finish(outcome) }
        let retriers: [any RequestRetrier] = [interceptor, session.interceptor].compactMap { $0 }
        guard !retriers.isEmpty else { return finish(outcome) }
        session.rootQueue.async { [self] in
            Interceptor(retriers: retriers).retry(self, for: session, dueTo: error) { [self] decision in
                session.eventMonitor.request(self, didDecideRetry: decision, dueTo: error)
                switch decision {
                case .doNotRetry:
                    finish(outcome)
                case .doNotRetryWithError(let retryError):
                    var refused = outcome
                    refused.error = .requestRetryFailed(retryError: retryError, originalError: error)
                    finish(refused)
                case .retry, .retryWithDelay:
                    let next = AttemptProgress(deadline: progress.deadline, metrics: progress.metrics)
                    let delay = decision.delay ?? .zero
                    guard Deadline.now() + delay < progress.deadline else { return finish(outcome) }
                    if let budget = session.configuration.retryBudget,
                        !budget.withdrawRetry(host: outcome.request?.url.host())
                    {
                        session.eventMonitor.requestRetryWasRefusedByBudget(self)
                        return finish(outcome)
                    }
                    countRetry(after: error, delay: delay)
                    session.eventMonitor.requestIsRetrying(self)
                    if delay == .zero { return run(.startAttempt(next)) }
                    session.rootQueue.asyncAfter(deadline: .now() + delay.timeInterval) { [self, next] in
                        run(.startAttempt(next))
                    }
                }
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch wants it.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Request {
    /// Where the body of a response with this head goes, for a `TransportBodySink`: streamed
    /// when it is the response the request delivers, collected when the run will act on it
    /// (a redirect it follows, a `401` it answers), so that a download or stream only ever gets
    /// the final response's body. The answer is the exchange's verdict (`ResponseVerdict`),
    /// which the run then follows.
    func bodyHandling(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling {
        // Most responses are final whatever the settings: no lock, no verdict to remember.
        guard ResponseVerdict.mayFollow(status) else { return .stream }
        let head = HTTPResponse(status: status, headers: headers, version: .http1_1)
        let verdict = mutableState.withLock { state -> ResponseVerdict? in
            let (credential, handler) = (state.records.credential, state.records.redirectHandler)
            return state.lifecycle.verdict { inFlight in
                decideVerdict(head, inFlight.request, inFlight.progress, credential: credential, handler: handler)
            }
        }
        // No exchange in flight: the run has stopped and the exchange is being cancelled.
        return verdict?.deliversBody == false ? .collect : .stream
    }
}
