// Which HTTP versions a session's connections may speak, and how a connection's is chosen.
import WickTLS

/// Which HTTP versions connections speak (`Session.Configuration.httpVersion`).
///
/// Over TLS the choice is ALPN's: the client offers the protocols below, most preferred first,
/// and the server picks. A cleartext origin speaks HTTP/1.1, or HTTP/2 with prior knowledge
/// (`h2c`, RFC 9113 §3.3) when `Session.Configuration.http2PriorKnowledge` is on or the
/// preference is `http2Only`; never through an HTTP proxy, which takes plain requests in
/// HTTP/1.1's absolute form.
public enum HTTPVersionPreference: Hashable, Sendable {
    /// HTTP/1.1 only: ALPN offers `http/1.1`.
    case http1Only
    /// ALPN offers `h2` then `http/1.1`; the server's choice is used (`Session`'s default).
    case preferHTTP2
    /// ALPN offers `h2` alone; a server that does not select it fails the connection
    /// (`TLSError.applicationProtocolNotSelected`, not retried). Cleartext origins use prior
    /// knowledge.
    case http2Only

    /// The ALPN protocol names to offer, most preferred first.
    public var applicationProtocols: [String] {
        switch self {
        case .http1Only: ["http/1.1"]
        case .preferHTTP2: ["h2", "http/1.1"]
        case .http2Only: ["h2"]
        }
    }
}

extension TransportSettings {
    /// The streams a new connection to `origin` is expected to carry, when it is expected to
    /// speak HTTP/2 (the pool's multiplexing hint): HTTP/2 offered over TLS, or prior knowledge.
    func expectedStreamCapacity(of origin: TransportOrigin) -> Int? {
        // The proxy is asked last, and only whether there is one: reading `origin.proxy` copied
        // and destroyed a `ProxyConfiguration?` (through its generic value witnesses) per request.
        let expectsHTTP2 =
            origin.tls != nil
            ? httpVersion != .http1Only
            : (http2PriorKnowledge || httpVersion == .http2Only) && !origin.isProxied
        return expectsHTTP2 ? http2.configuration.maxConcurrentStreams : nil
    }

    /// Whether a connection just made to `origin` speaks HTTP/2: the protocol its TLS handshake
    /// with the origin selected (`h2`), or prior knowledge for a cleartext origin without a
    /// proxy. (The TLS session with an HTTPS proxy, which carries a cleartext origin's requests,
    /// is not the origin's: it offers only `http/1.1`.)
    /// - Returns: `.failure(.tls(.applicationProtocolNotSelected))` when HTTP/2 is required
    ///   and the server selected something else.
    func speaksHTTP2(on channel: any StreamChannel, origin: TransportOrigin) -> Result<Bool, StreamChannelError> {
        guard origin.tls != nil, let tls = channel as? TLSChannel else {
            return .success(origin.proxy == nil && (http2PriorKnowledge || httpVersion == .http2Only))
        }
        let selected = tls.negotiatedApplicationProtocol
        if selected == "h2" { return .success(true) }
        if httpVersion == .http2Only {
            return .failure(.tls(.applicationProtocolNotSelected(required: "h2", selected: selected)))
        }
        return .success(false)
    }
}
