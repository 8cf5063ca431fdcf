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
/// exponentialBackoffScale` seconds: 0.5 s, then 1 s with the defaults; `jitter` spreads it so
/// clients that failed together do not retry together. A `429` or `503` whose `Retry-After`
/// (RFC 9110 §10.2.3) asks for longer is retried no sooner than it asks, and a `429` with a
/// `Retry-After` is retried (on a retryable method) although it is not in
/// `retryableHTTPStatusCodes`; a response asking for more than `maximumRetryAfter` is not
/// retried at all, rather than sooner than the server allows. The delays count
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
    /// How the backoff delays are spread.
    public let jitter: Jitter
    /// The longest `Retry-After` honoured (see the type's documentation); nil ignores
    /// `Retry-After`, as Alamofire does.
    public let maximumRetryAfter: Duration?

    /// How a `RetryPolicy` spreads its backoff delays (the schemes of "Exponential Backoff And
    /// Jitter", AWS Architecture Blog, 2015).
    public enum Jitter: Sendable, Hashable {
        /// Exactly `base^n × scale`: Alamofire's schedule.
        case none
        /// A uniformly random delay between zero and `base^n × scale`: the least synchronised
        /// and, on average, half the wait.
        case full
        /// A uniformly random delay between `scale` and three times the previous delay (`scale`
        /// before the first retry): each delay grows from the last one drawn, not from the
        /// retry's number.
        case decorrelated
    }

    /// The statuses whose `Retry-After` is honoured: 429 (Too Many Requests) and 503 (Service
    /// Unavailable).
    public static let retryAfterStatusCodes: Set<Int> = [429, 503]
    /// The default longest `Retry-After` honoured: 60 s.
    public static let defaultMaximumRetryAfter: Duration = .seconds(60)

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
        retriesUnsentRequests: Bool = true,
        jitter: Jitter = .none,
        maximumRetryAfter: Duration? = RetryPolicy.defaultMaximumRetryAfter
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
        self.jitter = jitter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Retries with the backoff's delay (or the `Retry-After` asked for, if longer) while under
    /// the limit and `shouldRetry` agrees.
    open func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        let retryCount = request.retryCount
        let retryAfter = retryAfter(in: request.response)
        if let retryAfter, let maximumRetryAfter, retryAfter > maximumRetryAfter { return completion(.doNotRetry) }
        guard retryCount < retryLimit, shouldRetry(request: request, dueTo: error) else {
            return completion(.doNotRetry)
        }
        var random = SystemRandomNumberGenerator()
        let backoff = delay(forRetry: retryCount, previous: request.lastRetryDelay, using: &random)
        completion(.retryWithDelay(max(backoff, retryAfter ?? .zero)))
    }

    /// Whether the request's method, last status or error make it worth retrying (the limit
    /// aside).
    open func shouldRetry(request: Request, dueTo error: any Error) -> Bool {
        shouldRetry(
            method: request.request?.method, statusCode: request.response?.statusCode, error: error,
            asksToRetryAfter: retryAfter(in: request.response) != nil)
    }

    /// The decision on plain values: the last request's method, the last response's status,
    /// and whether that response carried a `Retry-After` this policy honours.
    func shouldRetry(method: HTTPMethod?, statusCode: Int?, error: any Error, asksToRetryAfter: Bool = false) -> Bool {
        guard let method else { return false }
        let failure = Self.transportFailure(in: error)
        if retryableHTTPMethods.contains(method) {
            if let statusCode, retryableHTTPStatusCodes.contains(statusCode) { return true }
            if statusCode == 429, asksToRetryAfter { return true }
            if let failure, retryableFailureKinds.contains(failure.kind) { return true }
            return false
        }
        guard retriesUnsentRequests, let failure else { return false }
        return failure.requestWasNotSent && retryableFailureKinds.contains(failure.kind)
    }

    /// `base^retryCount * scale` seconds: the backoff without jitter.
    func delay(forRetry retryCount: Int) -> Duration {
        var factor = 1.0
        for _ in 0..<retryCount { factor *= Double(exponentialBackoffBase) }
        return .seconds(factor * exponentialBackoffScale)
    }

    /// The backoff before retry `retryCount` with `jitter` applied, drawing from `random`;
    /// `previous` is the delay before the last retry (a decorrelated backoff grows from it).
    func delay(
        forRetry retryCount: Int, previous: Duration?, using random: inout some RandomNumberGenerator
    ) -> Duration {
        switch jitter {
        case .none:
            return delay(forRetry: retryCount)
        case .full:
            return .seconds(Double.random(in: 0...delay(forRetry: retryCount).timeInterval, using: &random))
        case .decorrelated:
            let upper = max(exponentialBackoffScale, 3 * (previous?.timeInterval ?? exponentialBackoffScale))
            return .seconds(Double.random(in: exponentialBackoffScale...upper, using: &random))
        }
    }

    /// The delay `response`'s `Retry-After` asks for, when its status is one whose
    /// `Retry-After` this policy honours.
    func retryAfter(in response: HTTPResponse?) -> Duration? {
        guard maximumRetryAfter != nil, let response, Self.retryAfterStatusCodes.contains(response.statusCode) else {
            return nil
        }
        return RetryAfter.delay(in: response.headers)
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
        retriesUnsentRequests: Bool = true,
        jitter: Jitter = .none
    ) {
        super.init(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retryableHTTPStatusCodes: [], retryableFailureKinds: [.networkConnectionLost],
            retriesUnsentRequests: retriesUnsentRequests, jitter: jitter, maximumRetryAfter: nil)
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
        retriesUnsentRequests: Bool = true,
        jitter: RetryPolicy.Jitter = .none,
        maximumRetryAfter: Duration? = RetryPolicy.defaultMaximumRetryAfter
    ) -> RetryPolicy {
        RetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retryableHTTPStatusCodes: retryableHTTPStatusCodes, retryableFailureKinds: retryableFailureKinds,
            retriesUnsentRequests: retriesUnsentRequests, jitter: jitter, maximumRetryAfter: maximumRetryAfter)
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
        retriesUnsentRequests: Bool = true,
        jitter: RetryPolicy.Jitter = .none
    ) -> ConnectionLostRetryPolicy {
        ConnectionLostRetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retriesUnsentRequests: retriesUnsentRequests, jitter: jitter)
    }
}
