// A request as HTTP/2 sends it: pseudo-header fields plus the header fields.

public import WickCore

/// The head of a request for `HTTP2ConnectionStateMachine.openStream`: what becomes the
/// `:method`, `:scheme`, `:authority` and `:path` pseudo-header fields (RFC 9113 §8.3.1), and the
/// header fields after them.
public struct HTTP2RequestHead: Sendable, Hashable {
    /// `:method`.
    public var method: HTTPMethod
    /// `:scheme`, `https` or `http`.
    public var scheme: String
    /// `:authority`: host and optional port, as the URL has them (no userinfo).
    public var authority: String
    /// `:path`: path and query, never empty (`/` or `*` for OPTIONS).
    public var path: String
    /// The header fields. Names are sent lowercased; connection-specific fields (Connection,
    /// Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade) and Host are not sent (§8.2.2,
    /// §8.3.1), and TE only as `trailers`.
    public var headers: HTTPHeaders

    /// A request head.
    public init(
        method: HTTPMethod, scheme: String, authority: String, path: String, headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.headers = headers
    }
}
