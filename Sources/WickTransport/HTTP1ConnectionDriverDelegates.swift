// Who hears from an HTTP/1.1 connection driver: the request's response consumer and the connection's owner.
import WickCore
import WickHTTP1
import WickPool
import WickTLS

/// Receives one request's response from `HTTP1ConnectionDriver`, on the connection's loop:
/// `requestSent` when the whole request was handed to the socket, `responseStarted` when its
/// first response byte is read (either may come first: a server may answer early), then
/// `responseHead`, any number of `responseBody` (each batch of them, the bytes of one batch of
/// reads, followed by `responseReadComplete` unless the connection closed during it),
/// `responseTrailers` if there are some, then
/// exactly one `requestFinished`, which is the last call. Any of them may call `cancelRequest()`
/// on the driver.
protocol HTTP1ResponseConsumer: AnyObject {
    /// The whole request (head and body) was handed to the socket.
    func requestSent()
    /// The first byte of the response was read.
    func responseStarted()
    /// The final response head arrived; `isBodyDecoded` says every content coding is removed.
    func responseHead(_ head: HTTPResponseHead, isBodyDecoded: Bool)
    /// Body bytes; borrowed, valid only during the call. They may lie in memory of the
    /// consumer's own, from `responseBodyDestination`.
    func responseBody(_ bytes: UnsafeRawBufferPointer)
    /// Memory of the consumer's own, at most `maximum` bytes, where the next read of body bytes
    /// may land (they come back through `responseBody` in place, saving a copy); nil to have
    /// them in the loop's buffer. Valid until the next call of this consumer.
    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer?
    /// The reads that brought the last `responseBody` calls are over: work batched per read
    /// (waking a reader) is done now.
    func responseReadComplete()
    /// The trailer fields of a chunked response.
    func responseTrailers(_ fields: HTTPFieldList)
    /// The request body's source failed with `error`: the consumer ends the request (it cancels
    /// it with the driver, closing the connection, since the body is incomplete).
    func requestBodyFailed(_ error: any Error)
    /// The request is over: `failure` is nil when the response was delivered in full. `facts`
    /// are what `ReplayPolicy` needs.
    func requestFinished(failure: HTTP1ConnectionError?, facts: HTTP1ExchangeFacts)
}

/// Hears what becomes of a connection after each request, on the connection's loop. Each call
/// comes after the consumer's `requestFinished`, never inside a state-machine action.
protocol HTTP1ConnectionDriverOwner: AnyObject {
    /// A request ended and the connection may carry another; `keepAlive` is the last response's
    /// `Keep-Alive` hint, if it had the header.
    func connectionReleased(_ driver: HTTP1ConnectionDriver, keepAlive: KeepAliveHint?)
    /// The connection closed, for good: reported exactly once. `error` is the channel's error, if
    /// one ended it; nil for a clean end (EOF, `Connection: close`, a local close).
    func connectionClosed(_ driver: HTTP1ConnectionDriver, error: StreamChannelError?)
}
