// A validation in flight: the stored response a conditional request asks about.
import WickCore

/// What an exchange sent to validate a stored response (RFC 9111 §4.3.1): the response, and
/// the conditional fields added to the request. A class so that the attempt's progress, which
/// is copied at every step, carries one reference rather than the whole response.
final class CacheValidation: Sendable {
    /// The stored response a `304 Not Modified` selects.
    let stored: CachedResponse
    /// `If-None-Match` and `If-Modified-Since`, added to the request's fields when it is sent.
    let conditionalFields: HTTPHeaders

    init(stored: CachedResponse, conditionalFields: HTTPHeaders) {
        self.stored = stored
        self.conditionalFields = conditionalFields
    }
}
