// One curl `--connect-to` entry: requests for one host and port connect to another.

/// Where to connect instead, for requests to a host and port, as curl's `--connect-to`.
///
/// Only where connections go changes: the `Host` field, the TLS server name (SNI) and the name
/// the server's certificate is verified for stay the request's host, and the pool keys
/// connections by it as before (the overrides belong to the session, as the pool does). The
/// target is resolved as any name (a `ResolveOverride` for it applies). Through a proxy, the
/// proxy is asked to CONNECT to the target, as curl does. The first entry that matches a request
/// wins.
public struct ConnectToOverride: Hashable, Sendable, CustomStringConvertible {
    /// The request host this applies to, lowercased; nil for every host.
    public let requestHost: String?
    /// The request port this applies to; nil for every port.
    public let requestPort: Int?
    /// The host to connect to, lowercased; nil to keep the request's.
    public let connectHost: String?
    /// The port to connect to; nil to keep the request's.
    public let connectPort: Int?

    /// An override for requests to `requestHost:requestPort` (nil: any) connecting to
    /// `connectHost:connectPort` (nil: the request's).
    /// - Throws: `NameResolutionOverrideError.invalidHost` or `.invalidPort`.
    public init(
        requestHost: String?, requestPort: Int?, connectHost: String?, connectPort: Int?
    ) throws(NameResolutionOverrideError) {
        let entry = [requestHost, requestPort.map(String.init), connectHost, connectPort.map(String.init)]
            .map { $0 ?? "" }.joined(separator: ":")
        self.requestHost = try requestHost.map { name throws(NameResolutionOverrideError) in
            try OverrideSyntax.host(name[...], entry: entry)
        }
        self.requestPort = try requestPort.map { number throws(NameResolutionOverrideError) in
            try OverrideSyntax.port("\(number)"[...], entry: entry)
        }
        self.connectHost = try connectHost.map { name throws(NameResolutionOverrideError) in
            try OverrideSyntax.host(name[...], entry: entry)
        }
        self.connectPort = try connectPort.map { number throws(NameResolutionOverrideError) in
            try OverrideSyntax.port("\(number)"[...], entry: entry)
        }
    }

    /// An override in curl's syntax, `HOST1:PORT1:HOST2:PORT2`, any field empty (an empty
    /// `HOST1` or `PORT1` matches every host or port, an empty `HOST2` or `PORT2` keeps the
    /// request's), IPv6 literals in brackets: `example.com:443:[::1]:8443`, `::backend:`.
    /// - Throws: `NameResolutionOverrideError`: `.malformed` without four fields, or the field's
    ///   own error.
    public init(curlArgument entry: String) throws(NameResolutionOverrideError) {
        let fields = OverrideSyntax.fields(of: entry[...])
        guard fields.count == 4 else { throw .malformed(entry: entry) }
        func host(_ field: Substring) throws(NameResolutionOverrideError) -> String? {
            field.isEmpty ? nil : try OverrideSyntax.host(field, entry: entry)
        }
        func port(_ field: Substring) throws(NameResolutionOverrideError) -> Int? {
            field.isEmpty ? nil : try OverrideSyntax.port(field, entry: entry)
        }
        requestHost = try host(fields[0])
        requestPort = try port(fields[1])
        connectHost = try host(fields[2])
        connectPort = try port(fields[3])
    }

    /// Whether a request to `host:port` (host lowercased) is redirected by this entry.
    func matches(host: String, port: Int) -> Bool {
        (requestHost == nil || requestHost == host) && (requestPort == nil || requestPort == port)
    }

    /// The entry in curl's syntax, IPv6 literals bracketed.
    public var description: String {
        let bracket = { (text: String) in text.contains(":") ? "[\(text)]" : text }
        return [
            requestHost.map(bracket), requestPort.map(String.init), connectHost.map(bracket),
            connectPort.map(String.init),
        ]
        .map { $0 ?? "" }.joined(separator: ":")
    }
}
