// Why a stream channel, or the connect that makes one, failed: the socket, TLS, a TLS timeout,
// or a proxy's tunnel.
public import WickReactor

/// A `StreamChannel` or connect failure (`TLSChannel.establish`, WickTransport's
/// `TransportConnector`), grouping the layers' precise errors.
public enum StreamChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TLS phase that ran out of time.
    public enum TLSPhase: Sendable, Equatable, CustomStringConvertible {
        /// The handshake messages were still being exchanged.
        case handshake
        /// The handshake was done; the server's trust was being evaluated.
        case trustEvaluation

        /// `handshake` or `trust evaluation`.
        public var description: String { self == .handshake ? "handshake" : "trust evaluation" }
    }

    /// The socket failed: resolution, connect, reset, broken pipe, the loop shut down...
    case reactor(ReactorError)
    /// TLS failed: the handshake, trust evaluation (`.serverTrustFailed`), a protocol error, or
    /// a stream cut without `close_notify` (`.truncated`).
    case tls(TLSError)
    /// The TLS handshake plus trust evaluation did not finish in time: `phase` is where it
    /// stood, `after` how long the TLS phase had run (bounded by the handshake timeout and by
    /// what remained of the overall connect timeout).
    case tlsTimedOut(host: String, phase: TLSPhase, after: Duration)
    /// The proxy in front of the origin refused or broke the tunnel: its CONNECT answer, its
    /// SOCKS handshake, or an HTTPS proxy's own TLS session.
    case proxy(ProxyTunnelError)

    /// A readable account.
    public var description: String {
        switch self {
        case .reactor(let error): error.description
        case .tls(let error): error.description
        case .tlsTimedOut(let host, let phase, let after): "TLS \(phase) with \(host) timed out after \(after)"
        case .proxy(let error): error.description
        }
    }
}
