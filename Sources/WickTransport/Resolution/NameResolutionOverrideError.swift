// Why a name-resolution override (curl's `--resolve` or `--connect-to` entry) was refused.

/// A `ResolveOverride` or `ConnectToOverride` that cannot be used, naming the entry and its fault.
public enum NameResolutionOverrideError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry does not have the fields its syntax needs (`host:port:address[,address]...` for
    /// `--resolve`, `HOST1:PORT1:HOST2:PORT2` for `--connect-to`).
    case malformed(entry: String)
    /// A host is empty where one is required, or holds a space, a control byte, `/`, or a `:`
    /// outside an IPv6 literal's brackets.
    case invalidHost(entry: String, host: String)
    /// A port is not a number in 1...65535.
    case invalidPort(entry: String, port: String)
    /// An address is not an IPv4 or IPv6 literal.
    case invalidAddress(entry: String, address: String)
    /// A `--resolve` entry starting with `-` (curl's removal of an earlier entry): a list of
    /// overrides has nothing to remove; leave the entry out instead.
    case removalNotSupported(entry: String)

    /// `--resolve entry 'a.test:80:x': 'x' is not an IP address`, and so on.
    public var description: String {
        switch self {
        case .malformed(let entry): "'\(entry)' does not have the fields its syntax needs"
        case .invalidHost(let entry, let host): "'\(entry)': '\(host)' is not a host name or IP address"
        case .invalidPort(let entry, let port): "'\(entry)': '\(port)' is not a port (1-65535)"
        case .invalidAddress(let entry, let address): "'\(entry)': '\(address)' is not an IP address"
        case .removalNotSupported(let entry): "'\(entry)': removing an entry ('-host:port') is not supported"
        }
    }
}
