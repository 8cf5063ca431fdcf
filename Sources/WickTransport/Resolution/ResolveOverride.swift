// One curl `--resolve` entry: connections to `host:port` go to these addresses, with no lookup.

/// Addresses to use for `host:port` instead of resolving `host`, as curl's `--resolve`.
///
/// Only where connections go changes: the `Host` field, the TLS server name (SNI) and the name
/// the server's certificate is verified for stay `host`, and the pool keys connections by `host`
/// as before (the overrides belong to the session, as the pool does). The addresses are tried in
/// the order given, raced by Happy Eyeballs like a lookup's. The override applies to the name
/// that is really resolved: a request's host, a proxy's host, or a `ConnectToOverride`'s target.
public struct ResolveOverride: Hashable, Sendable, CustomStringConvertible {
    /// The host name, lowercased (an IPv6 literal without brackets).
    public let host: String
    /// The port the override applies to.
    public let port: Int
    /// The IP addresses to connect to, in order (IPv6 without brackets).
    public let addresses: [String]

    /// An override sending `host:port` to `addresses`.
    /// - Throws: `NameResolutionOverrideError`: `.invalidHost`, `.invalidPort`, `.invalidAddress`,
    ///   or `.malformed` without any address.
    public init(host: String, port: Int, addresses: [String]) throws(NameResolutionOverrideError) {
        let entry = "\(host):\(port):\(addresses.joined(separator: ","))"
        guard !addresses.isEmpty else { throw .malformed(entry: entry) }
        self.host = try OverrideSyntax.host(host[...], entry: entry)
        self.port = try OverrideSyntax.port("\(port)"[...], entry: entry)
        var checked: [String] = []
        for address in addresses { checked.append(try OverrideSyntax.address(address[...], entry: entry)) }
        self.addresses = checked
    }

    /// An override in curl's syntax: `host:port:address[,address]...`, IPv6 literals in brackets
    /// (`[::1]`), e.g. `example.com:443:127.0.0.1,[::1]`. A leading `+` (curl's "expires from the
    /// cache") is accepted and means the same: these overrides never expire.
    /// - Throws: `NameResolutionOverrideError`: `.malformed` without three fields or with an empty
    ///   address, `.removalNotSupported` for `-host:port`, or the field's own error.
    public init(curlArgument entry: String) throws(NameResolutionOverrideError) {
        guard !entry.hasPrefix("-") else { throw .removalNotSupported(entry: entry) }
        let body = entry.hasPrefix("+") ? entry.dropFirst() : entry[...]
        let fields = OverrideSyntax.fields(of: body)
        guard fields.count == 3 else { throw .malformed(entry: entry) }
        let addresses = fields[2].split(separator: ",", omittingEmptySubsequences: false)
        guard !addresses.contains(where: \.isEmpty) else { throw .malformed(entry: entry) }
        host = try OverrideSyntax.host(fields[0], entry: entry)
        port = try OverrideSyntax.port(fields[1], entry: entry)
        var checked: [String] = []
        for address in addresses { checked.append(try OverrideSyntax.address(address, entry: entry)) }
        self.addresses = checked
    }

    /// The entry in curl's syntax, IPv6 literals bracketed.
    public var description: String {
        let bracket = { (text: String) in text.contains(":") ? "[\(text)]" : text }
        return "\(bracket(host)):\(port):\(addresses.map(bracket).joined(separator: ","))"
    }
}
