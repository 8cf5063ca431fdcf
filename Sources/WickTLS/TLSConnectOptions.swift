// The TLS connector's bounds: the handshake timeout and how long a TLS close may linger.

/// How a TLS connect (WickTransport's `TransportConnector`) bounds the TLS phase. The TCP phase
/// is bounded by the underlying `Connector`'s `ConnectOptions.timeout`, which also bounds the
/// whole connect: the TLS phase ends at whichever comes first, `handshakeTimeout` after the
/// socket connected or the overall connect deadline.
public struct TLSConnectOptions: Sendable, Hashable {
    /// The most the handshake plus trust evaluation may take. 10 s by default.
    public var handshakeTimeout: Duration
    /// After `close()`, how long the socket waits for the peer's FIN (following our
    /// `close_notify`) before it is closed anyway. 1 s by default.
    public var closeTimeout: Duration

    /// The defaults described on each property.
    public init(handshakeTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(1)) {
        self.handshakeTimeout = handshakeTimeout
        self.closeTimeout = closeTimeout
    }
}
