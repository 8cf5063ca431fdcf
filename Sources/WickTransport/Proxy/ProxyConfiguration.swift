// One proxy: the protocol it speaks, where it listens and the credentials it wants.

/// A proxy: its protocol (`scheme`: HTTP or a SOCKS version), host and port, and optional
/// credentials.
///
/// Through an HTTP proxy, plain `http` requests go in absolute form (`GET http://host/path
/// HTTP/1.1`) and `https` requests through a CONNECT tunnel. Through a SOCKS proxy, every
/// request goes through a tunnel its handshake opens. TLS to an https origin runs inside the
/// tunnel, and the certificate is checked for the origin's name, never the proxy's. The proxy
/// is part of the connection pool's key: proxied and direct requests, or requests through two
/// proxies (two schemes at one address among them) or with two sets of credentials, never
/// share a connection.
public struct ProxyConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// The port of a proxy URL that names none: 1080, as curl uses.
    public static let defaultPort: UInt16 = 1080

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

    /// A proxy at `host:port` speaking `scheme`.
    public init(
        _ scheme: ProxyScheme = .http, host: String, port: UInt16 = Self.defaultPort,
        credentials: ProxyCredentials? = nil
    ) {
        self.scheme = scheme
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        self.host = name
        self.port = port
        self.credentials = credentials
    }

    /// A proxy from a URL as curl takes it: `[scheme://][user[:password]@]host[:port][/]`, the
    /// scheme one of `http`, `socks5`, `socks5h`, `socks4`, `socks4a` (any case; `ProxyScheme`).
    /// Without a scheme it is `http://`; without a port, 1080. The user name and password are
    /// percent-decoded (`%40` for `@`, `%3A` for `:`). An IPv6 host is bracketed: `[::1]:3128`.
    /// - Throws: `ProxyConfigurationError.unsupportedScheme` for any other scheme (`https`
    ///   among them), `.malformedURL` for an empty host, a bad port, a path other than `/`, a
    ///   query, bad percent-encoding, or SOCKS5 credentials longer than 255 bytes.
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
