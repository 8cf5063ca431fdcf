// The matching rules of RFC 6265bis §5.1.3 (domains) and §5.1.4 (paths), over bytes.

/// Domain and path matching (RFC 6265bis §5.1.3, §5.1.4). Both compare bytes, not characters.
enum CookieMatching {
    /// §5.1.3: `host` domain-matches `domain` when they are equal, or `domain` is a suffix of
    /// `host` that follows a `.` in it and `host` is a host name, not an IP address. Both are
    /// canonical (lower case).
    static func domain(_ host: some StringProtocol, matches domain: some StringProtocol) -> Bool {
        let (host, domain) = (Substring(host).utf8, Substring(domain).utf8)
        if host.elementsEqual(domain) { return true }
        guard host.count > domain.count, host.reversed().starts(with: domain.reversed()) else { return false }
        let dot = host.index(host.endIndex, offsetBy: -domain.count - 1)
        return host[dot] == UInt8(ascii: ".") && !isIPAddress(Substring(host))
    }

    /// §5.1.4: `requestPath` path-matches `cookiePath` when they are equal, or `cookiePath` is
    /// a prefix of it that ends in `/` or is followed by `/` in it. An empty request path is
    /// read as `/`. Over spans of the two paths' bytes: this runs for every stored cookie of a
    /// request's domains.
    static func path(_ requestPath: Span<UInt8>, matches cookiePath: Span<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        guard !requestPath.isEmpty else { return cookiePath.count == 1 && cookiePath[0] == slash }
        guard requestPath.count >= cookiePath.count, !cookiePath.isEmpty else { return false }
        for offset in 0..<cookiePath.count where requestPath[offset] != cookiePath[offset] { return false }
        return requestPath.count == cookiePath.count || cookiePath[cookiePath.count - 1] == slash
            || requestPath[cookiePath.count] == slash
    }

    /// Whether two slices hold the same bytes: a length check, then the bytes over spans (the
    /// generic `elementsEqual` of two UTF-8 views costs several times more).
    static func bytes(of first: Substring, equal second: Substring) -> Bool {
        let (first, second) = (first.utf8.span, second.utf8.span)
        guard first.count == second.count else { return false }
        for offset in 0..<first.count where first[offset] != second[offset] { return false }
        return true
    }

    /// Whether `host` is an IP address: an IPv6 literal (it has a `:`) or a name whose last
    /// label is all digits (an IPv4 address, as URL parsers read it).
    static func isIPAddress(_ host: some StringProtocol) -> Bool {
        let bytes = Substring(host).utf8
        if bytes.contains(UInt8(ascii: ":")) { return true }
        let lastLabel = bytes[(bytes.lastIndex(of: UInt8(ascii: ".")).map(bytes.index(after:)) ?? bytes.startIndex)...]
        guard !lastLabel.isEmpty else { return false }
        return lastLabel.allSatisfy { ($0 &- 0x30) < 10 }
    }
}
