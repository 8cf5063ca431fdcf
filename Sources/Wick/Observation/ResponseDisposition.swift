// What an onHTTPResponse handler decides about the response whose head it saw.

/// Whether a request goes on with the response whose head an `onHTTPResponse` handler saw
/// (Alamofire's `ResponseDisposition`, URLSession's without `becomeDownload` and
/// `becomeStream`).
public enum ResponseDisposition: Sendable, Equatable {
    /// Receive the body: the request goes on.
    case allow
    /// Cancel the request: it finishes with `WickError.explicitlyCancelled`.
    case cancel
}
