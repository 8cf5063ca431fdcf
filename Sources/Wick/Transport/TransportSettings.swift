// The transport's bounds and timeouts: the pool's, the driver's, the connector's and its own.
import WickPool
import WickReactor
import WickTLS

/// Settings of a `ConnectionPoolRunner`.
struct TransportSettings: Sendable {
    /// Connection limits, idle and keep-alive handling, pool wait, backoff.
    var pool = PoolSettings()
    /// Request-body part size, 100-continue timeout, parser limits.
    var driver = HTTP1ConnectionDriver.Settings()
    /// Connect timeout, Happy Eyeballs delay, socket options.
    var connect = ConnectOptions()
    /// TLS handshake and close timeouts.
    var tls = TLSConnectOptions()
    /// The largest response body `execute` collects; more fails the request with
    /// `responseBodyTooLarge` and closes the connection. Default 64 MiB: the body is held in
    /// memory whole, so the bound is what one response may cost.
    var maximumResponseBodyBytes = 64 * 1024 * 1024

    init() {}
}
