// The parts of a URL the cookie rules read: the canonical host, the path and whether it is
// secure, split from the URL's text without making strings.
import FoundationEssentials

/// The request-uri of RFC 6265bis as its rules see it: the host (lower case, an IPv6 literal
/// without brackets), the percent-encoded path, and whether the scheme is secure (`https`
/// only: `http://localhost` and `http://127.0.0.1` are not, unlike in browsers).
///
/// Only `http` and `https` URLs have cookies; others (Unix-socket URLs among them) give nil.
/// The parts are slices of the URL's absolute text, so reading them allocates nothing unless
/// the host has upper-case letters.
struct CookieRequestURL {
    /// The canonical host: lower case, no brackets, no port.
    let host: Substring
    /// The path as written (percent-encoded), possibly empty.
    let path: Substring
    /// The scheme is `https`.
    let isSecure: Bool

    /// The parts of `url`, or nil when it is not an `http` or `https` URL with a host.
    init?(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// The parts of `text`, an absolute URL as Foundation writes it. Reads bytes, not
    /// characters: every delimiter is ASCII.
    init?(absoluteString text: String) {
        let bytes = Substring(text).utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = Substring(bytes[..<colon])
        if scheme.equalsIgnoringASCIICase("https") {
            isSecure = true
        } else if scheme.equalsIgnoringASCIICase("http") {
            isSecure = false
        } else {
            return nil
        }
        let afterScheme = bytes[bytes.index(after: colon)...]
        guard afterScheme.starts(with: "//".utf8) else { return nil }
        let authorityAndRest = afterScheme.dropFirst(2)
        let authorityEnd =
            authorityAndRest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? authorityAndRest.endIndex
        var authority = authorityAndRest[..<authorityEnd]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        let hostBytes: Substring.UTF8View
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            hostBytes = authority[..<(authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex)]
        }
        guard !hostBytes.isEmpty else { return nil }
        let hasUpperCase = hostBytes.contains { ($0 &- 0x41) < 26 }
        host = hasUpperCase ? Substring(Substring(hostBytes).lowercased()) : Substring(hostBytes)
        let rest = bytes[authorityEnd...]
        path = Substring(rest[..<(rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex)])
    }

    /// The default-path of §5.1.4: the path up to its last `/`, or `/` when it has at most one
    /// `/` or does not start with one.
    var defaultPath: String {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")),
            lastSlash != bytes.startIndex
        else { return "/" }
        return String(Substring(bytes[..<lastSlash]))
    }
}
