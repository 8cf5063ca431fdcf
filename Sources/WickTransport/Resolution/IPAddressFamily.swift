// The two IP address families a resolver can be asked for apart (RFC 8305 §3's AAAA and A queries).

/// IPv6 or IPv4: which addresses a `PerFamilyNameResolver` is asked for.
public enum IPAddressFamily: Hashable, Sendable, CustomStringConvertible {
    /// IPv6 addresses (DNS AAAA records).
    case ipv6
    /// IPv4 addresses (DNS A records).
    case ipv4

    /// `IPv6` or `IPv4`.
    public var description: String {
        switch self {
        case .ipv6: "IPv6"
        case .ipv4: "IPv4"
        }
    }
}
