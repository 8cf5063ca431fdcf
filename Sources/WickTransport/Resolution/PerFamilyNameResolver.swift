// A user resolver that answers IPv6 and IPv4 apart, so that Happy Eyeballs can start connecting
// on the first answer (RFC 8305 §3) instead of waiting for one list.

/// A `NameResolver` that looks IPv6 (AAAA) and IPv4 (A) addresses up apart.
///
/// For a connection Wick asks for both families at once, each on Swift's concurrency pool, and
/// connects as the answers come (RFC 8305): IPv6 addresses at once; IPv4 addresses after waiting
/// up to the session's `resolutionDelay` (50 ms) for the IPv6 answer; addresses that come while
/// attempts run join those not yet tried. A plain `NameResolver` is asked once, for one list, and
/// its order is kept. Where one list is needed (a `socks5` proxy's target),
/// `addresses(forHost:port:)` asks both families at once and lists IPv6 first; a conformer need
/// implement only `addresses(forHost:port:family:)`.
public protocol PerFamilyNameResolver: NameResolver {
    /// The `family` addresses of `host` (literals of that family, IPv6 with or without brackets)
    /// for a connection to `port`, in the order to try them. Empty means the name has none of
    /// that family.
    /// - Throws: any error: the family counts as having no address; if the other family has none
    ///   either, the request fails with a resolution failure naming `host` and the first error.
    ///   An entry that is not an IP literal of `family` fails that family the same way.
    func addresses(forHost host: String, port: Int, family: IPAddressFamily) async throws -> [String]
}

extension PerFamilyNameResolver {
    /// Both families' addresses, asked at once, IPv6 first; a family that throws counts as
    /// having none.
    /// - Throws: the IPv6 error when both families throw.
    public func addresses(forHost host: String, port: Int) async throws -> [String] {
        func settle(_ family: IPAddressFamily) async -> Result<[String], any Error> {
            do {
                return .success(try await addresses(forHost: host, port: port, family: family))
            } catch {
                return .failure(error)
            }
        }
        async let ipv6 = settle(.ipv6)
        async let ipv4 = settle(.ipv4)
        switch (await ipv6, await ipv4) {
        case (.failure(let error), .failure): throw error
        case (let v6, let v4): return ((try? v6.get()) ?? []) + ((try? v4.get()) ?? [])
        }
    }
}
