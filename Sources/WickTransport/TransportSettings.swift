// The transport's bounds and timeouts: the pool's, the driver's, the connector's and its own.
package import WickPool
package import WickReactor
package import WickTLS

/// Settings of a `ConnectionPoolRunner`.
package struct TransportSettings: Sendable {
    /// Connection limits, idle and keep-alive handling, pool wait, backoff.
    package var pool = PoolSettings()
    /// Request-body part size, 100-continue timeout, parser limits.
    package var driver = HTTP1ConnectionDriver.Settings()
    /// Connect timeout, Happy Eyeballs delay, socket options.
    package var connect = ConnectOptions()
    /// TLS handshake and close timeouts.
    package var tls = TLSConnectOptions()
    /// The largest response body `execute` collects; more fails the request with
    /// `responseBodyTooLarge` and closes the connection. Default 64 MiB: the body is held in
    /// memory whole, so the bound is what one response may cost.
    package var maximumResponseBodyBytes = 64 * 1024 * 1024
    /// curl's `--resolve` and `--connect-to` overrides and the resolver behind them.
    package var nameResolution = NameResolution()
    /// Opens connections' plain streams instead of the connector's sockets; nil (the default,
    /// and always in production) connects for real. See `TransportDialer`.
    package var dialer: TransportDialer?
    /// Injects faults into dials and exchanges (`FaultInjector`); nil (the default) injects
    /// none, at the cost of one nil check per request.
    package var faultInjector: FaultInjector?
    /// Sends a second attempt for slow idempotent requests (`HedgingPolicy`); nil (the
    /// default) never does, at the cost of one nil check per request.
    package var hedging: HedgingPolicy?

    package init() {}
}
