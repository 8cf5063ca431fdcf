// One HTTP proxy: where it listens and the credentials it wants.

/// An HTTP proxy (`http://` only): its host and port, and optional Basic credentials.
///
/// Plain `http` requests go to it in absolute form (`GET http://host/path HTTP/1.1`), `https`
/// requests through a CONNECT tunnel, with TLS to the origin inside it (the certificate is
/// checked for the origin's name, never the proxy's). The proxy is part of the connection pool's
/// key: proxied and direct requests, or requests through two proxies or with two sets of
/// credentials, never share a connection.
public struct ProxyConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// The port of a proxy URL that names none: 1080, as curl uses.
    public static let defaultPort: UInt16 = 1080

    /// The proxy's host name or IP address, lowercased, an IPv6 address without brackets.
    public var host: String
    /// The proxy's TCP port.
    public var port: UInt16
    /// Sent as `Proxy-Authorization: Basic ...` when set.
    public var credentials: ProxyCredentials?

    /// A proxy at `host:port`.
    public init(host: String, port: UInt16 = Self.defaultPort, credentials: ProxyCredentials? = nil) {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        self.host = name
        self.port = port
        self.credentials = credentials
    }

    /// A proxy from a URL as curl takes it: `[http://][user[:password]@]host[:port][/]`. Without
    /// a scheme it is `http://`; without a port, 1080. The user name and password are
    /// percent-decoded (`%40` for `@`, `%3A` for `:`). An IPv6 host is bracketed: `[::1]:3128`.
    /// - Throws: `ProxyConfigurationError.unsupportedScheme` for any scheme but `http` (socks
    ///   proxies among them), `.malformedURL` for an empty host, a bad port, a path other than
    ///   `/`, a query, or bad percent-encoding.
    public init(url: String) throws(ProxyConfigurationError) {
        self = try ProxyURLParser.parse(url)
    }

    /// `http://host:port`; credentials are never printed.
    public var description: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// `host:port` (IPv6 bracketed), as errors name the proxy.
    var authority: String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
