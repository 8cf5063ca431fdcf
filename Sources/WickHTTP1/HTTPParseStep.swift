// What one call to the response parser produced, and how many input bytes it used.

/// The result of one `HTTPResponseParser.parse(_:)` call.
public struct HTTPParseStep: Sendable {
    /// What happened.
    public let event: HTTPParseEvent
    /// How many bytes from the start of the input the parser used; the caller passes the rest
    /// (`bytes[consumed...]`) to the next call.
    public let consumed: Int

    /// A step.
    public init(event: HTTPParseEvent, consumed: Int) {
        self.event = event
        self.consumed = consumed
    }
}

/// One event of a response, in the order they occur.
///
/// For one exchange the parser yields: zero or more `informationalHead`, then either
/// `switchingProtocols` (and nothing more) or `head`, any number of `body`, at most one
/// `trailers`, and `end`. `needMoreData` can come between any two.
public enum HTTPParseEvent: Sendable {
    /// Every byte given was used (partial lines are kept inside the parser); call again with
    /// more bytes.
    case needMoreData
    /// An interim 1xx response other than 101 (100 Continue, 103 Early Hints with its fields);
    /// the final response follows.
    case informationalHead(HTTPResponseHead)
    /// 101 Switching Protocols, or a 2xx answer to CONNECT: the connection now carries another
    /// protocol. The parser stops; the bytes after `consumed` belong to that protocol.
    case switchingProtocols(HTTPResponseHead)
    /// The final response's head.
    case head(HTTPResponseHead)
    /// Body bytes: this range of the buffer given to the same `parse` call (not copied).
    case body(Range<Int>)
    /// The trailer fields of a chunked body (only when there is at least one).
    case trailers(HTTPFieldList)
    /// The response is complete. `connectionReusable` says whether another request may be sent
    /// on the connection (HTTP/1.1 without `Connection: close`, HTTP/1.0 with
    /// `Connection: keep-alive`, never after a close-delimited body).
    case end(connectionReusable: Bool)
}
