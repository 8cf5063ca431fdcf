// The pools' gauges and counters as a Session reports them, per origin and in total.
public import WickPool

/// A snapshot of a session's connection pools (`Session.poolStatistics()`): gauges and
/// counters per origin, keyed by the origin's description (`https://example.com:443`, or
/// `http://localhost:80 via unix:/run/app.sock`), and summed over all origins.
public struct ConnectionPoolStatistics: Sendable {
    /// The gauges (`idle`, `leased`, `connecting`, `closing`, `waiting`) and counters
    /// (`created`, `failedAttempts`, `leases`, `reused`, `replayed`, `evicted`, `retired`,
    /// `totalPoolWait`) of one origin or of all.
    public typealias Counts = PoolCounts

    /// The origins the pools hold something for (a connection, a waiter, a backoff). Two
    /// origins with the same description but different TLS rules are summed here.
    public private(set) var origins: [String: Counts] = [:]
    /// Every origin, including those that have since emptied.
    public private(set) var total = Counts()

    init() {}

    /// Adds one pool's snapshot.
    mutating func add(_ snapshot: PoolStatistics<TransportOrigin>) {
        for (origin, counts) in snapshot.origins {
            origins[origin.description, default: Counts()] += counts
        }
        total += snapshot.total
    }
}
