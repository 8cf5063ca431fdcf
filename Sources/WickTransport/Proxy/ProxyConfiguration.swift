// One proxy: the protocol it speaks, where it listens, the credentials it wants and how it is trusted.

/// A proxy: its protocol (`scheme`: HTTP, HTTPS or a SOCKS version), host and port, optional
/// credentials and, for an HTTPS proxy, the trust its certificate is checked under.
///
/// Through an HTTP proxy, plain `http` requests go in absolute form (`GET http://host/path
/// HTTP/1.1`) and `https` requests through a CONNECT tunnel. An HTTPS proxy is the same inside a
/// TLS session with the proxy: its certificate is checked for the proxy's name under `tlsTrust`,
/// never the origins' trust, and TLS to an https origin runs inside that session (TLS inside
/// TLS). Through a SOCKS proxy, every request goes through a tunnel its handshake opens. TLS to
/// an https origin runs inside the tunnel, and the certificate is checked for the origin's name,
/// never the proxy's. The proxy is part of the connection pool's key: proxied and direct
/// requests, or requests through two proxies (two schemes at one address among them), with two
/// sets of credentials or under two proxy trusts, never share a connection.
public struct ProxyConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public var scheme: ProxyScheme
    /// The proxy's host name or IP address, lowercased, an IPv6 address without brackets.
    public var host: String
    /// The proxy's TCP port.
    public var port: UInt16
    /// Sent to an HTTP proxy as `Proxy-Authorization: Basic ...`, to a SOCKS5 proxy as its
    /// user name and password (RFC 1929; each at most 255 bytes of UTF-8), to a SOCKS4 proxy
    /// as its user id (the user name alone).
    public var credentials: ProxyCredentials?
    /// How an `https` proxy's certificate is checked (unused by the other schemes). Default:
    /// the system store, chain and host name checked.
    public var tlsTrust: ProxyTLSTrust

    /// A proxy at `host:port` speaking `scheme`; without a port, `scheme.defaultPort` (443 for
    /// `https`, 1080 for the others).
    public init(
        _ scheme: ProxyScheme = .http, host: String, port: UInt16? = nil, credentials: ProxyCredentials? = nil,
        tlsTrust: ProxyTLSTrust = .system
    ) {
        self.scheme = scheme
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        self.host = name
        self.port = port ?? scheme.defaultPort
        self.credentials = credentials
        self.tlsTrust = tlsTrust
    }

    /// A proxy from a URL as curl takes it: `[scheme://][user[:password]@]host[:port][/]`, the
    /// scheme one of `http`, `https`, `socks5`, `socks5h`, `socks4`, `socks4a` (any case;
    /// `ProxyScheme`). Without a scheme it is `http://`; without a port, 443 for `https` and
    /// 1080 for the others. The user name and password are percent-decoded (`%40` for `@`, `%3A`
    /// for `:`). An IPv6 host is bracketed: `[::1]:3128`. An `https` proxy gets the default
    /// `tlsTrust` (the system store); set it on the result to trust another CA.
    /// - Throws: `ProxyConfigurationError.unsupportedScheme` for any other scheme,
    ///   `.malformedURL` for an empty host, a bad port, a path other than `/`, a query, bad
    ///   percent-encoding, or SOCKS5 credentials longer than 255 bytes.
    public init(url: String) throws(ProxyConfigurationError) {
        self = try ProxyURLParser.parse(url)
    }

    /// `scheme://host:port`; credentials are never printed.
    public var description: String {
        "\(scheme)://\(authority)"
    }

    /// `host:port` (IPv6 bracketed), as errors name the proxy.
    var authority: String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
