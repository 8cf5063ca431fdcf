// Deciding whether a failed request runs again: Alamofire's RequestRetrier.
/// Decides whether a failed attempt is retried (Alamofire's `RequestRetrier`). Asked after a
/// transport failure, a failed validation, or an adaptation failure; `request.retryCount` counts
/// the retries so far, and `request.response` holds the failed attempt's response head, if any.
public protocol RequestRetrier: Sendable {
    /// Calls `completion` once with the decision. May complete on any thread and at any later
    /// time; the request waits (holding no connection) until it does.
    /// - Parameters:
    ///   - request: the request whose attempt failed.
    ///   - session: the session that runs it.
    ///   - error: why the attempt failed, a `WickError`.
    ///   - completion: called once with the decision.
    func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void)
}
