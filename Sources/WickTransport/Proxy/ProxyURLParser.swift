// Parses a proxy URL the way curl reads `-x` and the proxy environment variables.

/// `[scheme://][user[:password]@]host[:port][/]` into a `ProxyConfiguration`.
///
/// RFC 1929 §2 gives a SOCKS5 user name and password one length byte each, so longer ones are
/// refused here, where the URL is named, rather than at the handshake.
enum ProxyURLParser {
    /// Parses `url` (see `ProxyConfiguration.init(url:)`).
    /// - Throws: `ProxyConfigurationError.unsupportedScheme` or `.malformedURL`.
    static func parse(_ url: String) throws(ProxyConfigurationError) -> ProxyConfiguration {
        let masked = masked(url)
        var rest = Substring(url)
        var scheme = ProxyScheme.http
        if let separator = rest.firstRange(of: "://") {
            let name = rest[..<separator.lowerBound].lowercased()
            guard let known = ProxyScheme(rawValue: name) else { throw .unsupportedScheme(name, url: masked) }
            scheme = known
            rest = rest[separator.upperBound...]
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let tail = rest[authorityEnd...]
        guard tail.isEmpty || tail == "/" else {
            throw .malformedURL(masked, reason: "a proxy URL has no path, query or fragment")
        }
        var authority = rest[..<authorityEnd]
        var credentials: ProxyCredentials?
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userinfo.firstIndex(of: ":")
            let user = try decode(userinfo[..<(colon ?? userinfo.endIndex)], url: masked)
            let password = try colon.map { (index) throws(ProxyConfigurationError) in
                try decode(userinfo[userinfo.index(after: index)...], url: masked)
            }
            credentials = ProxyCredentials(username: user, password: password ?? "")
            if scheme == .socks5 || scheme == .socks5h, user.utf8.count > 255 || (password?.utf8.count ?? 0) > 255 {
                throw .malformedURL(masked, reason: "a SOCKS5 user name and password are at most 255 bytes each")
            }
        }
        let (host, portText) = try splitHostPort(authority, url: masked)
        guard !host.isEmpty else { throw .malformedURL(masked, reason: "the proxy URL has no host") }
        var port = scheme.defaultPort
        if let portText {
            guard portText.allSatisfy({ ("0"..."9").contains($0) }), let number = UInt16(portText), number > 0 else {
                throw .malformedURL(masked, reason: "the port \(portText) is not a number from 1 to 65535")
            }
            port = number
        }
        return ProxyConfiguration(scheme, host: String(host), port: port, credentials: credentials)
    }

    /// `host` and the text after its `:`, if any; an IPv6 host is bracketed.
    private static func splitHostPort(
        _ authority: Substring, url: String
    ) throws(ProxyConfigurationError) -> (Substring, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .malformedURL(url, reason: "an IPv6 host lacks its closing bracket")
            }
            let host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.first == ":" else { throw .malformedURL(url, reason: "unexpected text after the IPv6 host") }
            return (host, after.dropFirst())
        }
        guard let colon = authority.firstIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    /// Percent-decodes a user name or password.
    private static func decode(_ text: Substring, url: String) throws(ProxyConfigurationError) -> String {
        let decoded: [UInt8]
        do throws(PercentDecoding.BadEscape) {
            decoded = try PercentDecoding.bytes(text)
        } catch {
            throw .malformedURL(url, reason: "bad percent-encoding in the credentials")
        }
        guard let value = String(validating: decoded, as: UTF8.self) else {
            throw .malformedURL(url, reason: "the credentials are not UTF-8")
        }
        return value
    }

    /// `url` with the password (everything between the user's `:` and the last `@` of the
    /// authority) replaced by `***`, for error messages.
    static func masked(_ url: String) -> String {
        let start = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        let authorityEnd = url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@"),
            let colon = url[start..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}
