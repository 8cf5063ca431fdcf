// Who hears from an HTTP/2 connection driver: each stream's response consumer and the connection's owner.
import WickCore
import WickTLS

/// Receives one stream's response from `HTTP2ConnectionDriver`, on the connection's loop, in
/// the order of `HTTP1ResponseConsumer`: `requestSent` when the whole request was queued,
/// `responseStarted` at the stream's first response frame, `responseHead`, any number of
/// `responseBody` (each batch followed by `responseReadComplete`), `responseTrailers` if there
/// are some, then exactly one `streamFinished`, which is the last call. Any of them may cancel
/// the stream through its `HTTP2StreamHandle`.
protocol HTTP2StreamConsumer: AnyObject {
    /// The whole request (head and body) was queued on the connection.
    func requestSent()
    /// The stream's first response frame arrived.
    func responseStarted()
    /// The final response head arrived; `isBodyDecoded` says every content coding is removed.
    func responseHead(status: HTTPStatus, headers: HTTPHeaders, contentLength: UInt64?, isBodyDecoded: Bool)
    /// Body bytes; borrowed, valid only during the call.
    func responseBody(_ bytes: UnsafeRawBufferPointer)
    /// The reads that brought the last `responseBody` calls are over.
    func responseReadComplete()
    /// The trailer fields.
    func responseTrailers(_ headers: HTTPHeaders)
    /// The request body's source failed with `error`: the consumer cancels the stream.
    func requestBodyFailed(_ error: any Error)
    /// The stream is over: `failure` is nil when the response was delivered in full.
    /// `requestBytesWritten` and `responseBytesReceived` count this stream's bytes (head and
    /// body, as queued and as received).
    func streamFinished(failure: HTTP2StreamFailure?, requestBytesWritten: Int, responseBytesReceived: Int)
}

/// Hears what becomes of an HTTP/2 connection, on its loop. Each call comes in a loop task of
/// its own, never inside the driver's handling of an input, and a stream's release comes before
/// its consumer's outcome reaches the caller.
protocol HTTP2ConnectionDriverOwner: AnyObject {
    /// The server's first SETTINGS arrived: the connection takes up to `streamCapacity`
    /// concurrent streams.
    func connectionReady(_ driver: HTTP2ConnectionDriver, streamCapacity: Int)
    /// A later SETTINGS changed how many concurrent streams the connection takes.
    func streamCapacityChanged(_ driver: HTTP2ConnectionDriver, streamCapacity: Int)
    /// A stream ended (whichever way) and its slot is free.
    func streamReleased(_ driver: HTTP2ConnectionDriver)
    /// The server sent GOAWAY: no new streams; the open ones below its last stream identifier
    /// finish.
    func connectionGoingAway(_ driver: HTTP2ConnectionDriver)
    /// The connection closed, for good: reported exactly once. `error` is the channel's error,
    /// if one ended it.
    func connectionClosed(_ driver: HTTP2ConnectionDriver, error: StreamChannelError?)
}
