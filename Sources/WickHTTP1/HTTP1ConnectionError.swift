// Why a request on an HTTP/1.1 connection failed, precisely enough to act on.

/// Why `HTTP1ConnectionStateMachine` failed a request. The connection is always closed after one,
/// except for `requestHeadRefused` (nothing was written).
///
/// For `closedBeforeResponse`, `connectionClosedBeforeRequest`, `writeFailed` and
/// `connectionFailed`, the completion's `facts` tell `ReplayPolicy` whether the request may be
/// sent again.
public enum HTTP1ConnectionError: Error, Sendable, CustomStringConvertible {
    /// The encoder refused the request head; nothing was written and the connection is released.
    case requestHeadRefused(HTTPRequestEncodingError)
    /// The encoder refused the request trailers; the body was written but not its end.
    case requestTrailersRefused(HTTPRequestEncodingError)
    /// The body producer offered more bytes than the head's `Content-Length` (`offered` counts
    /// every byte offered, the rejected part included).
    case requestBodyTooLong(declared: Int, offered: Int)
    /// The body producer ended before the head's `Content-Length` was reached.
    case requestBodyTooShort(declared: Int, sent: Int)
    /// Trailers were given for a body framed with `Content-Length`; only chunked bodies carry them.
    case trailersNeedChunkedBody
    /// The response broke RFC 9112 or a parser limit (`unexpectedEOF`: the server closed the
    /// connection in the middle of the response).
    case invalidResponse(HTTPParseError)
    /// The response body's `Content-Encoding` could not be decoded, or a decoding limit was hit.
    case undecodableBody(ContentDecodingError)
    /// The server closed the connection before sending any response byte. On a reused connection
    /// this is the stale keep-alive race: `ReplayPolicy` decides whether to send it again.
    case closedBeforeResponse
    /// The request was started on a connection that had closed already (it closed while the pool
    /// was handing it over); nothing was written.
    case connectionClosedBeforeRequest
    /// The server answered 101 or accepted CONNECT: Wick does not switch protocols.
    case unexpectedProtocolSwitch(status: Int)
    /// The user cancelled the request.
    case cancelled
    /// The request's deadline passed before its response ended.
    case timedOut
    /// Writing the request failed before any response byte arrived (the driver's error).
    case writeFailed(any Error & Sendable)
    /// The connection failed (a read error, a TLS error, a reset; the driver's error).
    case connectionFailed(any Error & Sendable)

    /// What went wrong, for logs.
    public var description: String {
        switch self {
        case .requestHeadRefused(let error): "request head refused: \(error)"
        case .requestTrailersRefused(let error): "request trailers refused: \(error)"
        case .requestBodyTooLong(let declared, let offered):
            "request body of \(offered) bytes exceeds its Content-Length of \(declared)"
        case .requestBodyTooShort(let declared, let sent):
            "request body ended after \(sent) of its \(declared) bytes"
        case .trailersNeedChunkedBody: "trailers need a chunked request body"
        case .invalidResponse(let error): "invalid response: \(error)"
        case .undecodableBody(let error): "undecodable response body: \(error)"
        case .closedBeforeResponse: "the server closed the connection before responding"
        case .connectionClosedBeforeRequest: "the connection closed before the request was sent"
        case .unexpectedProtocolSwitch(let status): "unexpected protocol switch (status \(status))"
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .writeFailed(let error): "write failed: \(error)"
        case .connectionFailed(let error): "connection failed: \(error)"
        }
    }
}
