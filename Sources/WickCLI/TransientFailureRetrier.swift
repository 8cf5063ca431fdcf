// `--retry N`: retries the failures curl calls transient, after curl's delays.
import Wick

/// Retries a request up to `limit` times when it timed out or answered 408, 429, 500, 502,
/// 503 or 504 (the statuses reach the retrier as validation failures: see
/// `acceptableStatusCodes`), or after any failure with `retriesAllErrors`, waiting `fixedDelay`
/// or else 1 s doubling each time, and starting no retry past `deadline`, as curl.
struct TransientFailureRetrier: RequestInterceptor {
    /// The statuses curl retries.
    static let transientStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Every other status: a validation with these makes transient statuses fail the attempt.
    static let acceptableStatusCodes = (100..<600).filter { !transientStatusCodes.contains($0) }

    /// The most retries.
    let limit: Int
    /// `--retry-delay`, or nil for 1 s doubling.
    let fixedDelay: Duration?
    /// `--retry-all-errors`.
    let retriesAllErrors: Bool
    /// `--retry-max-time` after the start, or nil for no limit.
    let deadline: ContinuousClock.Instant?

    /// Retries a timeout or a transient status while under the limit.
    func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        let count = request.retryCount
        let delay = Self.delay(beforeRetry: count, fixedDelay: fixedDelay)
        guard count < limit, retriesAllErrors || Self.isTransient(error),
            deadline.map({ ContinuousClock.now + delay <= $0 }) ?? true
        else { return completion(.doNotRetry) }
        completion(.retryWithDelay(delay))
    }

    /// curl's wait before retry number `count` (from 0): `fixedDelay`, else 1 s doubling
    /// (capped at 512 s).
    static func delay(beforeRetry count: Int, fixedDelay: Duration?) -> Duration {
        fixedDelay ?? .seconds(1 << min(count, 9))
    }

    /// Whether curl would retry after `error`.
    static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case WickError.sessionTaskFailed(.timedOut), WickError.responseValidationFailed: true
        default: false
        }
    }
}
