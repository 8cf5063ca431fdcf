// The connection an exchange ran on: new or reused, its addresses, and what TLS negotiated.
import WickReactor
public import WickTLS

/// The connection one exchange ran on, as `EventMonitor.request(_:didAcquireConnection:)` and
/// `TransactionMetrics.connection` report it. Addresses read like `127.0.0.1:54321` and
/// `[::1]:443`; a Unix socket's is its path.
public struct ConnectionInfo: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection had carried an earlier request.
    public var isReused: Bool
    /// The connection as the transport saw it; the strings below are made from it when asked,
    /// so a request that never reads them pays nothing for them.
    let details: StreamConnectionDetails

    init(isReused: Bool, details: StreamConnectionDetails) {
        self.isReused = isReused
        self.details = details
    }

    /// This end's address (`127.0.0.1:54321`); nil for a Unix socket, whose client end has no
    /// name.
    public var localAddress: String? { details.localAddress.map(Self.text) }
    /// The server's address (`127.0.0.1:443`, `[::1]:8443`), or the Unix socket's path.
    public var remoteAddress: String { Self.text(details.remoteAddress) }
    /// The TLS version negotiated; nil for plain http.
    public var tlsVersion: TLSVersion? { details.tlsVersion }
    /// The TLS cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`); nil for
    /// plain http.
    public var tlsCipherSuite: String? { details.tlsCipherSuite }
    /// Whether the TLS handshake resumed a cached session (abbreviated, no certificate chain
    /// sent) instead of a full one; nil for plain http.
    public var isTLSSessionResumed: Bool? { details.tlsSessionResumed }
    /// OpenSSL's verification result for the server's chain in the TLS handshake, against the
    /// session's trust roots and without a host check: 0 when it verified, else the first
    /// `X509_V_ERR_*` code (10 expired, 18 self-signed, 20 issuer not found, ...), as
    /// `SSL_get_verify_result` and curl's `%{ssl_verify_result}` give it. A nonzero code on a
    /// connection in use is one its evaluator chose not to enforce (`DisabledTrustEvaluator`).
    /// Nil for plain http. A refused server's is `ServerTrustError.openSSLVerifyResult`.
    public var tlsVerifyResult: Int? { details.serverTrust?.openSSLVerifyResult }

    /// `new connection 127.0.0.1:54321 → 127.0.0.1:8443, TLSv1.3 TLS_AES_256_GCM_SHA384`.
    public var description: String {
        var text = isReused ? "reused connection " : "new connection "
        if let localAddress { text += "\(localAddress) → " }
        text += remoteAddress
        if let tlsVersion { text += ", \(tlsVersion)" }
        if let tlsCipherSuite { text += " \(tlsCipherSuite)" }
        return text
    }

    private static func text(_ address: SocketAddress) -> String {
        if case .unix(let path) = address { return path }
        return address.description
    }
}
