// One answer of a resolver that looks the address families up apart (RFC 8305 §3), or its one
// answer when it does not.

/// What a `HostResolving` hands Happy Eyeballs: the answer of one family's query, or every
/// address at once.
public enum ResolverAnswer: Sendable, Equatable {
    /// The AAAA query's answer: IPv6 addresses in the order to try them, or why there are none
    /// (an empty list means none too). The `.ipv4` answer comes before or after it.
    case ipv6(Result<[SocketAddress], ReactorError>)
    /// The A query's answer: IPv4 addresses in the order to try them, or why there are none. The
    /// `.ipv6` answer comes before or after it.
    case ipv4(Result<[SocketAddress], ReactorError>)
    /// Every address, of both families, in the order to try them, or why there are none: the
    /// only answer of a resolver that gives one list (a single `getaddrinfo` call, an override).
    case all(Result<[SocketAddress], ReactorError>)
}
