// A request's run: adapt, send (following redirects and answering challenges), validate, retry.
import Dispatch
import WickCore

/// What an attempt carries from step to step: the request's shared deadline, the metrics of
/// every exchange so far, and the redirect and challenge bookkeeping of the current attempt.
struct AttemptProgress: Sendable {
    /// One budget for the whole request: every attempt, hop and retry delay.
    let deadline: Deadline
    var transactions: [TransactionMetrics] = []
    var redirects = 0
    /// Challenge answers sent in this attempt: one, plus one more after a stale Digest nonce.
    var challengeAnswers = 0

    init(deadline: Deadline) {
        self.deadline = deadline
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
    /// One attempt's end: the last request sent, the final response if one arrived, and the
    /// error that fails the attempt (transport, redirect, or validation; the response is kept
    /// when validation failed).
    struct Attempt {
        var request: HTTPRequest
        var response: TransportResponse?
        var error: WickError?
    }

    /// Runs `step` unless the request is suspended (then `resume()` runs it) or already over.
    ///
    /// The run is a chain of callbacks, not a Swift task: the caller's thread starts the first
    /// attempt and hands it to the connection pool's loop, which completes it; the default path
    /// (no adapter, retrier, validation or redirect handler of the user's) then finishes on the
    /// loop, so a request costs one hop to the loop and one back to its awaiting task or handler
    /// queue. Code of the user's (adapters, validations, retriers, redirect handlers) runs on
    /// `Session.rootQueue`, never on a loop.
    func run(_ step: HeldStep) {
        let proceed = mutableState.withLock { state -> Bool in
            if state.outcome != nil || state.isCancelRequested { return false }
            if state.state == .suspended {
                state.heldStep = step
                return false
            }
            return true
        }
        guard proceed else { return }
        switch step {
        case .startAttempt(let progress): startAttempt(progress)
        case .send(let request, let progress): send(request, progress)
        }
    }

    /// Adapts the request as created, then sends it.
    private func startAttempt(_ progress: AttemptProgress) {
        guard case .success(let initial) = initialRequest else {
            preconditionFailure("Request.startAttempt: started without a request")
        }
        let adapters: [any RequestAdapter] = [session.interceptor, interceptor].compactMap { $0 }
        guard !adapters.isEmpty else { return send(initial, progress) }
        session.rootQueue.async { [self] in
            Interceptor(adapters: adapters).adapt(initial, for: session) { [self] result in
                switch result {
                case .success(let adapted):
                    session.eventMonitor.request(self, didAdaptInitialRequest: initial, to: adapted)
                    // An adapter may produce any URL: checked here, where it is made, not per send.
                    if let invalid = Session.invalidity(of: adapted) {
                        return attemptEnded(Attempt(request: adapted, response: nil, error: invalid), progress)
                    }
                    send(adapted, progress)
                case .failure(let error):
                    let wrapped = (error as? WickError) ?? .requestAdaptationFailed(error: error)
                    session.eventMonitor.request(self, didFailToAdaptRequest: initial, withError: wrapped)
                    attemptEnded(Attempt(request: initial, response: nil, error: wrapped), progress)
                }
            }
        }
    }

    /// Sends `request` on the transport; `received` continues on the pool's loop.
    private func send(_ request: HTTPRequest, _ progress: AttemptProgress) {
        let source: (any TransportBodySource)?
        switch makeBodySource(for: request) {
        case .success(let made): source = made
        case .failure(let error): return attemptEnded(Attempt(request: request, response: nil, error: error), progress)
        }
        let transport: Session.PreparedSend
        switch session.prepareSend(request, bodySource: source) {
        case .success(let prepared): transport = prepared
        case .failure(let error): return attemptEnded(Attempt(request: request, response: nil, error: error), progress)
        }
        let cancelled = mutableState.withLock { state -> Bool in
            if state.isCancelRequested { return true }
            state.inFlight = transport.cancellation
            state.requests.append(request)
            return false
        }
        guard !cancelled else { return }
        announceSend(request)
        transport.start(deadline: progress.deadline, sink: bodySink, leaseObserver: leaseObserver()) {
            [self] result in
            received(result, for: request, progress)
        }
    }

    /// What tells the event monitors, live, that the exchange got its connection (and how a new
    /// TLS connection's server was trusted); nil when the session has no monitors, so a request
    /// without them carries no closure.
    private func leaseObserver() -> TransportExchange.LeaseObserver? {
        guard !session.eventMonitor.monitors.isEmpty else { return nil }
        return { [self] isReused, details in
            if !isReused, let trust = details.serverTrust {
                session.eventMonitor.request(self, didEvaluateServerTrust: ServerTrustEvaluation(trust))
            }
            session.eventMonitor.request(self, didAcquireConnection: ConnectionInfo(isReused: isReused, details: details))
        }
    }

    /// Handles one exchange's end: a challenge answer, a redirect, or the attempt's end.
    private func received(
        _ result: Result<TransportResponse, TransportError>, for request: HTTPRequest, _ progress: AttemptProgress
    ) {
        mutableState.withLock { $0.inFlight = nil }
        let response: TransportResponse
        switch result {
        case .success(let received): response = received
        case .failure(let error):
            let failure = WickError(error)
            if case .serverTrustEvaluationFailed(let refusal) = failure {
                session.eventMonitor.request(self, didEvaluateServerTrust: ServerTrustEvaluation(refusal))
            }
            return attemptEnded(Attempt(request: request, response: nil, error: failure), progress)
        }
        var progress = progress
        let transaction = TransactionMetrics(request: request, response: response)
        progress.transactions.append(transaction)
        let head = HTTPResponse(response)
        session.eventMonitor.request(self, didReceiveResponse: head, bodyByteCount: response.body.count)
        session.eventMonitor.request(self, didGatherMetrics: RequestMetrics(transactions: progress.transactions))
        let settings = attemptSettings

        if head.statusCode == 401, let credential = settings.credential,
            progress.challengeAnswers == 0 || (progress.challengeAnswers == 1 && HTTPChallengeResponder.isStale(head)),
            let authorization = HTTPChallengeResponder.authorization(answering: head, to: request, with: credential)
        {
            progress.challengeAnswers += 1
            var answer = request
            answer.headers.update(authorization)
            return run(.send(answer, progress))
        }
        let configuration = session.configuration
        switch RedirectRules.nextRequest(
            after: request, response: head, allowsInsecureRedirects: configuration.allowsInsecureRedirects)
        {
        case .notARedirect:
            validateThenEnd(Attempt(request: request, response: response, error: nil), progress, settings.validators)
        case .refused(let failure):
            attemptEnded(Attempt(request: request, response: response, error: .sessionTaskFailed(error: failure)), progress)
        case .follow(let next):
            progress.redirects += 1
            guard progress.redirects <= configuration.maximumRedirects else {
                let failure = SessionTaskFailure.tooManyRedirects(limit: configuration.maximumRedirects)
                return attemptEnded(
                    Attempt(request: request, response: response, error: .sessionTaskFailed(error: failure)), progress)
            }
            if let redirector = settings.redirects as? Redirector, case .follow = redirector.behavior {
                session.eventMonitor.request(self, willRedirectTo: next, for: head)
                return run(.send(next, progress))
            }
            session.rootQueue.async { [self, progress] in
                settings.redirects.request(self, willBeRedirectedTo: next, for: head) { [self] decided in
                    guard let decided else {
                        return validateThenEnd(
                            Attempt(request: request, response: response, error: nil), progress, settings.validators)
                    }
                    // A handler may change the URL: checked here (`RedirectRules` checked Wick's own).
                    if let invalid = Session.invalidity(of: decided) {
                        return attemptEnded(Attempt(request: decided, response: nil, error: invalid), progress)
                    }
                    session.eventMonitor.request(self, willRedirectTo: decided, for: head)
                    run(.send(decided, progress))
                }
            }
        }
    }

    /// Runs the validations (on the root queue, when there are any) and ends the attempt with
    /// the first failure.
    private func validateThenEnd(_ attempt: Attempt, _ progress: AttemptProgress, _ validators: [StoredValidation]) {
        guard !validators.isEmpty, let response = attempt.response else { return attemptEnded(attempt, progress) }
        session.rootQueue.async { [self] in
            var validated = attempt
            let head = HTTPResponse(response)
            for validator in validators {
                let result = validator(attempt.request, response)
                session.eventMonitor.request(
                    self, didValidateRequest: attempt.request, response: head, withResult: result)
                if case .failure(let error) = result {
                    validated.error = error
                    break
                }
            }
            attemptEnded(validated, progress)
        }
    }

    /// Finishes the request, or asks the retriers (on the root queue) and runs it again.
    private func attemptEnded(_ attempt: Attempt, _ progress: AttemptProgress) {
        attemptEnded(response: attempt.response.map(HTTPResponse.init), error: attempt.error)
        let metrics = progress.transactions.isEmpty ? nil : RequestMetrics(transactions: progress.transactions)
        let outcome = Outcome(request: attempt.request, response: attempt.response, error: attempt.error, metrics: metrics)
        guard let error = attempt.error, !isCancelled else { return finish(outcome) }
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
                    var next = AttemptProgress(deadline: progress.deadline)
                    next.transactions = progress.transactions
                    let delay = decision.delay ?? .zero
                    guard Deadline.now() + delay < progress.deadline else { return finish(outcome) }
                    countRetry()
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
    /// Where the body of a response with this head goes, for a `TransportBodySink`: collected
    /// when the run will follow the response (a redirect with a `Location`, unless the request's
    /// redirect handler is `Redirector.doNotFollow`; a `401` while a credential is set), so that
    /// a download or stream only ever gets the final response's body; streamed otherwise.
    func bodyHandling(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling {
        let settings = attemptSettings
        if [301, 302, 303, 307, 308].contains(status.rawValue), headers.contains(name: "Location") {
            if let redirector = settings.redirects as? Redirector, case .doNotFollow = redirector.behavior {
                return .stream
            }
            return .collect
        }
        if status.rawValue == 401, settings.credential != nil, headers.contains(name: "WWW-Authenticate") {
            return .collect
        }
        return .stream
    }
}
