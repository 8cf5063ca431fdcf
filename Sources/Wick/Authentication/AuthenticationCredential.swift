// A credential an AuthenticationInterceptor applies and refreshes: Alamofire's AuthenticationCredential.

/// A credential that authenticates requests (an OAuth2 access token with its refresh token and
/// expiry, for example), used by an `AuthenticationInterceptor` through its `Authenticator`.
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is used: true once it has expired,
    /// and wisely a little before (a token valid for 60 minutes might say true in its last 5).
    /// Read while the interceptor holds its lock: it must not call back into the interceptor.
    var requiresRefresh: Bool { get }
}
