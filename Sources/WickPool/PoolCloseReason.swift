// Why the pool asks the runner to close a connection.

/// Why the pool closes a connection; the runner may log it and count it.
public enum PoolCloseReason: Hashable, Sendable {
    /// It stayed idle for `PoolSettings.idleTimeout`.
    case idleTimeout
    /// It reached `PoolSettings.maximumConnectionLifetime`.
    case lifetimeExpired
    /// The server's `Keep-Alive: timeout=` (less `keepAliveTimeoutMargin`) ran out.
    case serverKeepAliveTimeout
    /// It carried `PoolSettings.maximumRequestsPerConnection` requests.
    case requestLimitReached
    /// The server's `Keep-Alive: max=` allows no more requests on it.
    case serverRequestLimitReached
    /// The last response did not allow reuse (`Connection: close`, HTTP/1.0 without keep-alive,
    /// an unread body, a protocol error).
    case notReusable
    /// It came back idle while `PoolSettings.maximumIdleConnectionsPerOrigin` were idle already.
    case tooManyIdle
    /// A replayed request needs a fresh connection and the origin is at its connection limit,
    /// so the oldest idle, already used connection makes room.
    case madeRoomForFreshConnection
    /// The server sent GOAWAY (HTTP/2): the connection took no more streams and its last one
    /// has ended.
    case serverGoingAway
    /// The pool is shutting down.
    case shutdown
}
