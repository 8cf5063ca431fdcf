// Changing a request before it is sent (adding a token, signing): Alamofire's RequestAdapter.

/// Changes a request before each attempt is sent (Alamofire's `RequestAdapter`): add an
/// `Authorization` field, sign, rewrite the URL. Adapters run on every attempt, retries included,
/// session-level first (`Session(interceptor:)`), then the request's own.
public protocol RequestAdapter: Sendable {
    /// Calls `completion` once with the request to send, or with the error that fails the request
    /// as `WickError.requestAdaptationFailed` (nothing is sent). May complete on any thread and
    /// at any later time.
    func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void)
}
