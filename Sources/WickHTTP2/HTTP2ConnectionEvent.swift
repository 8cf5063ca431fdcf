// What the connection state machine reports after reading: responses, bodies, ends and errors.

public import WickCore

/// One thing that happened on the connection, for the driver to hand to the stream's consumer
/// or the pool. Each stream ends exactly once: with `streamClosed`, `streamReset` or
/// `streamFailed`, with a place in `goAway`'s `unprocessedStreams` or in `connectionFailed`'s or
/// `connectionClosed`'s `openStreams`, with `sendBody` or `sendTrailers` returning that it
/// closed, or with the client's own `resetStream`.
public enum HTTP2ConnectionEvent: Sendable, Hashable {
    /// A 1xx response other than 101 (§8.1); the final response follows.
    case informationalResponse(HTTP2StreamID, HTTP2ResponseHead)
    /// The final response head; `endStream` when no body or trailers follow.
    case response(HTTP2StreamID, HTTP2ResponseHead, endStream: Bool)
    /// Response body bytes. Report them with `bodyConsumed` once the consumer is done with them:
    /// that is what reopens the flow-control windows. The bytes share the machine's read
    /// buffer: a consumer that keeps them past the next `bytesReceived` should copy them, or
    /// that buffer is copied instead on the next read.
    case body(HTTP2StreamID, ArraySlice<UInt8>, endStream: Bool)
    /// The trailer fields; the response is complete.
    case trailers(HTTP2StreamID, HTTPHeaders)
    /// The stream is closed in both directions after a complete exchange; its slot is free.
    case streamClosed(HTTP2StreamID)
    /// The server reset the stream (RST_STREAM). `REFUSED_STREAM` means the server did not
    /// process it (§8.7): safe to replay. `NO_ERROR` after a complete response only asks the
    /// client to stop sending its body (§8.1): `responseComplete` says so.
    case streamReset(HTTP2StreamID, HTTP2ErrorCode, responseComplete: Bool)
    /// The server broke a rule on this stream; the client sent RST_STREAM with the error's code.
    case streamFailed(HTTP2StreamID, HTTP2ProtocolError)
    /// Flow control let more of this stream's body go: call `sendBody` again.
    case sendWindowAvailable(HTTP2StreamID)
    /// The server's SETTINGS were applied (its stream limit may have changed).
    case remoteSettingsChanged(HTTP2Settings)
    /// The server acknowledged a PING this client sent.
    case pingAcknowledged(opaqueData: UInt64)
    /// The server is closing the connection (GOAWAY): no new streams.
    case goAway(HTTP2GoAway)
    /// The server broke a connection-level rule: GOAWAY is queued; write it, then close. Every
    /// open stream failed with it.
    case connectionFailed(HTTP2ProtocolError, openStreams: [HTTP2StreamID])
    /// The transport closed (EOF or an I/O error) with these streams still open. Only those in
    /// `unprocessedStreams` of an earlier `goAway` are known to be safe to replay.
    case connectionClosed(openStreams: [HTTP2StreamID])
}

/// A GOAWAY from the server and what it means for the open streams (RFC 9113 §6.8).
public struct HTTP2GoAway: Sendable, Hashable {
    /// The highest stream the server may have processed; streams above it were not.
    public let lastStreamID: HTTP2StreamID
    /// Why (NO_ERROR for a graceful shutdown).
    public let errorCode: HTTP2ErrorCode
    /// Opaque diagnostic bytes, for logs.
    public let debugData: [UInt8]
    /// Streams this client opened above `lastStreamID`: the server never processed them, so
    /// they are safe to replay on another connection, whatever their method (§8.7). They are
    /// closed now. Streams at or below `lastStreamID` go on.
    public let unprocessedStreams: [HTTP2StreamID]

    /// A GOAWAY's contents.
    public init(
        lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: [UInt8], unprocessedStreams: [HTTP2StreamID]
    ) {
        self.lastStreamID = lastStreamID
        self.errorCode = errorCode
        self.debugData = debugData
        self.unprocessedStreams = unprocessedStreams
    }
}
