// What a stream channel (plain or TLS) tells its user: bytes, end of stream, writability, closure.

/// Receives a `StreamChannel`'s events, always on its loop, one at a time.
///
/// The stream holds its delegate strongly until it closes (after `streamClosed`), so a
/// delegate may hold its stream strongly too: the cycle breaks at close.
public protocol StreamChannelDelegate: AnyObject {
    /// Bytes arrived (plaintext, for TLS). `bytes` is borrowed: use or copy them before
    /// returning.
    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>)
    /// Where the next read (plaintext, for TLS) should land instead of the loop's buffer, or nil
    /// for the loop's buffer; see `ChannelDelegate.channelReadDestination(_:)`. The stream writes
    /// at most `count` bytes there and hands them to `streamRead`; the memory must stay valid
    /// until that call returns.
    func streamReadDestination(_ stream: any StreamChannel) -> UnsafeMutableRawBufferPointer?
    /// A batch of `streamRead` calls is over (the socket's reads of one readiness event; the
    /// plaintext one pass of a TLS stream decrypted): work batched per read is done now. Comes
    /// after every batch that delivered bytes, before `streamReadEOF` when the batch ends with
    /// the peer's end, and not when the stream closed during it.
    func streamReadComplete(_ stream: any StreamChannel)
    /// The peer finished sending: TCP FIN on a plain stream, `close_notify` on a TLS stream
    /// (which then closes itself; `streamClosed(error: nil)` follows).
    func streamReadEOF(_ stream: any StreamChannel)
    /// `stream.isWritable` changed.
    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool)
    /// The stream closed: `error` is nil after `close()` or a clean end, otherwise why it
    /// failed (`.tls(.truncated)` for a TLS stream cut without `close_notify`). Called exactly once.
    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?)
}

extension StreamChannelDelegate {
    /// Default: nil (the loop's buffer).
    public func streamReadDestination(_ stream: any StreamChannel) -> UnsafeMutableRawBufferPointer? { nil }
    /// Default: nothing.
    public func streamReadEOF(_ stream: any StreamChannel) {}
    /// Default: nothing (a delegate that handles each read in full needs no batch end).
    public func streamReadComplete(_ stream: any StreamChannel) {}
    /// Default: nothing (a delegate that writes little can ignore writability).
    public func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {}
}
