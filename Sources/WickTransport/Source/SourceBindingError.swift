// Why a source binding (a local address and port range for outgoing connections) was refused.

/// A `SourceBinding` that cannot be used.
public enum SourceBindingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The local address is not an IPv4 or IPv6 literal (interface names are not supported).
    case invalidAddress(String)
    /// The port range is empty, or outside 1...65535, or (in curl's syntax) not `N` or `N-M`.
    case invalidPortRange(String)
    /// Neither an address nor ports were given: nothing to bind.
    case empty

    /// `'eth0' is not an IP address`, and so on.
    public var description: String {
        switch self {
        case .invalidAddress(let text): "'\(text)' is not an IP address (interface names are not supported)"
        case .invalidPortRange(let text): "'\(text)' is not a port or a range of ports in 1-65535"
        case .empty: "a source binding needs an address, ports, or both"
        }
    }
}
