// How Wick decides to trust an HTTPS proxy's certificate, apart from the origins' trust.
public import WickTLS

/// The trust an `https` proxy's certificate is checked under: anchors and whether to check at
/// all, separate from the origins' (`Session.Configuration.trustRoots`, `ServerTrustManager`), as
/// curl's `--proxy-cacert` and `--proxy-insecure` are separate from `--cacert` and `--insecure`.
///
/// By default the proxy's chain must lead to the system store and its leaf must be valid for the
/// proxy's host name (`DefaultTrustEvaluator`); a `ServerTrustManager` is never consulted for
/// the proxy. The TLS session with the proxy offers only `http/1.1` (Wick speaks HTTP/1.1 to a
/// proxy) and otherwise uses `TLSConfiguration`'s defaults: TLS 1.2 or later, forward-secret AEAD
/// suites, sessions resumed per proxy.
///
/// It is part of `ProxyConfiguration`, which keys the connection pool: two proxies that differ
/// only in their trust never share a connection.
public struct ProxyTLSTrust: Hashable, Sendable {
    /// The anchors the proxy's chain must lead to. Default: the system store (`SSL_CERT_FILE`
    /// and `SSL_CERT_DIR` honoured).
    public var roots: TrustRoots
    /// Anchors added to `roots` (a company CA beside the system store).
    public var additionalRoots: [Certificate]
    /// Whether the chain and the host name are checked. `false` is curl's `--proxy-insecure`:
    /// anyone on the path to the proxy can then pose as it and read every request sent in
    /// absolute form, and every CONNECT (what is inside an origin's own TLS stays protected by
    /// the origin's trust). Default true.
    public var verifiesCertificate: Bool

    /// A trust; every argument defaults to the system store, checked.
    public init(roots: TrustRoots = .system, additionalRoots: [Certificate] = [], verifiesCertificate: Bool = true) {
        self.roots = roots
        self.additionalRoots = additionalRoots
        self.verifiesCertificate = verifiesCertificate
    }

    /// The system store, chain and host name checked: the default.
    public static let system = ProxyTLSTrust()

    /// No check at all (curl's `--proxy-insecure`): see `verifiesCertificate` for the risk.
    public static let unverified = ProxyTLSTrust(verifiesCertificate: false)

    /// The TLS settings of connections to the proxy: the defaults, these anchors, `http/1.1`.
    var configuration: TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.trustRoots = roots
        configuration.additionalTrustRoots = additionalRoots
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }

    /// The evaluator the proxy's certificate goes through: `DefaultTrustEvaluator` (chain and
    /// host name), or `DisabledTrustEvaluator` when `verifiesCertificate` is off.
    var evaluator: any ServerTrustEvaluating {
        verifiesCertificate ? DefaultTrustEvaluator() : DisabledTrustEvaluator()
    }
}
