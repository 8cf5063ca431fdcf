// The status line and header fields of a response, as the parser hands them out.

public import WickCore

/// A response's status line and header fields.
///
/// Cheap to receive: the fields are ranges into the parser's storage (see `HTTPFieldList`), so
/// no `String` exists until one is asked for.
public struct HTTPResponseHead: Sendable {
    /// The version from the status line (`HTTP/1.x`).
    public let version: HTTPVersion
    /// The status code.
    public let status: HTTPStatus
    /// The header fields, in wire order.
    public let fields: HTTPFieldList
    /// How the body that follows is delimited (`.none` for interim and 101 responses).
    public let framing: HTTPBodyFraming
    let reasonRange: Range<Int>

    init(
        version: HTTPVersion,
        status: HTTPStatus,
        reasonRange: Range<Int>,
        fields: HTTPFieldList,
        framing: HTTPBodyFraming
    ) {
        self.version = version
        self.status = status
        self.reasonRange = reasonRange
        self.fields = fields
        self.framing = framing
    }

    /// The reason phrase (possibly empty), decoded as UTF-8.
    public var reasonPhrase: String { fields.storage.string(reasonRange) }

    /// Calls `body` with the reason phrase's bytes; the buffer must not escape the call. Does
    /// not allocate.
    public func withReasonPhraseBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try fields.storage.withBytes(reasonRange, body)
    }

    /// The header fields as `HTTPHeaders` (allocates).
    public var headers: HTTPHeaders { fields.headers }
}

/// How a response body is delimited (RFC 9112 §6.3).
public enum HTTPBodyFraming: Hashable, Sendable {
    /// No body: a response to HEAD, a 1xx, 204 or 304, or a 101 / CONNECT tunnel.
    case none
    /// Exactly this many bytes (Content-Length).
    case contentLength(UInt64)
    /// Chunked transfer coding.
    case chunked
    /// Everything until the server closes the connection.
    case untilClose
}
