// Retrying failed requests with exponential backoff: Alamofire's RetryPolicy and ConnectionLostRetryPolicy.
import WickCore

/// Retries failed requests with exponential backoff (Alamofire's `RetryPolicy`), when the
/// method is retryable and either the response's status or the transport failure's kind is.
///
/// A request is retried when `request.retryCount < retryLimit` and:
/// - its method is in `retryableHTTPMethods` (idempotent ones by default) and the last
///   response's status is in `retryableHTTPStatusCodes` (a status only fails a request through a
///   validation, e.g. `validate { ... }`), or the error is a `WickError.sessionTaskFailed` whose
///   `kind` is in `retryableFailureKinds`; or
/// - `retriesUnsentRequests` is on (the default) and the error is a transport failure of a
///   retryable kind that proves the server never received the request
///   (`SessionTaskFailure.requestWasNotSent`: a failed connect, a timeout before the exchange,
///   a `connectionLost` whose `requestMayHaveBeenProcessed` is false), whatever the method. Alamofire
///   cannot tell this case apart, so it never retries a POST; Wick's transport can, and
///   sending a request the server never saw cannot repeat its effect.
///
/// The delay before retry `n` (0 for the first) is `exponentialBackoffBase^n *
/// exponentialBackoffScale` seconds: 0.5 s, then 1 s with the defaults. The delays count
/// against the request's `requestTimeout`: a retry that would start after it is not made. So
/// does the pool's own connecting: a refused connect is tried again until the deadline and
/// ends as `timedOut(phase: .waitingForConnection)` with no time left for a retry.
///
/// `@unchecked Sendable`: open for subclassing as Alamofire's is, and every stored property is
/// an immutable Sendable value.
open class RetryPolicy: RequestInterceptor, @unchecked Sendable {
    /// The default number of retries: 2.
    public static let defaultRetryLimit: UInt = 2
    /// The default base of the backoff: 2.
    public static let defaultExponentialBackoffBase: UInt = 2
    /// The default scale of the backoff, in seconds: 0.5.
    public static let defaultExponentialBackoffScale: Double = 0.5
    /// The methods retried by default, the idempotent ones (RFC 9110 §9.2.2): DELETE, GET, HEAD,
    /// OPTIONS, PUT, TRACE.
    public static let defaultRetryableHTTPMethods: Set<HTTPMethod> = [.delete, .get, .head, .options, .put, .trace]
    /// The statuses retried by default: 408, 500, 502, 503, 504.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// The failure kinds retried by default: those a later attempt may not meet (a lost
    /// connection, a timeout, a failed connect or name lookup, an unreachable network, a failed
    /// TLS handshake). Refused trust, local resource failures, undecodable bodies and redirect
    /// refusals are not: retrying would meet them again.
    public static let defaultRetryableFailureKinds: Set<SessionTaskFailure.Kind> = [
        .networkConnectionLost, .timedOut, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet, .secureConnectionFailed,
    ]

    /// How many times a request may be retried.
    public let retryLimit: UInt
    /// The base of the backoff (at least 2).
    public let exponentialBackoffBase: UInt
    /// The scale of the backoff, in seconds.
    public let exponentialBackoffScale: Double
    /// The methods that may be retried.
    public let retryableHTTPMethods: Set<HTTPMethod>
    /// The response statuses that are retried.
    public let retryableHTTPStatusCodes: Set<Int>
    /// The transport failure kinds that are retried.
    public let retryableFailureKinds: Set<SessionTaskFailure.Kind>
    /// Whether a request of any method is retried after a retryable failure that proves the
    /// server never received it (see the type's documentation).
    public let retriesUnsentRequests: Bool

    /// A policy; the defaults are Alamofire's.
    ///
    /// Traps if `exponentialBackoffBase` is below 2 or `exponentialBackoffScale` is negative
    /// or not finite.
    public init(
        retryLimit: UInt = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
        retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
        retryableFailureKinds: Set<SessionTaskFailure.Kind> = RetryPolicy.defaultRetryableFailureKinds,
        retriesUnsentRequests: Bool = true
    ) {
        precondition(exponentialBackoffBase >= 2, "RetryPolicy: exponentialBackoffBase must be at least 2")
        precondition(
            exponentialBackoffScale >= 0 && exponentialBackoffScale.isFinite,
            "RetryPolicy: exponentialBackoffScale must be finite and not negative")
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.retryableHTTPMethods = retryableHTTPMethods
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableFailureKinds = retryableFailureKinds
        self.retriesUnsentRequests = retriesUnsentRequests
    }

