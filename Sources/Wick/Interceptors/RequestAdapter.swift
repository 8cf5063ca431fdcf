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

    /// Whether `adapt` completes before it returns, without blocking: no I/O, no waiting, no
    /// lock held for long, no call into code that might. When every adapter of a request says
    /// so, Wick calls them on the thread that starts the attempt (the one that resumed the
    /// request, or the root queue for a retry) instead of hopping to `Session.rootQueue`, which
    /// saves the request a thread wake-up. Default: false.
    var adaptsWithoutBlocking: Bool { get }
}

extension RequestAdapter {
    /// False: `adapt` runs on `Session.rootQueue`.
    public var adaptsWithoutBlocking: Bool { false }
}
