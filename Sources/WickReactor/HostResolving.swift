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
}

extension Resolver: HostResolving {}
