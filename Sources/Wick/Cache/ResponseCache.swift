// Where a Session keeps responses (RFC 9111, a private cache): the protocol a store conforms to.
public import FoundationEssentials

/// Where a `Session` keeps responses for reuse (`Session.Configuration.responseCache`), by URL.
/// `MemoryResponseCache` keeps them in memory and `DiskResponseCache` in files; a store of your
/// own conforms with these four methods. The rules (what is stored, when a stored response is
/// fresh, validation, invalidation) are the session's, not the store's: a store only keeps
/// and forgets.
///
/// A store is shared by every request of a session, on any thread (the loops' included, so its
/// methods must not block for long), and must be thread-safe. A URL may have several stored
/// responses, one per combination of the request fields its `Vary` names.
public protocol ResponseCache: AnyObject, Sendable {
    /// The responses stored for `url` (its fragment ignored), any order; empty when none.
    /// A store with an eviction order counts this as a use.
    func cachedResponses(for url: URL) -> [CachedResponse]
    /// Stores `response` for `response.url`, replacing a stored response for the same URL with
    /// the same `varyingRequestFields`. A store may refuse a response (too large for its
    /// budget) or evict others to make room. Never throws: a response that cannot be stored is
    /// not stored.
    func store(_ response: CachedResponse)
    /// Forgets every response stored for `url` (RFC 9111 §4.4's invalidation).
    func removeCachedResponses(for url: URL)
    /// Forgets every stored response.
    func removeAllCachedResponses()
}

/// The key a URL's responses are stored under: the URL without its fragment (RFC 9111 §2:
/// the target URI).
enum ResponseCacheKey {
    static func of(_ url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }
}
