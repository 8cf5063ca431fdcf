// A snapshot of the pool's gauges and counters, per origin and in total.

/// The pool's gauges and counters at one moment, per origin and summed over all origins.
///
/// Gauges say what is true now; counters only grow. An origin appears in `origins` while the
/// pool holds anything for it (a connection, a waiter, a backoff); when it empties, its counters
/// stay in `total` but its entry goes, so a client that talks to many hosts does not grow forever.
public struct PoolStatistics<Origin: Hashable & Sendable>: Sendable {
    /// Gauges and counters of one origin, or of the whole pool.
    public typealias Counts = PoolCounts

    /// The origins the pool holds something for.
    public var origins: [Origin: Counts]

    /// The whole pool, including origins that have since emptied.
    public var total: Counts

    @inlinable init(origins: [Origin: Counts], total: Counts) {
        self.origins = origins
        self.total = total
    }
}

/// Gauges and counters of one origin, or of the whole pool.
public struct PoolCounts: Hashable, Sendable {
    /// Connections parked idle, ready for a request.
    public var idle = 0
    /// Connections carrying a request.
    public var leased = 0
    /// Connection attempts under way.
    public var connecting = 0
    /// Connections the pool asked the runner to close, not yet reported closed.
    public var closing = 0
    /// Requests waiting in the FIFO queue for a connection.
    public var waiting = 0

    /// Connections established.
    public var created = 0
    /// Connection attempts that failed.
    public var failedAttempts = 0
    /// Leases of any connection.
    public var leases = 0
    /// Leases of a connection that had carried a request before.
    public var reused = 0
    /// Replays (`requestArrived(isReplay: true)`) the pool accepted before shutdown began.
    public var replayed = 0
    /// Idle connections the server (or an error) closed under the pool.
    public var evicted = 0
    /// Connections the pool decided to close (idle timeout, lifetime, limits, shutdown).
    public var retired = 0
    /// The time leased requests spent waiting, from arrival to lease, summed.
    public var totalPoolWait: Duration = .zero

    /// All zero.
    public init() {}

    /// Every connection holding a socket or an attempt: idle, leased, connecting and closing.
    public var live: Int { idle + leased + connecting + closing }

    /// Adds every gauge and counter of `rhs` to `lhs` (summing pools or origins).
    @inlinable public static func += (lhs: inout PoolCounts, rhs: PoolCounts) {
        lhs.idle += rhs.idle
        lhs.leased += rhs.leased
        lhs.connecting += rhs.connecting
        lhs.closing += rhs.closing
        lhs.waiting += rhs.waiting
        lhs.created += rhs.created
        lhs.failedAttempts += rhs.failedAttempts
        lhs.leases += rhs.leases
        lhs.reused += rhs.reused
        lhs.replayed += rhs.replayed
        lhs.evicted += rhs.evicted
        lhs.retired += rhs.retired
        lhs.totalPoolWait += rhs.totalPoolWait
    }
}
