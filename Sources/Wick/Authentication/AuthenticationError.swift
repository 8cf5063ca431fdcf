// Why an AuthenticationInterceptor failed a request: Alamofire's AuthenticationError.
/// Why an `AuthenticationInterceptor` failed a request. It reaches the caller inside
/// `WickError.requestAdaptationFailed(error:)` (from adapting) or
/// `WickError.requestRetryFailed(retryError:originalError:)` (from a retry decision).
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The interceptor has no credential to apply or refresh.
    case missingCredential
    /// More refreshes were asked for within the `RefreshWindow` than it allows.
    case excessiveRefresh

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .missingCredential: "the authentication interceptor has no credential"
        case .excessiveRefresh: "the credential was refreshed too many times within the refresh window"
        }
    }
}
