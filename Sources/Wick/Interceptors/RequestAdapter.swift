// Changing a request before it is sent (adding a token, signing): Alamofire's RequestAdapter.
public import FoundationEssentials

/// What an adapter knows about the request it adapts (Alamofire's `RequestAdapterState`).
public struct RequestAdapterState: Sendable {
    /// The `Request`'s `id`.
    public let requestID: UUID
    /// The `Session` that will send the request.
    public let session: Session

    /// The state of the request `requestID` of `session`.
    public init(requestID: UUID, session: Session) {
        self.requestID = requestID
        self.session = session
    }
}

/// Changes a request before each attempt is sent (Alamofire's `RequestAdapter`): add an
/// `Authorization` field, sign, rewrite the URL. Adapters run on every attempt, retries included,
/// the request's own first, then the session's (`Session(interceptor:)`). Wick calls
/// `adapt(_:using:completion:)`, whose default calls `adapt(_:for:completion:)`: implement
/// whichever needs what it knows.
public protocol RequestAdapter: Sendable {
    /// Calls `completion` once with the request to send, or with the error that fails the request
    /// as `WickError.requestAdaptationFailed` (nothing is sent). May complete on any thread and
    /// at any later time.
    func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void)

    /// `adapt(_:for:completion:)` with the request's identity as well.
    func adapt(
        _ request: HTTPRequest, using state: RequestAdapterState,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void)

    /// Whether `adapt` completes before it returns, without blocking: no I/O, no waiting, no
    /// lock held for long, no call into code that might. When every adapter of a request says
    /// so, Wick calls them on the thread that starts the attempt (the one that resumed the
    /// request, or the root queue for a retry) instead of hopping to `Session.rootQueue`, which
    /// saves the request a thread wake-up. Default: false.
    var adaptsWithoutBlocking: Bool { get }
}

extension RequestAdapter {
    /// Calls `adapt(_:for:completion:)` with the state's session.
    public func adapt(
        _ request: HTTPRequest, using state: RequestAdapterState,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        adapt(request, for: state.session, completion: completion)
    }

    /// False: `adapt` runs on `Session.rootQueue`.
    public var adaptsWithoutBlocking: Bool { false }
}
