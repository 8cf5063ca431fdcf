// The pool's bounds and timeouts, each with its default and the reason for it.

/// The limits and timeouts of a connection pool. Every bound applies per origin.
///
/// The defaults suit a daemon talking to a handful of HTTP/1.1 services; each one's reason is
/// on the property. `PoolStateMachine.init` traps on a value that makes no sense (a limit below
/// one, a negative duration), because such a configuration is a programming error.
public struct PoolSettings: Sendable, Equatable {
    /// The most connections open at once to one origin: connecting, idle, leased and closing
    /// ones all count, because each holds a socket. Default 8, as in async-http-client; HTTP/1.1
    /// carries one request at a time per connection, so this is also the most requests in flight
    /// per origin.
    public var maximumConnectionsPerOrigin: Int = 8

    /// The most idle connections kept for one origin. A connection that comes back idle beyond
    /// this is closed (`PoolCloseReason.tooManyIdle`). Default 8: equal to the connection limit,
    /// so a burst's connections survive until the next burst (Go's default of 2 is a well-known
    /// source of connection churn).
    public var maximumIdleConnectionsPerOrigin: Int = 8

    /// How long a connection may stay idle before the pool closes it. Default 60 s: below the
    /// idle timeouts of most load balancers (AWS ALB 60 s, nginx 75 s), and servers that close
    /// sooner usually say so in `Keep-Alive: timeout=`, which the pool honours.
    public var idleTimeout: Duration = .seconds(60)

    /// How long a connection may live from its establishment; it is retired when it comes back
    /// idle after this, or while it waits idle. `nil` means no limit. Default 10 minutes, so a
    /// long-running daemon picks up DNS changes and spreads over a load balancer's backends.
    public var maximumConnectionLifetime: Duration? = .seconds(600)

    /// How many requests one connection may carry before it is retired. `nil` means no limit of
    /// our own: the server still ends a connection with `Connection: close` or `Keep-Alive: max=`.
    /// Default `nil`.
    public var maximumRequestsPerConnection: Int?

    /// How long a request may wait in the pool for a connection, unless the request brings an
    /// earlier deadline of its own. Default 30 s: long enough to ride out a short outage with
    /// backed-off reconnection, short enough that a caller hears about a dead origin.
    public var poolWaitTimeout: Duration = .seconds(30)

    /// How long before the server's `Keep-Alive: timeout=N` runs out the pool stops reusing the
    /// connection, so a request never races the server's own close. Default 1 s: a response's
    /// travel time plus the runner's timer slack, which round up to milliseconds.
    public var keepAliveTimeoutMargin: Duration = .seconds(1)

    /// The delay after the first failed connection attempt while requests wait. Default 100 ms.
    public var initialBackoff: Duration = .milliseconds(100)

    /// The longest delay between attempts; delays double after each consecutive failure up to
    /// this. Default 10 s, so an origin that comes back is noticed within ten seconds.
    public var maximumBackoff: Duration = .seconds(10)

    /// Whether a retryable failed attempt (refused, reset, timed out) keeps the origin's waiters
    /// for another attempt after a backoff (true, the default; rule 7), or fails every one of
    /// them at once with its error, as a failure that is not retryable does (false: curl's and
    /// URLSession's behaviour).
    public var retriesFailedAttempts = true

    /// Settings with every default above.
    public init() {}

    /// The delay before the next attempt after `consecutiveFailures` failed attempts in a row
    /// (at least 1): `initialBackoff × 2^(failures − 1)`, capped at `maximumBackoff`.
    public func backoff(afterConsecutiveFailures consecutiveFailures: Int) -> Duration {
        precondition(consecutiveFailures >= 1, "PoolSettings.backoff needs at least one failure")
        var delay = initialBackoff
        var doublings = consecutiveFailures - 1
        while doublings > 0 && delay < maximumBackoff {
            delay = delay * 2
            doublings -= 1
        }
        return min(delay, maximumBackoff)
    }

    /// Traps with a message naming the setting when a value makes no sense.
    @inlinable func validate() {
        precondition(maximumConnectionsPerOrigin >= 1, "PoolSettings.maximumConnectionsPerOrigin must be at least 1")
        precondition(
            maximumIdleConnectionsPerOrigin >= 0, "PoolSettings.maximumIdleConnectionsPerOrigin must not be negative")
        precondition(idleTimeout > .zero, "PoolSettings.idleTimeout must be positive")
        precondition(
            (maximumConnectionLifetime ?? .seconds(1)) > .zero,
            "PoolSettings.maximumConnectionLifetime must be positive")
        precondition(
            (maximumRequestsPerConnection ?? 1) >= 1, "PoolSettings.maximumRequestsPerConnection must be at least 1")
        precondition(poolWaitTimeout >= .zero, "PoolSettings.poolWaitTimeout must not be negative")
        precondition(keepAliveTimeoutMargin >= .zero, "PoolSettings.keepAliveTimeoutMargin must not be negative")
        precondition(initialBackoff > .zero, "PoolSettings.initialBackoff must be positive")
        precondition(maximumBackoff >= initialBackoff, "PoolSettings.maximumBackoff must be at least initialBackoff")
    }
}
