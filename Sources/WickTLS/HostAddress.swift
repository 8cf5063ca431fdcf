// Telling IP literals from host names (SNI is never sent for an IP literal, RFC 6066 §3).
#if canImport(Glibc)
    import Glibc
#endif

/// Classifies the host part of a URL.
enum HostAddress {
    /// Whether `host` is an IPv4 or IPv6 literal (brackets allowed around IPv6).
    static func isIPLiteral(_ host: String) -> Bool {
        unbracketed(host).map { text in
            var storage = in6_addr()
            // SAFETY: inet_pton writes at most 16 bytes into our in6_addr.
            return inet_pton(AF_INET, text, &storage) == 1 || inet_pton(AF_INET6, text, &storage) == 1
        } ?? false
    }

    /// `host` without the brackets of an IPv6 literal.
    static func unbracketed(_ host: String) -> String? {
        guard !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { return String(host.dropFirst().dropLast()) }
        return host
    }
}
