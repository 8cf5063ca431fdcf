// Applying and refreshing a shared credential, one refresh at a time: Alamofire's AuthenticationInterceptor.
import WickReactor

/// Authenticates requests with one shared credential and refreshes it, one refresh at a time
/// (Alamofire's `AuthenticationInterceptor`); the `Authenticator` does the credential's work.
///
/// Rules:
/// - **Adapt.** With no credential, the request fails with `AuthenticationError.missingCredential`.
///   When a refresh is running, or the credential `requiresRefresh` (which starts one), the
///   request waits in a queue; otherwise the credential is applied at once.
/// - **Refresh.** One at a time. On success the queued requests are adapted with the new
///   credential in the order they arrived, and the requests waiting to retry are retried; on
///   failure all of them fail with the refresh's error.
/// - **Retry.** Only a failed attempt with a response that the authenticator calls an
///   authentication failure is considered. With no credential it fails with
///   `missingCredential`. A request authenticated with an older credential is retried at once
///   (someone refreshed meanwhile); otherwise it waits for a refresh, starting one if none is
///   running, so that many requests failing together cause a single refresh.
/// - **Refresh window.** Before each refresh, if `maximumAttempts` refreshes already started
///   within the last `interval`, the refresh is refused and everything waiting fails with
///   `AuthenticationError.excessiveRefresh`, which ends refresh loops (a server that keeps
///   refusing fresh credentials).
///
/// Completions run on the thread that triggered them (the adapting or retrying request's, or
/// the refresh completion's), never under the interceptor's lock and never on a main queue.
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor {
    /// The credential type.
    public typealias Credential = AuthenticatorType.Credential

    /// A limit on refreshes within a sliding time window (excessive refresh protection).
    public struct RefreshWindow: Sendable, Equatable {
        /// How far back refreshes are counted.
        public var interval: Duration
        /// How many refreshes may start within `interval`; the next one is refused.
        public var maximumAttempts: Int

        /// A window; the defaults are Alamofire's, 5 refreshes in 30 seconds.
        public init(interval: Duration = .seconds(30), maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }

    /// An adaptation waiting for a refresh.
    private struct AdaptOperation {
        let request: HTTPRequest
        let session: Session
        let completion: @Sendable (Result<HTTPRequest, any Error>) -> Void
    }

    /// What to do once the lock is released.
    private enum Followup {
        case nothing
        case refresh(Credential, Session, id: UInt64)
        case fail(any Error, [AdaptOperation], [@Sendable (RetryResult) -> Void])
    }

    /// What `adapt` decided under the lock.
    private enum AdaptStep {
        case apply(Credential)
        case fail(AuthenticationError)
        case deferred(Followup)
    }

    /// What `retry` decided under the lock.
    private enum RetryStep {
        case retryNow
        case wait(Followup)
    }

    private struct MutableState {
        var credential: Credential?
        /// Bumped each time the credential changes, so a retry decision made without the lock
        /// can tell that a refresh finished meanwhile.
        var credentialGeneration: UInt64 = 0
        /// The running refresh's identifier, or nil when none runs.
        var refreshInFlight: UInt64?
        var nextRefreshID: UInt64 = 0
        /// When recent refreshes started, oldest first; only those within the window are kept.
        var refreshStarts: [ContinuousClock.Instant] = []
        var adaptOperations: [AdaptOperation] = []
        var requestsToRetry: [@Sendable (RetryResult) -> Void] = []
    }

    /// The authenticator that applies and refreshes the credential.
    public let authenticator: AuthenticatorType
    /// The refresh limit, or nil for none (not recommended: a server refusing every fresh
    /// credential would then cause endless refreshes).
    public let refreshWindow: RefreshWindow?
    private let state: Locked<MutableState>

    /// An interceptor for `authenticator`, starting with `credential` (nil fails requests with
    /// `missingCredential` until one is set).
    public init(
        authenticator: AuthenticatorType, credential: Credential? = nil, refreshWindow: RefreshWindow? = RefreshWindow()
    ) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        state = Locked(MutableState(credential: credential))
    }

    /// The credential applied to requests; setting it replaces it for every later adaptation.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set {
            state.withLock { state in
                state.credential = newValue
                state.credentialGeneration &+= 1
            }
        }
    }

    // MARK: - Adapt

    /// Applies the credential, or queues the request behind a refresh (see the type's rules).
    public func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        let step: AdaptStep = state.withLock { state in
            let operation = AdaptOperation(request: request, session: session, completion: completion)
            if state.refreshInFlight != nil {
                state.adaptOperations.append(operation)
                return .deferred(.nothing)
            }
            guard let credential = state.credential else { return .fail(.missingCredential) }
            guard !credential.requiresRefresh else {
                state.adaptOperations.append(operation)
                return .deferred(beginRefresh(of: credential, for: session, in: &state))
            }
            return .apply(credential)
        }
        switch step {
        case .apply(let credential):
            var authenticated = request
            authenticator.apply(credential, to: &authenticated)
            completion(.success(authenticated))
        case .fail(let error):
            completion(.failure(error))
        case .deferred(let followup):
            run(followup)
        }
    }

    // MARK: - Retry

    /// Retries authentication failures, refreshing once for all of them (see the type's rules).
    public func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        guard let sent = request.request, let response = request.response else { return completion(.doNotRetry) }
        guard authenticator.didRequest(sent, with: response, failDueToAuthenticationError: error) else {
            return completion(.doNotRetry)
        }
        let (current, generation) = state.withLock { ($0.credential, $0.credentialGeneration) }
        guard let current else { return completion(.doNotRetryWithError(AuthenticationError.missingCredential)) }
        guard authenticator.isRequest(sent, authenticatedWith: current) else { return completion(.retry) }
        let step: RetryStep = state.withLock { state in
            // A refresh that ended while the authenticator was asked left a newer credential.
            guard state.credentialGeneration == generation else { return .retryNow }
            state.requestsToRetry.append(completion)
            guard state.refreshInFlight == nil else { return .wait(.nothing) }
            return .wait(beginRefresh(of: current, for: session, in: &state))
        }
        switch step {
        case .retryNow: completion(.retry)
        case .wait(let followup): run(followup)
        }
    }

    // MARK: - Refresh

    /// Starts a refresh, or refuses it when the window is full (taking everything waiting, to
    /// fail it). Called with the lock held.
    private func beginRefresh(of credential: Credential, for session: Session, in state: inout MutableState) -> Followup
    {
        let now = ContinuousClock.now
        if let refreshWindow {
            state.refreshStarts.removeAll { now - $0 > refreshWindow.interval }
            if state.refreshStarts.count >= refreshWindow.maximumAttempts {
                defer {
                    state.adaptOperations = []
                    state.requestsToRetry = []
                }
                return .fail(AuthenticationError.excessiveRefresh, state.adaptOperations, state.requestsToRetry)
            }
            state.refreshStarts.append(now)
        }
        let id = state.nextRefreshID
        state.nextRefreshID &+= 1
        state.refreshInFlight = id
        return .refresh(credential, session, id: id)
    }

    /// Carries out what was decided under the lock.
    private func run(_ followup: Followup) {
        switch followup {
        case .nothing:
            break
        case .refresh(let credential, let session, let id):
            authenticator.refresh(credential, for: session) { result in self.refreshEnded(id: id, with: result) }
        case .fail(let error, let operations, let retries):
            for operation in operations { operation.completion(.failure(error)) }
            for retry in retries { retry(.doNotRetryWithError(error)) }
        }
    }

    /// Stores the refreshed credential and releases everything that waited for it, in order.
    private func refreshEnded(id: UInt64, with result: Result<Credential, any Error>) {
        let (operations, retries) = state.withLock { state in
            guard state.refreshInFlight == id else {
                preconditionFailure(
                    "AuthenticationInterceptor: refresh \(id) completed twice (in flight: \(String(describing: state.refreshInFlight)))"
                )
            }
            state.refreshInFlight = nil
            if case .success(let refreshed) = result {
                state.credential = refreshed
                state.credentialGeneration &+= 1
            }
            defer {
                state.adaptOperations = []
                state.requestsToRetry = []
            }
            return (state.adaptOperations, state.requestsToRetry)
        }
        switch result {
        case .success:
            for operation in operations {
                adapt(operation.request, for: operation.session, completion: operation.completion)
            }
            for retry in retries { retry(.retry) }
        case .failure(let error):
            for operation in operations { operation.completion(.failure(error)) }
            for retry in retries { retry(.doNotRetryWithError(error)) }
        }
    }
}
