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

    /// A response head.
    public init(status: HTTPStatus, headers: HTTPHeaders, contentLength: UInt64? = nil) {
        self.status = status
        self.headers = headers
        self.contentLength = contentLength
    }
}
