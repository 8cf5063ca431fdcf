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
    /// The HTTP/2 codec's limits and the body part size, for connections that speak HTTP/2.
    package var http2 = HTTP2ConnectionDriver.Settings()
    /// Which HTTP versions connections speak; TLS offers the matching ALPN list (the
    /// `TLSConfiguration` the requests carry must offer it). Default `.http1Only`.
    package var httpVersion = HTTPVersionPreference.http1Only
    /// Cleartext origins (without a proxy) speak HTTP/2 with prior knowledge (`h2c`). Default off.
    package var http2PriorKnowledge = false
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
