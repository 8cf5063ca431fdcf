// Where a response came from: the network, the cache, the cache after a 304, or the cache
// while a background request revalidates it.

/// Where the response of one exchange came from (URLSession's `resourceFetchType`, with the
/// validation made explicit), in `TransactionMetrics.responseSource`.
public enum ResponseSource: Sendable, Equatable, CustomStringConvertible {
    /// The network: nothing stored was used.
    case network
    /// The session's cache, without a request: a fresh stored response (or, with
    /// `only-if-cached` or `returnCacheDataDontLoad` and nothing stored, a synthesized 504).
    case cache
    /// The session's cache after the server confirmed it with `304 Not Modified`: the stored
    /// body with the fields the 304 updated (RFC 9111 §4.3.4).
    case revalidatedCache
    /// The session's cache, without waiting for the network: a stale stored response within
    /// its `stale-while-revalidate` window (RFC 5861 §3, `Session.Configuration.staleWhileRevalidate`),
    /// while one request in the background revalidates it (its end is told to event monitors
    /// by `request(_:didRevalidateInBackground:)`).
    case staleWhileRevalidating

    /// `network`, `cache`, `revalidated cache`, `stale cache while revalidating`.
    public var description: String {
        switch self {
        case .network: "network"
        case .cache: "cache"
        case .revalidatedCache: "revalidated cache"
        case .staleWhileRevalidating: "stale cache while revalidating"
        }
    }
}
