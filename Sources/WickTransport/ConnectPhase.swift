// Where a new connection stands while it is being made: the phases a deadline can end.

/// The phase a connection attempt is in (`TransportConnector` reports each as it begins), and
/// so the phase a request waiting on it times out in when its deadline passes first.
package enum ConnectPhase: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// Resolving the name and connecting the socket (Happy Eyeballs), or a Unix socket's connect.
    case connecting
    /// Waiting for an HTTP proxy's answer to CONNECT, for a SOCKS proxy's handshake to end, or
    /// for an HTTPS proxy's TLS handshake (then its answer to CONNECT, for https).
    case proxyConnect
    /// The TLS handshake and the evaluation of the server's trust.
    case tlsHandshake

    /// `during the TCP connect`...
    package var description: String {
        switch self {
        case .connecting: "during name resolution and the TCP connect"
        case .proxyConnect: "while waiting for the proxy's answer to CONNECT"
        case .tlsHandshake: "during the TLS handshake"
        }
    }
}
