// A host name as HSTS compares it (RFC 6797 §8.2): lower-cased, no trailing dot, never an IP.

/// A host name in the form RFC 6797 compares (§8.2: ASCII case-insensitive, as a domain name),
/// or nil for what HSTS never records: an IP address literal (§8.1 step 1, §8.3 "IP-literal or
/// IPv4address"), an empty name.
struct HSTSHost: Hashable, Sendable {
    let name: String

    init?(_ host: String) {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !Self.isIPLiteral(name) else { return nil }
        self.name = name
    }

    /// A superdomain of a checked host, which needs no checking again.
    init(uncheckedName: Substring) {
        name = String(uncheckedName)
    }

    /// The superdomains of this host, nearest first (`a.b.example.com` → `b.example.com`,
    /// `example.com`, `com`).
    var superdomains: some Sequence<Substring> {
        sequence(first: Substring(name)) { current in
            current.firstIndex(of: ".").map { current[current.index(after: $0)...] }
        }.dropFirst()
    }

    /// An IPv6 literal (with or without brackets) or a dotted IPv4 address.
    private static func isIPLiteral(_ name: String) -> Bool {
        if name.contains(":") || name.hasPrefix("[") { return true }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count == 4 && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 3 && label.allSatisfy(\.isASCII) && label.allSatisfy(\.isNumber)
                && Int(label).map { $0 <= 255 } == true
        }
    }
}
