// Where a Session keeps its known HSTS hosts (RFC 6797): the protocol a store conforms to.
public import FoundationEssentials

/// Where a `Session` keeps the hosts that asked for HTTPS only (RFC 6797's "Known HSTS Hosts",
/// `Session.Configuration.hstsStorage`). `InMemoryHSTSStorage` is the default. A store is
/// shared by every request of a session, on any thread, and must be thread-safe; time is an
/// argument so its rules are tested without a clock.
public protocol HSTSStorage: AnyObject, Sendable {
    /// Records `policy`, received from `host` over a secure connection whose certificate was
    /// trusted (§8.1): `max-age=0` forgets the host (§6.1.1); an IP literal is ignored.
    func record(_ policy: StrictTransportSecurity, forHost host: String, now: Date)
    /// Whether requests to `host` must use https at `now` (§8.2): the host is known, or a
    /// superdomain of it is known with `includeSubDomains`. Always false for an IP literal.
    func requiresHTTPS(forHost host: String, now: Date) -> Bool
    /// Whether no host is known (nor preloaded): the session asks before it reads a request's
    /// URL, so an empty store costs an http request no URL parsing.
    var isEmpty: Bool { get }
}
