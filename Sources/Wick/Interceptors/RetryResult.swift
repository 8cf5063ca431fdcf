// A retrier's decision: Alamofire's RetryResult.
/// What a `RequestRetrier` decided about a failed attempt.
public enum RetryResult: Sendable {
    /// Run the request again now.
    case retry
    /// Run the request again after the delay.
    case retryWithDelay(Duration)
    /// Finish with the attempt's error.
    case doNotRetry
    /// Finish with `WickError.requestRetryFailed(retryError:originalError:)`.
    case doNotRetryWithError(any Error)
}

extension RetryResult {
    /// Whether the request runs again.
    public var retryRequired: Bool {
        switch self {
        case .retry, .retryWithDelay: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }

    /// The delay before the next attempt, if one is asked for.
    public var delay: Duration? {
        if case .retryWithDelay(let delay) = self { delay } else { nil }
    }

    /// The error a retrier chose to finish with, if any.
    public var error: (any Error)? {
        if case .doNotRetryWithError(let error) = self { error } else { nil }
    }
}
