// Why a proxy's tunnel to an origin (HTTP CONNECT, an HTTPS proxy's TLS session, a SOCKS
// handshake) could not be opened.

/// A tunnel through a proxy failed before anything meant for the origin was sent: an HTTPS
/// proxy's TLS session (`tlsFailed`, `tlsTimedOut`), an HTTP proxy's CONNECT, or a SOCKS proxy's
/// handshake (`socks`). `proxy` is the proxy's `host:port`.
public enum ProxyTunnelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The proxy answered CONNECT with a status other than 2xx (407: it wants credentials, or
    /// refused the ones sent; 403: not allowed; 502: it could not reach the origin).
    /// `credentialsSent` says whether the request carried `Proxy-Authorization`.
    case refused(proxy: String, status: Int, reason: String, credentialsSent: Bool)
    /// The proxy's answer was not a valid HTTP/1.1 response head; `reason` is the parser's error.
    case invalidResponse(proxy: String, reason: String)
    /// The proxy closed the connection before it answered CONNECT.
    case closedBeforeResponse(proxy: String)
    /// Bytes followed the proxy's 2xx head before the client spoke: they belong to no protocol
    /// the client started, so the tunnel is not trusted.
    case unexpectedBytes(proxy: String, count: Int)
    /// The proxy did not answer CONNECT (or finish its SOCKS handshake) before the connect
    /// deadline; `after` is how long that phase ran.
    case timedOut(proxy: String, after: Duration)
    /// The SOCKS proxy stopped the handshake: the failure names the step and the reason.
    case socks(proxy: String, SOCKSFailure)
    /// The TLS session with an HTTPS proxy could not be established: its certificate was
    /// refused under the proxy's own trust (`.serverTrustFailed`, whose host is the proxy's),
    /// the handshake failed, or the proxy's TLS settings could not be made into a context.
    case tlsFailed(proxy: String, TLSError)
    /// The TLS handshake with an HTTPS proxy, or the evaluation of its certificate (`phase`),
    /// did not finish within the TLS handshake timeout or the connect deadline; `after` is how
    /// long it ran.
    case tlsTimedOut(proxy: String, phase: StreamChannelError.TLSPhase, after: Duration)

    /// A readable account.
    public var description: String {
        switch self {
        case .refused(let proxy, 407, let reason, let sent):
            "proxy \(proxy) requires authentication (407 \(reason))"
                + (sent ? "; the credentials sent were refused" : "; no credentials were sent")
        case .refused(let proxy, let status, let reason, _):
            "proxy \(proxy) refused the tunnel: \(status) \(reason)"
        case .invalidResponse(let proxy, let reason):
            "proxy \(proxy) answered CONNECT with an invalid response: \(reason)"
        case .closedBeforeResponse(let proxy): "proxy \(proxy) closed the connection before answering CONNECT"
        case .unexpectedBytes(let proxy, let count):
            "proxy \(proxy) sent \(count) unexpected bytes after accepting CONNECT"
        case .timedOut(let proxy, let after): "proxy \(proxy) did not answer CONNECT within \(after)"
        case .socks(let proxy, let failure): "SOCKS proxy \(proxy) \(failure)"
        case .tlsFailed(let proxy, .serverTrustFailed(let trust)):
            "HTTPS proxy \(proxy): its certificate was refused under the proxy's trust: \(trust)"
        case .tlsFailed(let proxy, let error): "HTTPS proxy \(proxy): \(error)"
        case .tlsTimedOut(let proxy, let phase, let after):
            "HTTPS proxy \(proxy): TLS \(phase) timed out after \(after)"
        }
    }
}
