// How one request uses the session's response cache: URLRequest.CachePolicy's four cases.

/// How a request uses `Session.Configuration.responseCache` (URLRequest's `CachePolicy`), set
/// with `HTTPRequest.cachePolicy`. Every policy stores what the network returns, by RFC 9111's
/// rules; they differ in what they read.
public enum RequestCachePolicy: Sendable, Equatable {
    /// RFC 9111: a fresh stored response is used, a stale one is validated, and the request's
    /// own `Cache-Control` directives count. The default.
    case useProtocolCachePolicy
    /// The cache is not read; the response is fetched (and stored).
    case reloadIgnoringLocalCacheData
    /// A stored response is used whatever its age, without validation; otherwise it is fetched.
    case returnCacheDataElseLoad
    /// A stored response is used whatever its age; otherwise the request gets a synthesized
    /// `504 Gateway Timeout`, as `only-if-cached` (RFC 9111 §5.2.1.7), and nothing is sent.
    case returnCacheDataDontLoad
}
