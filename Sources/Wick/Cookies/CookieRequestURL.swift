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
    /// The host is an IP address: an IPv6 literal, or a name whose last label is all digits (an
    /// IPv4 address, as URL parsers read it). Such a host has no parent domains.
    let isIPAddress: Bool

    /// The parts of `url`, or nil when it is not an `http` or `https` URL with a host.
    init?(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// The parts of `text`, an absolute URL as Foundation writes it. One pass over its bytes (a
    /// `Span`, read by offset; every delimiter is ASCII), then the parts are slices of `text`.
    init?(absoluteString text: String) {
        let bytes = text.utf8.span
        var colon = 0
        while colon < bytes.count, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        // "http" or "https" in any case, then "//".
        guard colon == 4 || colon == 5, colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/"), bytes[0] | 0x20 == UInt8(ascii: "h"),
            bytes[1] | 0x20 == UInt8(ascii: "t"), bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p"),
            colon == 4 || bytes[4] | 0x20 == UInt8(ascii: "s")
        else { return nil }
        isSecure = colon == 5
        // The authority runs to the first "/", "?" or "#"; the host follows its last "@".
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        var hostStart = authorityStart
        while authorityEnd < bytes.count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { hostStart = authorityEnd + 1 }
            authorityEnd += 1
        }
        // An IPv6 literal without its brackets, or the name up to the port's ":".
        var hostEnd = hostStart
        let bracketed = hostStart < authorityEnd && bytes[hostStart] == UInt8(ascii: "[")
        if bracketed {
            hostStart += 1
            hostEnd = hostStart
            while hostEnd < authorityEnd, bytes[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
            guard hostEnd < authorityEnd else { return nil }
        } else {
            while hostEnd < authorityEnd, bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        }
        guard hostEnd > hostStart else { return nil }
        var hasUpperCase = false
        var lastLabelStart = hostStart
        for offset in hostStart..<hostEnd {
            hasUpperCase = hasUpperCase || (bytes[offset] &- 0x41) < 26
            if bytes[offset] == UInt8(ascii: ".") { lastLabelStart = offset + 1 }
        }
        var lastLabelIsNumeric = lastLabelStart < hostEnd
        for offset in lastLabelStart..<hostEnd where (bytes[offset] &- 0x30) >= 10 { lastLabelIsNumeric = false }
        isIPAddress = bracketed || lastLabelIsNumeric
        var pathEnd = authorityEnd
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        let utf8 = text.utf8
        let host = text[utf8.index(utf8.startIndex, offsetBy: hostStart)..<utf8.index(utf8.startIndex, offsetBy: hostEnd)]
        self.host = hasUpperCase ? Substring(host.lowercased()) : host
        path = text[utf8.index(utf8.startIndex, offsetBy: authorityEnd)..<utf8.index(utf8.startIndex, offsetBy: pathEnd)]
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
