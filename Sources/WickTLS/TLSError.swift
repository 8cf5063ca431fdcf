// What can go wrong in a TLS connection, as distinct, actionable cases.

/// A TLS failure. The reason strings carry OpenSSL's own account when there is one.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot be turned into a context (bad cipher string, key, root...).
    case invalidConfiguration(String)
    /// The handshake failed: a protocol error, an alert from the peer, no shared version or cipher.
    case handshakeFailed(String)
    /// The peer closed the connection without `close_notify`: the data may be truncated.
    case truncated
    /// A protocol error or an alert after the handshake.
    case protocolError(String)
    /// The server's certificate chain was refused by trust evaluation.
    case serverTrustFailed(ServerTrustError)
    /// The server selected none of the application protocols that had to be used (ALPN: an
    /// HTTP/2-only client and a server without `h2`); `selected` is what it chose, if anything.
    case applicationProtocolNotSelected(required: String, selected: String?)

    /// A readable account.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "invalid TLS configuration: \(reason)"
        case .handshakeFailed(let reason): "TLS handshake failed: \(reason)"
        case .truncated: "the peer closed the connection without close_notify: the response may be truncated"
        case .protocolError(let reason): "TLS protocol error: \(reason)"
        case .serverTrustFailed(let error): "server trust failed: \(error)"
        case .applicationProtocolNotSelected(let required, let selected?):
            "the server selected \(selected) where \(required) is required (ALPN)"
        case .applicationProtocolNotSelected(let required, nil):
            "the server selected no application protocol where \(required) is required (ALPN)"
        }
    }
}
