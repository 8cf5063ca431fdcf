// How a session turns a request's host into addresses: curl's `--resolve` and `--connect-to`
// overrides, and the resolver behind them.

/// A session's name-resolution rules: where connections go for a request's host and port.
///
/// In order: the first `ConnectToOverride` that matches the request's `host:port` names the
/// target to connect to (the request's own otherwise); a `ResolveOverride` for the target's
/// `host:port` gives its addresses; anything else goes to `resolver` (the system's `getaddrinfo`
/// when nil). TLS always verifies the request's host, and the `Host` field is the request's.
public struct NameResolution: Sendable {
    /// curl's `--resolve` entries; when two name the same `host:port`, the first wins.
    public var resolveOverrides: [ResolveOverride]
    /// curl's `--connect-to` entries; the first that matches a request wins.
    public var connectToOverrides: [ConnectToOverride]
    /// Your own resolver for every other name; nil for the system's (`getaddrinfo` on the
    /// session's resolver threads, honouring /etc/hosts and nsswitch.conf).
    public var resolver: (any NameResolver)?

    /// Rules with the given overrides and resolver; by default none, and the system resolver.
    public init(
        resolveOverrides: [ResolveOverride] = [], connectToOverrides: [ConnectToOverride] = [],
        resolver: (any NameResolver)? = nil
    ) {
        self.resolveOverrides = resolveOverrides
        self.connectToOverrides = connectToOverrides
        self.resolver = resolver
    }

    /// Where a connection for a request to `host:port` goes: the first matching
    /// `ConnectToOverride`'s target, or `host:port` itself. `host` is lowercased already.
    func connectTarget(host: String, port: UInt16) -> (host: String, port: UInt16) {
        guard let entry = connectToOverrides.first(where: { $0.matches(host: host, port: Int(port)) }) else {
            return (host, port)
        }
        return (entry.connectHost ?? host, entry.connectPort.map { UInt16($0) } ?? port)
    }

    /// Whether these are the defaults: no override and the system resolver.
    var isSystemDefault: Bool { resolveOverrides.isEmpty && connectToOverrides.isEmpty && resolver == nil }
}
