// Why the connection would not take a request or its trailers.

/// A request `HTTP2ConnectionStateMachine` refused. Nothing was written for it and the HPACK
/// state is unchanged, so the request may go to another connection as it is (except for
/// `invalidField…`, which no connection would send).
public enum HTTP2RequestError: Error, Hashable, Sendable {
    /// A header name that is empty or holds a byte outside RFC 9110's token characters.
    case invalidFieldName(String)
    /// A header value, or a pseudo-header value, holding NUL, CR or LF (or, in `:method`,
    /// `:scheme` and `:path`, a space or control byte); the field's name is given.
    case invalidFieldValue(name: String)
    /// The connection has as many open streams as the smaller of the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS and `HTTP2Configuration.maxConcurrentStreams`.
    case streamLimitReached
    /// The server sent GOAWAY, or this client started closing: no new streams.
    case connectionGoingAway
    /// The connection failed or closed.
    case connectionClosed
    /// Every client stream identifier up to 2^31 - 1 has been used: open a new connection.
    case streamIDsExhausted
    /// The request's header list is larger than the server's SETTINGS_MAX_HEADER_LIST_SIZE.
    case headerListTooLarge(size: Int, limit: Int)
}
