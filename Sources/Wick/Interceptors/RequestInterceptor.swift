// An adapter and a retrier in one: Alamofire's RequestInterceptor, with pass-through defaults.
/// Both a `RequestAdapter` and a `RequestRetrier` (Alamofire's `RequestInterceptor`); each half
/// defaults to doing nothing, so a type implements only what it needs.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Sends the request unchanged.
    public func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        completion(.success(request))
    }

    /// Never retries.
    public func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        completion(.doNotRetry)
    }
}
