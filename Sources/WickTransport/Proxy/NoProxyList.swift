// The hosts that bypass the proxy, as curl reads NO_PROXY: domain suffixes, addresses, CIDR, `*`.
#if canImport(Glibc)
    import Glibc
#endif

/// Hosts that are reached directly even when a proxy is configured, written as curl reads
/// `NO_PROXY`: entries separated by commas (or spaces), each one of
/// - `*`: every host;
/// - a domain name, with or without a leading dot: `example.com` and `.example.com` both
///   match `example.com` and every name under it (`a.example.com`), never `badexample.com`;
/// - an IPv4 or IPv6 address (IPv6 with or without brackets), matching that address when the
///   request's host is written as an address (no name is resolved to compare);
/// - an address with a CIDR prefix length, `10.0.0.0/8` or `fd00::/8`.
///
/// A `:port` on an entry is ignored (the entry applies to every port), names compare without
/// regard to case, and a trailing dot on the request's host is ignored. Entries that parse as
/// nothing above (a bad prefix length) match nothing.
public struct NoProxyList: Hashable, Sendable {
    enum Entry: Hashable, Sendable {
        case everything
        case domain(String)
        /// 4 or 16 address bytes, and how many leading bits must match.
        case network([UInt8], prefixLength: Int)
        /// Written like an address or network but not one (`10.0.0.0/40`, `name/8`): matches nothing.
        case unusable
    }

    let entries: [Entry]

    /// No host bypasses the proxy.
    public static let empty = NoProxyList("")

    /// Parses a `NO_PROXY` value (see the type's rules).
    public init(_ list: String) {
        entries = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap(Self.entry)
    }

    /// Whether no entry was given.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether a request to `host` goes direct. `host` is a name or an address (IPv6 with or
    /// without brackets).
    public func matches(host: String) -> Bool {
        guard !entries.isEmpty else { return false }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        let address = Self.addressBytes(name)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let domain):
                return address == nil && (name == domain || name.hasSuffix("." + domain))
            case .network(let network, let prefixLength):
                guard let address, address.count == network.count else { return false }
                return Self.prefixMatches(address, network, bits: prefixLength)
            case .unusable:
                return false
            }
        }
    }

    /// One entry, or nil for one that is empty once trimmed.
    private static func entry(_ text: Substring) -> Entry? {
        var value = text.lowercased()
        if value == "*" { return .everything }
        var prefixLength: Int?
        if let slash = value.lastIndex(of: "/") {
            guard let bits = Int(value[value.index(after: slash)...]), bits >= 0 else { return .unusable }
            prefixLength = bits
            value = String(value[..<slash])
        }
        value = withoutPort(value)
        if let bytes = addressBytes(value) {
            let bits = prefixLength ?? bytes.count * 8
            guard bits <= bytes.count * 8 else { return .unusable }
            return .network(bytes, prefixLength: bits)
        }
        if prefixLength != nil { return .unusable }
        while value.hasPrefix(".") { value.removeFirst() }
        if value.hasSuffix(".") { value.removeLast() }
        return value.isEmpty ? nil : .domain(value)
    }

    /// `value` without brackets and a `:port`: `[::1]:80` → `::1`, `host:80` → `host`; a bare
    /// IPv6 address (more than one colon) is left whole.
    private static func withoutPort(_ value: String) -> String {
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<close])
        }
        guard let colon = value.firstIndex(of: ":"), value[value.index(after: colon)...].allSatisfy(\.isNumber)
        else { return value }
        return String(value[..<colon])
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) literal; nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        // SAFETY: inet_pton writes at most 4 bytes into the in_addr we own.
        if inet_pton(AF_INET, text, &v4) == 1 {
            // SAFETY: reads the 4 bytes of the in_addr, which lives across the call.
            return withUnsafeBytes(of: v4) { Array($0) }
        }
        var v6 = in6_addr()
        // SAFETY: inet_pton writes at most 16 bytes into the in6_addr we own.
        if inet_pton(AF_INET6, text, &v6) == 1 {
            // SAFETY: reads the 16 bytes of the in6_addr, which lives across the call.
            return withUnsafeBytes(of: v6) { Array($0) }
        }
        return nil
    }

    /// Whether the first `bits` bits of `address` and `network` agree.
    private static func prefixMatches(_ address: [UInt8], _ network: [UInt8], bits: Int) -> Bool {
        var remaining = bits
        for index in 0..<address.count where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if address[index] & mask != network[index] & mask { return false }
            remaining -= 8
        }
        return true
    }
}
