// One connection abstraction for the HTTP driver: a plain reactor `Channel` or a `TLSChannel`.
public import WickReactor

/// A connected byte stream owned by one event loop: the plain `Channel` and the `TLSChannel`
/// both conform, so the HTTP/1.1 connection driver runs unchanged over either.
///
/// The contract is the reactor `Channel`'s: every member is used on `loop`'s thread (each traps
/// elsewhere); nothing is read before `start(delegate:)`; writes are queued and bounded by
/// `SocketOptions.maximumBufferedBytes`; `isWritable` follows the channel's watermarks; the
/// delegate hears `streamClosed` exactly once.
///
/// Differences a driver may rely on: a TLS stream's `streamReadEOF` means `close_notify`
/// arrived, and the stream then closes itself (`streamClosed(error: nil)` follows); a plain
/// stream's means TCP FIN, and it stays open for writing until closed. A TLS stream whose peer
/// ends the TCP stream without `close_notify` never reports `streamReadEOF`: it closes with
/// `.tls(.truncated)`, so a close-delimited body cannot be taken as complete.
public protocol StreamChannel: AnyObject, Sendable {
    /// The loop that owns the stream.
    var loop: EventLoop { get }
    /// The address the socket is connected to.
    var remoteAddress: SocketAddress { get }
    /// The stream's addresses and TLS parameters. Cheap after the first call: the value is kept.
    var connectionDetails: StreamConnectionDetails { get }
    /// Whether the stream is open (neither side has closed it, no error ended it).
    var isOpen: Bool { get }
    /// Whether queued bytes are at or under the socket's watermarks; stop writing while `false`
    /// and wait for `streamWritabilityChanged(_:isWritable: true)`.
    var isWritable: Bool { get }
    /// Sets the delegate and starts reading. Call once. A stream that has already closed
    /// reports `streamClosed` at once.
    func start(delegate: any StreamChannelDelegate)
    /// Queues `bytes` (plaintext, for TLS) to be sent.
    /// - Throws: `ReactorError.channelClosed` once closed, `.outputClosed` after a plain
    ///   channel's `shutdownWrite()`, `.writeBufferFull` if the bytes would take the queue past
    ///   `maximumBufferedBytes` (then nothing is queued).
    func write(_ bytes: ArraySlice<UInt8>) throws(ReactorError)
    /// Stops reading: the socket is not read, and TCP flow control slows the peer.
    func pauseReading()
    /// Resumes reading after `pauseReading()`.
    func resumeReading()
    /// Closes the stream; the delegate hears `streamClosed(error: nil)` now. A TLS stream sends
    /// `close_notify` first. Closing a closed stream does nothing.
    func close()
    /// Tells the stream that no exchange is in flight on it (a pooled connection going idle),
    /// so it may free what only a busy stream needs: a TLS stream frees OpenSSL's record
    /// buffers (`TLSConfiguration.releasesBuffersWhenIdle`), which its next read or write
    /// allocates again. A hint: reading and writing work as before. The default does nothing.
    func streamBecameIdle()
    /// The socket whose readiness moves this stream, for a caller that waits for it inline
    /// (`EventLoop.waitInlineIfAsleep`); nil once closed, or for a stream without one of its
    /// own. The default is nil.
    var readinessDescriptor: Int32? { get }
}

extension StreamChannel {
    /// None: such a stream is never waited for inline.
    public var readinessDescriptor: Int32? { nil }

    /// Does nothing: a plain stream holds no buffer while idle.
    public func streamBecameIdle() {}
}
