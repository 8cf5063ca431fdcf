// The pool's origin key: which connections are interchangeable, security settings included.
import WickCore
import WickTLS

/// Identifies the connections a request may use. Two requests share a connection only if their
/// origins are equal, so the key holds every setting that affects security (curl's
/// CVE-2021-22924, CVE-2022-27782 and CVE-2023-27538 were all connection reuse across such a
/// difference).
///
/// The contract for TLS: two origins' TLS rules are equal when they are the same `TLSContext`
/// object and the same `ServerTrustManager` object, compared by identity, not by contents. Both
/// are immutable once built (`TLSContext` holds the whole `TLSConfiguration`: trust roots, client
/// identity, versions, ciphers, ALPN, stapling, revocation fetcher; `ServerTrustManager` holds
/// the evaluators per host, and its subclasses must keep their state immutable), so the same
/// objects mean the same rules. The key holds the objects themselves, not just their addresses,
/// so an address cannot be reused by a new object with other rules while a connection made
/// under the old ones is pooled. Two equal configurations in different objects do not share
/// connections: the safe direction. SNI and the name trust is evaluated for are `host`, which is
/// in the key.
///
/// The contract for proxies: `proxy` (its scheme, host, port and credentials, compared by
/// value) is in the key, so a proxied and a direct request never share a connection, nor two
/// proxies, nor one proxy under two sets of credentials. Through an HTTP proxy, `http`
/// connections lead to the proxy (requests go in absolute form, so a connection could serve any
/// origin, but it serves only this one: the conservative choice), and `https` connections are
/// CONNECT tunnels to `host:port`; through a SOCKS proxy, connections of both schemes are
/// tunnels to `host:port`. TLS to `host` runs inside a tunnel under the TLS rules in the key, as
/// without a proxy. An HTTPS proxy's trust (`ProxyConfiguration.tlsTrust`) is part of `proxy`'s
/// value, so two trusts never share a connection; the context its TLS sessions are made with
/// (`proxyTLS`, built from that trust and cached by `TransportClient`) is in the key too, by
/// identity, as the origin's TLS rules are.
///
/// The contract for source bindings: `source` (a local address and port range) is in the key, so
/// a connection made from one local address never serves a request that asked for another, nor
/// one that asked for none. Name-resolution overrides are not in the key: they belong to the
/// session, as its pool does, so within one pool a host always goes to the same place.
///
/// The contract for Unix domain sockets (`http+unix`, `https+unix`, or a request's socket-path
/// override): `unixSocketPath` is where connections go, instead of `host:port`, and it is in the
/// key, so two sockets never share a connection, nor a socket and a TCP origin with the same
/// host. `host` stays in the key too: it is the `Host` field and, for `https` over a socket, the
/// SNI name and the name trust is evaluated for (`localhost` unless the request names another),
/// with the TLS rules in the key as for TCP. The path is compared as given (no symlink or `..`
/// resolution): two spellings of one socket are two origins, the safe direction.
package struct TransportOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    package enum Scheme: String, Hashable, Sendable {
        case http
        case https

        /// 80 or 443.
        package var defaultPort: UInt16 { self == .http ? 80 : 443 }
    }

    package let scheme: Scheme
    /// The host as given, lowercased (host names are case-insensitive, RFC 3986 §3.2.2).
    package let host: String
    package let port: UInt16
    /// The TLS rules connections are made under; nil for `http`.
    let tls: TransportTLS?
    /// What only some origins have (a Unix socket, a proxy, a source binding), in one box that
    /// is nil for most: the key is copied into every pool event, timer and action, and hashed on
    /// each, so the common origin stays small (48 bytes instead of 193).
    let route: Route?

    /// The Unix domain socket connections are made to instead of `host:port`; nil for TCP.
    package var unixSocketPath: UnixSocketPath? { route?.unixSocketPath }
    /// The proxy connections go through; nil for direct ones and always for Unix sockets.
    var proxy: ProxyConfiguration? { route?.proxy }
    /// Whether connections go through a proxy, asked without copying the proxy out.
    var isProxied: Bool { route?.isProxied ?? false }
    /// The TLS context of an `https` proxy's sessions; nil for every other proxy and none.
    var proxyTLS: ProxyTLSContext? { route?.proxyTLS }
    /// The local address and ports TCP connections are made from; nil for the kernel's choice
    /// and always for Unix sockets.
    var source: SourceBinding? { route?.source }

    /// An origin. `tls` is required for `https` (traps without) and dropped for `http`;
    /// `proxyTLS` is required for an `https` proxy (traps without) and dropped for any other.
    /// With a `unixSocketPath`, connections go to that socket and `host:port` only name the
    /// server (a proxy is then dropped: a socket is never proxied).
    init(
        scheme: Scheme, host: String, port: UInt16, unixSocketPath: UnixSocketPath? = nil, tls: TransportTLS?,
        proxy: ProxyConfiguration? = nil, proxyTLS: ProxyTLSContext? = nil, source: SourceBinding? = nil
    ) {
        self.init(
            scheme: scheme, host: host, port: port, tls: tls,
            route: Route.of(unixSocketPath: unixSocketPath, proxy: proxy, proxyTLS: proxyTLS, source: source))
    }

    /// An origin whose rare parts are `route` as `Route.of` made it (a request keeps its
    /// route, so making its origin copies none of them). `tls` as above.
    init(scheme: Scheme, host: String, port: UInt16, tls: TransportTLS?, route: Route?) {
        precondition(scheme == .http || tls != nil, "TransportOrigin: https needs TLS rules")
        precondition(
            route?.lacksProxyTLS != true,
            "TransportOrigin: the https proxy \(route?.proxy.map { "\($0)" } ?? "") needs its TLS context")
        self.scheme = scheme
        self.host = host.lowercasedIfNeeded()
        self.port = port
        self.tls = scheme == .https ? tls : nil
        self.route = route
    }

    /// The parts of an origin that only some have (a Unix socket, a proxy, a source binding).
    /// Immutable; compared and hashed by value. A request holds its route too
    /// (`TransportRequest.route`), so neither copies the parts, large and nearly always absent.
    final class Route: Hashable, Sendable {
        let unixSocketPath: UnixSocketPath?
        let proxy: ProxyConfiguration?
        let proxyTLS: ProxyTLSContext?
        let source: SourceBinding?
        /// `proxy != nil`, kept so asking does not copy the configuration.
        let isProxied: Bool
        /// An `https` proxy without its TLS context: no origin may be made of this route.
        let lacksProxyTLS: Bool

        /// The route of these parts, nil when there are none (the common origin). A proxy is
        /// dropped with a Unix socket (a socket is never proxied), and so is the source binding
        /// (it is for TCP); `proxyTLS` is kept only for an `https` proxy, which requires it (an
        /// origin made without it traps: `lacksProxyTLS`).
        static func of(
            unixSocketPath: UnixSocketPath?, proxy: ProxyConfiguration?, proxyTLS: ProxyTLSContext?,
            source: SourceBinding?
        ) -> Route? {
            let proxy = unixSocketPath == nil ? proxy : nil
            let source = unixSocketPath == nil ? source : nil
            if unixSocketPath == nil && proxy == nil && source == nil { return nil }
            return Route(
                unixSocketPath: unixSocketPath, proxy: proxy,
                proxyTLS: proxy?.scheme.usesTLS == true ? proxyTLS : nil, source: source)
        }

        private init(
            unixSocketPath: UnixSocketPath?, proxy: ProxyConfiguration?, proxyTLS: ProxyTLSContext?,
            source: SourceBinding?
        ) {
            self.unixSocketPath = unixSocketPath
            self.proxy = proxy
            isProxied = proxy != nil
            lacksProxyTLS = proxy?.scheme.usesTLS == true && proxyTLS == nil
            self.proxyTLS = proxyTLS
            self.source = source
        }

        static func == (lhs: Route, rhs: Route) -> Bool {
            lhs === rhs
                || (lhs.unixSocketPath == rhs.unixSocketPath && lhs.proxy == rhs.proxy && lhs.proxyTLS == rhs.proxyTLS
                    && lhs.source == rhs.source)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(unixSocketPath)
            hasher.combine(proxy)
            hasher.combine(proxyTLS)
            hasher.combine(source)
        }
    }

    /// `host` without the brackets of an IPv6 literal (`[::1]` is `::1`); any other host as given.
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// `host:port`, an IPv6 host bracketed: the CONNECT target.
    var authority: String { "\(host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host):\(port)" }

    /// `https://example.com:443`, `http://localhost:80 via unix:/run/app.sock`, or
    /// `https://example.com:443 via proxy http://proxy:3128` (never the credentials).
    package var description: String {
        let tcp = "\(scheme)://\(authority)" + (source.map { " from \($0)" } ?? "")
        if let proxy { return "\(tcp) via proxy \(proxy)" }
        return unixSocketPath.map { "\(tcp) via unix:\($0.path)" } ?? tcp
    }
}

/// The TLS rules for `https` requests: the context (configuration, trust store, session cache)
/// and the per-host trust evaluators. Equal when both are the same objects (see `TransportOrigin`).
struct TransportTLS: Hashable, Sendable {
    let context: TLSContext
    let trustManager: ServerTrustManager?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.context === rhs.context && lhs.trustManager === rhs.trustManager
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(context))
        hasher.combine(trustManager.map(ObjectIdentifier.init))
    }
}

/// The context an `https` proxy's TLS sessions are made with, built from its `ProxyTLSTrust` by
/// `TransportClient` (one per trust, kept). Equal when it is the same object (see
/// `TransportOrigin`).
struct ProxyTLSContext: Hashable, Sendable {
    let context: TLSContext

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.context === rhs.context
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(context))
    }
}
