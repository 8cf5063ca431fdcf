// How a request's body is delimited on the wire (RFC 9112 §6).

/// How the request body is framed; the encoder writes the matching header itself.
public enum HTTPRequestFraming: Hashable, Sendable {
    /// No body and no framing header (GET, HEAD, ...).
    case none
    /// A body of exactly this many bytes: `Content-Length: n`. Send `.contentLength(0)` for an
    /// empty POST body, which some servers require.
    case contentLength(Int)
    /// A body of unknown length: `Transfer-Encoding: chunked`, written with `encodeChunk` and
    /// ended with `encodeLastChunk`.
    case chunked
}
