// A request's run: adapt, send (following redirects and answering challenges), validate, retry.
import Dispatch
import WickCore

extension Request {
    /// Attempts until an outcome is known. Every attempt starts from the request as created,
    /// runs the adapters, sends it (with its redirects and a challenge answer), runs the
    /// validations, and on failure asks the retriers. All of it shares one `deadline`
    /// (`Session.Configuration.requestTimeout`), retry delays included.
    func run(deadline: Deadline) async -> Outcome {
        guard case .success(let initial) = initialRequest else {
            preconditionFailure("Request.run: started without a request")
        }
        var transactions: [TransactionMetrics] = []
        while true {
            await waitWhileSuspended()
            if Task.isCancelled { return Outcome(request: request, error: .explicitlyCancelled) }
            let attempt: Attempt
            switch await adapt(initial) {
            case .success(let adapted):
                attempt = await send(adapted, deadline: deadline, transactions: &transactions)
            case .failure(let error):
                attempt = Attempt(request: initial, response: nil, error: error)
            }
            let metrics = transactions.isEmpty ? nil : RequestMetrics(transactions: transactions)
            let head = attempt.response.map(HTTPResponse.init)
            attemptEnded(response: head, error: attempt.error)
            guard let error = attempt.error else {
                return Outcome(request: attempt.request, response: attempt.response, metrics: metrics)
            }
            let failed = Outcome(request: attempt.request, response: attempt.response, error: error, metrics: metrics)
            if Task.isCancelled { return failed }
            let decision = await retryDecision(dueTo: error)
            session.eventMonitor.request(self, didDecideRetry: decision, dueTo: error)
            switch decision {
            case .doNotRetry:
                return failed
            case .doNotRetryWithError(let retryError):
                var refused = failed
                refused.error = .requestRetryFailed(retryError: retryError, originalError: error)
                return refused
            case .retry, .retryWithDelay:
                if let delay = decision.delay {
                    guard Deadline.now() + delay < deadline else { return failed }
                    do { try await Task.sleep(for: delay) } catch { return failed }
                }
                countRetry()
                session.eventMonitor.requestIsRetrying(self)
            }
        }
    }

    /// One attempt's end: the last request sent, the final response if one arrived, and the
    /// error that fails the attempt (transport, redirect, or validation; the response is kept
    /// when validation failed).
    struct Attempt {
        var request: HTTPRequest
        var response: TransportResponse?
        var error: WickError?
    }

    /// The request after the session's adapters, then the request's own.
    private func adapt(_ initial: HTTPRequest) async -> Result<HTTPRequest, WickError> {
        let adapters: [any RequestAdapter] = [session.interceptor, interceptor].compactMap { $0 }
        guard !adapters.isEmpty else { return .success(initial) }
        let composite = Interceptor(adapters: adapters)
        let result = await withCheckedContinuation { continuation in
            composite.adapt(initial, for: session) { continuation.resume(returning: $0) }
        }
        switch result {
        case .success(let adapted):
            session.eventMonitor.request(self, didAdaptInitialRequest: initial, to: adapted)
            return .success(adapted)
        case .failure(let error):
            let wrapped = (error as? WickError) ?? .requestAdaptationFailed(error: error)
            session.eventMonitor.request(self, didFailToAdaptRequest: initial, withError: wrapped)
            return .failure(wrapped)
        }
    }

    /// The retriers' decision: the request's own first, then the session's.
    private func retryDecision(dueTo error: WickError) async -> RetryResult {
        let retriers: [any RequestRetrier] = [interceptor, session.interceptor].compactMap { $0 }
        guard !retriers.isEmpty else { return .doNotRetry }
        let composite = Interceptor(retriers: retriers)
        return await withCheckedContinuation { continuation in
            composite.retry(self, for: session, dueTo: error) { continuation.resume(returning: $0) }
        }
    }

    /// Sends `request`, follows its redirects (up to `Session.Configuration.maximumRedirects`,
    /// each decided by the redirect handler), answers one `401` challenge when a credential is
    /// set, and runs the validations on the final response.
    private func send(
        _ first: HTTPRequest, deadline: Deadline, transactions: inout [TransactionMetrics]
    ) async -> Attempt {
        let settings = attemptSettings
        var current = first
        var redirects = 0
        var answeredChallenge = false
        while true {
            willSend(current)
            session.eventMonitor.request(self, willSend: current)
            let response: TransportResponse
            switch await session.perform(current, deadline: deadline) {
            case .failure(let error): return Attempt(request: current, response: nil, error: error)
            case .success(let received): response = received
            }
            transactions.append(TransactionMetrics(request: current, response: response))
            let head = HTTPResponse(response)
            session.eventMonitor.request(self, didReceiveResponse: head, bodyByteCount: response.body.count)
            session.eventMonitor.request(self, didGatherMetrics: RequestMetrics(transactions: transactions))

            if head.statusCode == 401, !answeredChallenge, let credential = settings.credential,
                let authorization = HTTPChallengeResponder.authorization(
                    answering: head, to: current, with: credential)
            {
                answeredChallenge = true
                current.headers.update(authorization)
                continue
            }
            let configuration = session.configuration
            switch RedirectRules.nextRequest(
                after: current, response: head, allowsInsecureRedirects: configuration.allowsInsecureRedirects)
            {
            case .notARedirect:
                return Attempt(request: current, response: response, error: validate(current, response))
            case .refused(let failure):
                return Attempt(request: current, response: response, error: .sessionTaskFailed(error: failure))
            case .follow(let next):
                redirects += 1
                guard redirects <= configuration.maximumRedirects else {
                    return Attempt(
                        request: current, response: response,
                        error: .sessionTaskFailed(error: .tooManyRedirects(limit: configuration.maximumRedirects)))
                }
                let decided = await withCheckedContinuation { continuation in
                    settings.redirects.request(self, willBeRedirectedTo: next, for: head) {
                        continuation.resume(returning: $0)
                    }
                }
                guard let decided else {
                    return Attempt(request: current, response: response, error: validate(current, response))
                }
                session.eventMonitor.request(self, willRedirectTo: decided, for: head)
                await waitWhileSuspended()
                if Task.isCancelled { return Attempt(request: current, response: nil, error: .explicitlyCancelled) }
                current = decided
            }
        }
    }

    /// The first failing validation's error, or nil.
    private func validate(_ request: HTTPRequest, _ response: TransportResponse) -> WickError? {
        let validators = attemptSettings.validators
        guard !validators.isEmpty else { return nil }
        let head = HTTPResponse(response)
        for validator in validators {
            let result = validator(request, response)
            session.eventMonitor.request(self, didValidateRequest: request, response: head, withResult: result)
            if case .failure(let error) = result { return error }
        }
        return nil
    }
}
