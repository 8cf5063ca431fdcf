// The plain reactor channel as a `StreamChannel`, so HTTP runs over it and over TLS alike.
public import WickReactor

extension Channel: StreamChannel {
    /// The channel's addresses; no TLS parameters.
    public var connectionDetails: StreamConnectionDetails {
        StreamConnectionDetails(localAddress: localAddress, remoteAddress: remoteAddress)
    }

    /// Starts the channel with a stream delegate: its events are forwarded, the channel passed
    /// as `any StreamChannel` and errors wrapped in `StreamChannelError.reactor`.
    public func start(delegate: any StreamChannelDelegate) {
        start(delegate: ChannelStreamAdapter(delegate) as any ChannelDelegate)
    }
}

/// Forwards a plain channel's events to a `StreamChannelDelegate`. The channel holds it until it
/// closes; it holds the stream delegate.
final class ChannelStreamAdapter: ChannelDelegate {
    private let target: any StreamChannelDelegate

    init(_ target: any StreamChannelDelegate) {
        self.target = target
    }

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
        target.streamRead(channel, bytes: bytes)
    }

    func channelReadDestination(_ channel: Channel) -> UnsafeMutableRawBufferPointer? {
        target.streamReadDestination(channel)
    }

    func channelReadComplete(_ channel: Channel) {
        target.streamReadComplete(channel)
    }

    func channelReadEOF(_ channel: Channel) {
        target.streamReadEOF(channel)
    }

    func channelWritabilityChanged(_ channel: Channel, isWritable: Bool) {
        target.streamWritabilityChanged(channel, isWritable: isWritable)
    }

    func channelClosed(_ channel: Channel, error: ReactorError?) {
        target.streamClosed(channel, error: error.map(StreamChannelError.reactor))
    }
}
