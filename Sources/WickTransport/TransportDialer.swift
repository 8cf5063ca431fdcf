// What opens a pool's plain streams when the kernel is replaced (SPI for the whole-client fuzz target).
public import WickReactor

/// Opens the plain stream of every connection a pool makes, in place of the resolver, Happy
/// Eyeballs and `connect(2)`: given the host and port the connection is for (the proxy's when
/// the origin has one) and the pool's loop, it calls `completion` once, on that loop, with a
/// connected, not yet started `Channel` or the `ReactorError` a connect would have failed with.
/// Everything after the dial (TLS for https, the driver, the pool) is the ordinary path.
///
/// SPI (`@_spi(WickSocketSeam)`), not API: the whole-client fuzz target dials channels over a
/// scripted kernel (`Channel(registering:on:remoteAddress:options:io:)`) through it, set with
/// `Session(configuration:dialer:)`. Production code never sets one.
@_spi(WickSocketSeam) public struct TransportDialer: Sendable {
    /// Opens one stream; see the type's comment for the contract.
    public let dial:
        @Sendable (
            _ host: String, _ port: UInt16, _ loop: EventLoop,
            _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
        ) -> Void

    /// A dialer that opens streams with `dial`.
    public init(
        dial:
            @escaping @Sendable (
                _ host: String, _ port: UInt16, _ loop: EventLoop,
                _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
            ) -> Void
    ) {
        self.dial = dial
    }
}
