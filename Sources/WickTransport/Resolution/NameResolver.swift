// The protocol a user implements to bring their own name resolution (a service-discovery client,
// a fixed table, DNS over HTTPS).

/// Resolves host names for a session in place of the system's `getaddrinfo`.
///
/// Set it as `NameResolution.resolver`. It is asked only for names: IP literals, Unix sockets and
/// names with a `ResolveOverride` never reach it. It runs on Swift's concurrency pool, never on
/// one of the session's loops, so it may await its own I/O; the connect timeout bounds it (a late
/// answer is dropped).
public protocol NameResolver: Sendable {
    /// The IP addresses of `host` (IPv4 literals, IPv6 literals with or without brackets) for a
    /// connection to `port`, in the order to try them. Empty means the name does not exist: the
    /// request fails as for an unknown host.
    /// - Throws: any error; the request fails with a resolution failure naming `host` and it. An
    ///   entry that is not an IP literal fails the request the same way.
    func addresses(forHost host: String, port: Int) async throws -> [String]
}
