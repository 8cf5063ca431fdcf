// The pool's origin key: which connections are interchangeable, security settings included.
import WickTLS

/// Identifies the connections a request may use. Two requests share a connection only if their
/// origins are equal, so the key holds every setting that affects security (curl's
/// CVE-2021-22924, CVE-2022-27782 and CVE-2023-27538 were all connection reuse across such a
/// difference).
///
/// The contract for TLS: `tls` is the identity of the `TLSContext` and the `ServerTrustManager`
/// objects, not their contents. Both are immutable once built (`TLSContext` holds the whole
/// `TLSConfiguration`: trust roots, client identity, versions, ciphers, ALPN, stapling,
/// revocation fetcher; `ServerTrustManager` holds the evaluators per host, and its subclasses
/// must keep their state immutable), so the same objects mean the same rules. Two equal
/// configurations in different objects do not share connections: the safe direction. SNI and
/// the name trust is evaluated for are `host`, which is in the key. There is no proxy yet; when
/// one comes, its address and credentials join the key.
struct TransportOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    enum Scheme: String, Hashable, Sendable {
        case http
        case https

        /// 80 or 443.
        var defaultPort: UInt16 { self == .http ? 80 : 443 }
    }

    /// The identity of the TLS rules a connection was authenticated under.
    struct TLSIdentity: Hashable, Sendable {
        let context: ObjectIdentifier
        let trustManager: ObjectIdentifier?
    }

    let scheme: Scheme
    /// The host as given, lowercased (host names are case-insensitive, RFC 3986 §3.2.2).
    let host: String
    let port: UInt16
    /// nil for `http`.
    let tls: TLSIdentity?

    /// An origin; `tls` must be given exactly for `https`.
    init(scheme: Scheme, host: String, port: UInt16, tls: TransportTLS?) {
        precondition((scheme == .https) == (tls != nil), "TransportOrigin: TLS settings go with https only")
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.tls = tls.map {
            TLSIdentity(context: ObjectIdentifier($0.context), trustManager: $0.trustManager.map(ObjectIdentifier.init))
        }
    }

    /// `https://example.com:443`.
    var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
}

/// The TLS rules for `https` requests: the context (configuration, trust store, session cache)
/// and the per-host trust evaluators.
struct TransportTLS: Sendable {
    let context: TLSContext
    let trustManager: ServerTrustManager?
}
