// What a 200 to a HEAD does to the stored GET responses of its URL (RFC 9111 §4.3.5).
import FoundationEssentials
import WickCore

/// RFC 9111 §4.3.5, "Freshening Responses with HEAD": a HEAD's response is what a GET's would
/// have been without the content, so when a `200` to a HEAD arrives, each stored GET response
/// the HEAD could have selected (§4.1) is updated from its fields or, when they show that the
/// representation changed, no longer used.
///
/// A stored response is updated when, for each validator the HEAD response carries (`ETag`,
/// `Last-Modified`), it has the same value, and when the HEAD response's `Content-Length`
/// (if any) equals the stored one (its `Content-Length` field, or else its body's size). The
/// update follows §3.2, as a 304's does (`CacheStorability.updatedFields`), and restarts its
/// age. Otherwise §4.3.5 says "the cache SHOULD consider the stored response to be stale":
/// Wick's cache forgets it, which is the stricter reading (a later GET fetches it anew).
enum CacheHeadFreshening {
    /// What happens to one stored GET response.
    enum Outcome: Sendable, Equatable {
        /// Keep this, the stored response with the HEAD response's fields and times.
        case update(CachedResponse)
        /// Forget the stored response: the HEAD response shows another representation.
        case invalidate
    }

    /// What the `200` to a HEAD with `headResponse`'s fields, sent at `requestDate` and
    /// received at `responseDate`, does to `stored`, one of the GET responses it could have
    /// selected.
    static func outcome(
        of stored: CachedResponse, headResponse: HTTPHeaders, requestDate: Date, responseDate: Date
    ) -> Outcome {
        for validator in ["ETag", "Last-Modified"] {
            guard let received = headResponse.value(for: validator) else { continue }
            if stored.headers.value(for: validator) != received { return .invalidate }
        }
        if let length = headResponse.value(for: "Content-Length") {
            let storedLength = stored.headers.value(for: "Content-Length") ?? String(stored.data.count)
            if storedLength != length { return .invalidate }
        }
        var updated = stored
        updated.headers = CacheStorability.updatedFields(stored.headers, from: headResponse)
        updated.requestDate = requestDate
        updated.responseDate = responseDate
        return .update(updated)
    }
}
