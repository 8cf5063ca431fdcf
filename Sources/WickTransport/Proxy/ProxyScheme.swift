// The protocol spoken to a proxy, as its URL's scheme names it.

/// How Wick talks to a proxy, named as curl names it in a proxy URL's scheme.
///
/// `http` proxies take plain requests in absolute form and https requests through CONNECT.
/// `https` proxies do the same inside a TLS session with the proxy, whose certificate is checked
/// for the proxy's name under the proxy's own trust (`ProxyConfiguration.tlsTrust`); TLS to an
/// https origin then runs inside that session (TLS inside TLS). Every SOCKS scheme opens a tunnel for every request, http or https, and the request goes
/// through it as it would go to the origin (TLS to the origin inside for https). They differ
/// in who resolves the origin's name and how much the protocol can say:
/// - `socks5` (RFC 1928): Wick resolves the name and sends the address;
/// - `socks5h`: the proxy resolves the name (Wick sends it as written);
/// - `socks4`: Wick resolves the name and sends an IPv4 address (SOCKS4 has no IPv6);
/// - `socks4a`: the proxy resolves the name.
///
/// SOCKS5 proxies may ask for a user name and password (RFC 1929), sent in clear text;
/// SOCKS4 proxies get the user name as their user id, and no password.
public enum ProxyScheme: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// An HTTP proxy: absolute-form requests, CONNECT for https.
    case http
    /// An HTTP proxy spoken to over TLS: absolute-form requests and CONNECT inside the session.
    case https
    /// SOCKS5, the name resolved by Wick.
    case socks5
    /// SOCKS5, the name resolved by the proxy.
    case socks5h
    /// SOCKS4, the name resolved by Wick (IPv4 only).
    case socks4
    /// SOCKS4a, the name resolved by the proxy.
    case socks4a

    /// Whether this is one of the SOCKS schemes.
    public var isSOCKS: Bool { !speaksHTTP }

    /// Whether the proxy is spoken to in HTTP (absolute form, CONNECT): `http` and `https`.
    public var speaksHTTP: Bool { self == .http || self == .https }

    /// Whether the connection to the proxy itself is TLS (`https`).
    public var usesTLS: Bool { self == .https }

    /// The port of a proxy URL that names none: 443 for `https`, 1080 for the others, as curl
    /// uses.
    public var defaultPort: UInt16 { self == .https ? 443 : 1080 }

    /// Whether the proxy, not Wick, resolves the origin's name (`socks5h`, `socks4a`).
    public var proxyResolvesNames: Bool { self == .socks5h || self == .socks4a }

    /// The scheme as written in a URL: `socks5h`.
    public var description: String { rawValue }
}
