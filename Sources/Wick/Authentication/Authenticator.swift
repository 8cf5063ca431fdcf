// What an AuthenticationInterceptor delegates: applying, refreshing and judging a credential.
/// Applies a credential to requests, refreshes it, and tells authentication failures apart
/// (Alamofire's `Authenticator`); an `AuthenticationInterceptor` does the queueing around it.
public protocol Authenticator: AnyObject, Sendable {
    /// The credential this authenticator works with.
    associatedtype Credential: AuthenticationCredential

    /// Puts `credential` on `request`, e.g. `Authorization: Bearer <token>`.
    func apply(_ credential: Credential, to request: inout HTTPRequest)

    /// Refreshes `credential`, calling `completion` exactly once, on any thread, with the new
    /// credential or the error that fails every request waiting for it. The interceptor
    /// calls this for one refresh at a time and holds no lock while it runs, so it may
    /// complete synchronously; it may use `session` to make the refresh request.
    func refresh(
        _ credential: Credential, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void)

    /// Whether `request` failed because its credential was refused (typically a 401 from the
    /// authentication server rather than from a downstream service). Return false when the
    /// server cannot invalidate credentials. A request only reaches this through a failed
    /// attempt, so a 401 must fail validation (`validate`) to be seen.
    func didRequest(
        _ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: any Error
    ) -> Bool

    /// Whether `request` was authenticated with `credential` (its bearer token is the
    /// credential's, say). False means the credential was refreshed while the request was in
    /// flight, so the request is retried with the new one without another refresh.
    func isRequest(_ request: HTTPRequest, authenticatedWith credential: Credential) -> Bool
}