    /// Retries with the backoff's delay while under the limit and `shouldRetry` agrees.
    open func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        let retryCount = request.retryCount
        if retryCount < retryLimit, shouldRetry(request: request, dueTo: error) {
            completion(.retryWithDelay(delay(forRetry: retryCount)))
        } else {
            completion(.doNotRetry)
        }
    }

    /// Whether the request's method, last status or error make it worth retrying (the limit
    /// aside).
    open func shouldRetry(request: Request, dueTo error: any Error) -> Bool {
        shouldRetry(method: request.request?.method, statusCode: request.response?.statusCode, error: error)
    }

    /// The decision on plain values: the last request's method, the last response's status.
    func shouldRetry(method: HTTPMethod?, statusCode: Int?, error: any Error) -> Bool {
        guard let method else { return false }
        let failure = Self.transportFailure(in: error)
        if retryableHTTPMethods.contains(method) {
            if let statusCode, retryableHTTPStatusCodes.contains(statusCode) { return true }
            if let failure, retryableFailureKinds.contains(failure.kind) { return true }
            return false
        }
        guard retriesUnsentRequests, let failure else { return false }
        return failure.requestWasNotSent && retryableFailureKinds.contains(failure.kind)
    }

    /// `base^retryCount * scale` seconds.
    func delay(forRetry retryCount: Int) -> Duration {
        var factor = 1.0
        for _ in 0..<retryCount { factor *= Double(exponentialBackoffBase) }
        return .seconds(factor * exponentialBackoffScale)
    }

    /// The transport failure an error carries, if it is one.
    static func transportFailure(in error: any Error) -> SessionTaskFailure? {
        switch error {
        case WickError.sessionTaskFailed(let failure): failure
        case let failure as SessionTaskFailure: failure
        default: nil
        }
    }
}

/// Retries only requests whose connection was lost (Alamofire's `ConnectionLostRetryPolicy`):
/// idempotent ones, and with `retriesUnsentRequests`, any whose request was never written.
/// Statuses are not retried.
open class ConnectionLostRetryPolicy: RetryPolicy, @unchecked Sendable {
    /// A policy retrying `.networkConnectionLost` failures only.
    public init(
        retryLimit: UInt = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
        retriesUnsentRequests: Bool = true
    ) {
        super.init(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retryableHTTPStatusCodes: [], retryableFailureKinds: [.networkConnectionLost],
            retriesUnsentRequests: retriesUnsentRequests)
    }
}

extension RequestInterceptor where Self == RetryPolicy {
    /// A `RetryPolicy` with the defaults: `Session(interceptor: .retryPolicy)`.
    public static var retryPolicy: RetryPolicy { RetryPolicy() }

    /// A `RetryPolicy` with these settings (see `RetryPolicy.init`).
    public static func retryPolicy(
        retryLimit: UInt = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
        retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
        retryableFailureKinds: Set<SessionTaskFailure.Kind> = RetryPolicy.defaultRetryableFailureKinds,
        retriesUnsentRequests: Bool = true
    ) -> RetryPolicy {
        RetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retryableHTTPStatusCodes: retryableHTTPStatusCodes, retryableFailureKinds: retryableFailureKinds,
            retriesUnsentRequests: retriesUnsentRequests)
    }
}

extension RequestInterceptor where Self == ConnectionLostRetryPolicy {
    /// A `ConnectionLostRetryPolicy` with the defaults.
    public static var connectionLostRetryPolicy: ConnectionLostRetryPolicy { ConnectionLostRetryPolicy() }

    /// A `ConnectionLostRetryPolicy` with these settings.
    public static func connectionLostRetryPolicy(
        retryLimit: UInt = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
        retriesUnsentRequests: Bool = true
    ) -> ConnectionLostRetryPolicy {
        ConnectionLostRetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retriesUnsentRequests: retriesUnsentRequests)
    }
}
