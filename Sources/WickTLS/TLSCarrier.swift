// What a TLS session (or a proxy's CONNECT) runs over: the socket, or another TLS session.
public import WickReactor

/// A stream a `TLSChannel` can run over, and a CONNECT request can be sent on: the plain socket
/// (`Channel`), or a `TLSChannel` itself, for TLS inside TLS (an https origin through an HTTPS
/// proxy: the origin's TLS records travel as the proxy session's plaintext).
///
/// Beyond `StreamChannel`, a carrier can say how much it takes before `write` refuses (a TLS
/// engine must know before it encrypts: records cannot be taken back), end its sending side
/// gracefully, and hand itself back unstarted to the next layer once a proxy has opened a tunnel
/// on it. Every member is used on `loop`'s thread.
public protocol TLSCarrier: StreamChannel {
    /// How many more bytes `write` accepts now without throwing `writeBufferFull`.
    var writeCapacity: Int { get }
    /// The socket's `SocketOptions.maximumBufferedBytes`, which `writeBufferFull` names.
    var maximumBufferedBytes: Int { get }
    /// Ends the sending side once queued bytes have gone, and reads on until the peer ends: a
    /// socket sends its FIN and stays open for reading until the peer's FIN closes it; a TLS
    /// channel sends `close_notify` then its FIN and closes at once (`streamClosed(error: nil)`
    /// now: TLS has no half-close a peer must honour), finishing the socket in the background.
    func finishWriting()
    /// Hands a started carrier back, unstarted: its delegate hears nothing more (not even
    /// `streamClosed`), and `start(delegate:)` may be called again by the layer the stream goes
    /// to next. Bytes not yet delivered wait for that layer. Traps unless started and open.
    func detachDelegate()
}
