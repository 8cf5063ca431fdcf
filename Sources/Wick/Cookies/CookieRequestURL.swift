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

    /// The parts of `text`, an absolute URL as Foundation writes it.
    init?(absoluteString text: String) {
        let text = Substring(text)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        if scheme.equalsIgnoringASCIICase("https") {
            isSecure = true
        } else if scheme.equalsIgnoringASCIICase("http") {
            isSecure = false
        } else {
            return nil
        }
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { return nil }
        let authorityAndRest = afterScheme.dropFirst(2)
        let authorityEnd = authorityAndRest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? authorityAndRest.endIndex
        var authority = authorityAndRest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority[..<(authority.firstIndex(of: ":") ?? authority.endIndex)]
        }
        guard !host.isEmpty else { return nil }
        if host.utf8.contains(where: { ($0 &- 0x41) < 26 }) { host = Substring(host.lowercased()) }
        self.host = host
        let rest = authorityAndRest[authorityEnd...]
        path = rest[..<(rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }

    /// The default-path of §5.1.4: the path up to its last `/`, or `/` when it has at most one
    /// `/` or does not start with one.
    var defaultPath: String {
        guard path.first == "/", let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex else {
            return "/"
        }
        return String(path[..<lastSlash])
    }
}
