// What a channel tells its user: bytes arrived, the peer finished, writability, closure.

/// Receives a channel's events, always on the channel's loop, one at a time.
///
/// The channel holds its delegate strongly until it closes (after `channelClosed`), so a
/// delegate may hold its channel strongly too: the cycle breaks at close.
public protocol ChannelDelegate: AnyObject {
    /// Bytes arrived. `bytes` borrows the loop's read buffer: use or copy them before returning.
    func channelRead(_ channel: Channel, bytes: Span<UInt8>)
    /// Where the next read should land instead of the loop's read buffer, or nil for the loop's
    /// buffer. Asked before every read; a delegate that knows the next bytes belong in memory of
    /// its own (a response body's spare capacity) saves copying them there. The channel reads at
    /// most `count` bytes into it and hands them to `channelRead` as usual; the memory must stay
    /// valid until that call returns.
    func channelReadDestination(_ channel: Channel) -> UnsafeMutableRawBufferPointer?
    /// The reads of one readiness event are over (one or more `channelRead` came before): a
    /// delegate that batches work per read (waking a reader) does it now. Comes before
    /// `channelReadEOF` when the batch ends with the peer's FIN; not called when the channel
    /// closed during the batch.
    func channelReadComplete(_ channel: Channel)
    /// The peer shut its write side (TCP FIN): no more bytes will arrive. The channel stays open
    /// for writing; it closes itself once its own write side is shut down too.
    func channelReadEOF(_ channel: Channel)
    /// `channel.isWritable` changed: queued bytes went above the high watermark (`false`) or
    /// back to the low watermark (`true`).
    func channelWritabilityChanged(_ channel: Channel, isWritable: Bool)
    /// The channel closed: `error` is `nil` after `close()` or a clean close of both halves,
    /// otherwise why it failed (reset, broken pipe, loop shut down, ...). Called exactly once.
    func channelClosed(_ channel: Channel, error: ReactorError?)
}

extension ChannelDelegate {
    /// Default: nil (the loop's read buffer).
    public func channelReadDestination(_ channel: Channel) -> UnsafeMutableRawBufferPointer? { nil }
    /// Default: nothing (the channel closes itself when the write side is shut too).
    public func channelReadEOF(_ channel: Channel) {}
    /// Default: nothing (a delegate that handles each read in full needs no batch end).
    public func channelReadComplete(_ channel: Channel) {}
    /// Default: nothing (a delegate that writes little can ignore writability).
    public func channelWritabilityChanged(_ channel: Channel, isWritable: Bool) {}
}
