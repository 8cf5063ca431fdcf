// What a Connector asks for addresses: the system resolver (`Resolver`) or any other source that
// answers on the requesting loop (overrides, a user's service-discovery client).

/// Turns a host name into the socket addresses to connect to, without blocking a loop.
///
/// Conformers call `completion` exactly once, on `loop` (through `loop.execute`), with the addresses
/// in the order to try them, or `ReactorError.unknownHost`, `.resolutionFailed` or `.loopShutDown`.
/// Numeric hosts need not be handled: callers may pass them, and `Resolver` answers them in place.
public protocol HostResolving: Sendable {
    /// Resolves `host` for a stream connection to `port`; `completion` runs once, on `loop`.
    func resolve(
        host: String, port: UInt16, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<[SocketAddress], ReactorError>) -> Void
    )

    /// Resolves `host` for a Happy Eyeballs connect to `port` (RFC 8305 §3): `answer` runs on
    /// `loop` either twice, with `.ipv6` (the AAAA query) and `.ipv4` (the A query) in the order
    /// they arrive, so that connecting can start on the first, or once with `.all` when this
    /// resolver does not look the families up apart. Each answer carries the errors `resolve`
    /// names. The default answers `.all` with `resolve(host:port:on:_:)`'s result.
    func resolveByFamily(
        host: String, port: UInt16, on loop: EventLoop, _ answer: @escaping @Sendable (ResolverAnswer) -> Void
    )
}

extension HostResolving {
    /// Answers once, `.all`, with `resolve(host:port:on:_:)`'s result.
    public func resolveByFamily(
        host: String, port: UInt16, on loop: EventLoop, _ answer: @escaping @Sendable (ResolverAnswer) -> Void
    ) {
        resolve(host: host, port: port, on: loop) { answer(.all($0)) }
    }
}

extension Resolver: HostResolving {}
