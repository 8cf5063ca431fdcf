// Which proxy each request uses: one per scheme, and the hosts that bypass them.

/// The proxy for `http` requests, the proxy for `https` requests, and the hosts reached
/// directly (`noProxy`). Requests over a Unix domain socket never use a proxy.
public struct ProxyRules: Hashable, Sendable {
    /// The proxy for plain `http` requests (in absolute form to an HTTP or HTTPS proxy, through
    /// a SOCKS proxy's tunnel); nil goes direct.
    public var http: ProxyConfiguration?
    /// The proxy for `https` requests (a CONNECT or SOCKS tunnel, TLS to the origin inside; for
    /// an HTTPS proxy, TLS inside TLS); nil goes direct.
    public var https: ProxyConfiguration?
    /// Hosts that go direct whatever the scheme.
    public var noProxy: NoProxyList

    /// Rules; every argument defaults to none.
    public init(http: ProxyConfiguration? = nil, https: ProxyConfiguration? = nil, noProxy: NoProxyList = .empty) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// The proxy a request with `scheme` (`http` or `https`, any case) to `host` goes through,
    /// or nil to go direct (no proxy for the scheme, or `noProxy` matches the host).
    public func proxy(forScheme scheme: String, host: String) -> ProxyConfiguration? {
        let proxy: ProxyConfiguration? =
            switch scheme.lowercased() {
            case "http": http
            case "https": https
            default: nil
            }
        guard let proxy, !noProxy.matches(host: host) else { return nil }
        return proxy
    }
}
