// How long a request waits for its response head before a hedged second attempt starts.

/// When `HedgingPolicy` sends a second attempt: after a fixed delay, or after a percentile of
/// the host's recent latencies (request start to response head), so that only the slow tail
/// is hedged.
public enum HedgeDelay: Sendable, Hashable {
    /// Always after this long.
    case fixed(Duration)
    /// After the `percentile` (0 to 1, e.g. 0.95) of the host's last
    /// `HedgingPolicy.latencySamples` latencies; `fallback` until `minimumSamples` are known.
    case percentile(Double, minimumSamples: Int = 20, fallback: Duration)
}
