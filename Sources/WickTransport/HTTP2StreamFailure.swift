// Why a request on an HTTP/2 connection failed, precisely enough to act on and to replay safely.
package import WickHTTP1
package import WickHTTP2
package import WickTLS

/// Why `HTTP2ConnectionDriver` ended a stream without a complete response. Each case says
/// whether the server can have processed the request: `wasUnprocessed` is what `TransportExchange`
/// tells the replay decision (RFC 9113 §8.7).
package enum HTTP2StreamFailure: Error, Sendable, CustomStringConvertible {
    /// The connection refused the request before writing anything (its stream limit was reached
    /// between the lease and the start, it was going away, or the head cannot be sent).
    case refused(HTTP2RequestError)
    /// The server reset the stream with this code (`REFUSED_STREAM`: it did not process it).
    case reset(HTTP2ErrorCode)
    /// The server broke a stream or connection rule (HTTP/2 framing, HPACK, flow control, a
    /// limit); the client reset the stream or closed the connection with the error's code.
    case protocolError(HTTP2ProtocolError)
    /// The server sent GOAWAY and the stream was above its last stream identifier: never
    /// processed.
    case goAway(HTTP2ErrorCode)
    /// The server stopped answering: it did not acknowledge this client's SETTINGS or a
    /// liveness PING in time (`settingsTimeout` or `pingTimeout`), so the connection was closed
    /// with the stream open. Whether it processed the request is unknown, as for
    /// `connectionClosed`.
    case connectionUnresponsive(HTTP2ProtocolError)
    /// The connection closed (EOF, an I/O or TLS error: the channel's error when it had one)
    /// while the stream was open.
    case connectionClosed(StreamChannelError?)
    /// Writing to the connection failed.
    case writeFailed(any Error & Sendable)
    /// The response body's `Content-Encoding` could not be decoded, or a decoding limit was hit.
    case undecodableBody(ContentDecodingError)
    /// The request's deadline passed before its response ended.
    case timedOut
    /// The user cancelled the request (RST_STREAM CANCEL was sent for its stream only).
    case cancelled

    /// True when the server cannot have processed the request, so it may be sent again on
    /// another connection whatever its method: refused before writing, `REFUSED_STREAM`, or
    /// above a GOAWAY's last stream identifier (RFC 9113 §8.7).
    package var wasUnprocessed: Bool {
        switch self {
        case .refused(let error):
            switch error {
            case .invalidFieldName, .invalidFieldValue, .headerListTooLarge: false
            case .streamLimitReached, .connectionGoingAway, .connectionClosed, .streamIDsExhausted: true
            }
        case .reset(let code): code == .refusedStream
        case .goAway: true
        case .protocolError, .connectionUnresponsive, .connectionClosed, .writeFailed, .undecodableBody, .timedOut,
            .cancelled:
            false
        }
    }

    /// What went wrong, for logs.
    package var description: String {
        switch self {
        case .refused(let error): "HTTP/2 request refused before sending: \(error)"
        case .reset(let code): "the server reset the HTTP/2 stream (\(code))"
        case .protocolError(let error): "HTTP/2 protocol error: \(error)"
        case .connectionUnresponsive(let error) where error.kind == .settingsTimeout:
            "the HTTP/2 server did not acknowledge the client's SETTINGS in time (SETTINGS_TIMEOUT)"
        case .connectionUnresponsive: "the HTTP/2 server did not answer a PING in time"
        case .goAway(let code): "the server closed the HTTP/2 connection (GOAWAY \(code)) before processing the request"
        case .connectionClosed(let error?): "the HTTP/2 connection closed: \(error)"
        case .connectionClosed(nil): "the HTTP/2 connection closed"
        case .writeFailed(let error): "write failed: \(error)"
        case .undecodableBody(let error): "undecodable response body: \(error)"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        }
    }
}
