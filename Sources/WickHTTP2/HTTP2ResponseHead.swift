// A response's status and header fields, validated (RFC 9113 §8.1–§8.3).

public import WickCore

/// An informational (1xx) or final response head from a HEADERS field block.
public struct HTTP2ResponseHead: Sendable, Hashable {
    /// `:status`.
    public let status: HTTPStatus
    /// The header fields in wire order (names lowercase, as HTTP/2 requires).
    public let headers: HTTPHeaders
    /// The `content-length` value, when present; DATA must add up to it (§8.1.1).
    public let contentLength: UInt64?
    /// The decoded bytes of the header fields' names and values (HPACK's compressed size is
    /// not kept), for the exchange's byte count without reading the fields as strings.
    public let fieldBytes: Int

    /// A response head; `fieldBytes` defaults to the UTF-8 lengths of `headers`' names and values.
    public init(status: HTTPStatus, headers: HTTPHeaders, contentLength: UInt64? = nil, fieldBytes: Int? = nil) {
        self.status = status
        self.headers = headers
        self.contentLength = contentLength
        self.fieldBytes = fieldBytes ?? headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}
