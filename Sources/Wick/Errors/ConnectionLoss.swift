// Why a connection failed during an exchange, as a Wick value: a cause to act on, the reason as
// text, and whether the server may have processed the request.

/// How a connection failed while a request was on it (`SessionTaskFailure.connectionLost`).
///
/// Match on `cause` and `requestMayHaveBeenProcessed`; show `description`. `underlyingError` is
/// the lower layer's own error, for logs: its type is not part of Wick's API.
public struct ConnectionLoss: Error, Sendable, CustomStringConvertible {
    /// What happened to the connection. New causes may be added in any release, so a `switch`
    /// over causes needs a `default`.
    public struct Cause: Hashable, Sendable, CustomStringConvertible {
        /// The cause's name, as its static member spells it.
        public let description: String

        private init(_ name: String) { description = name }

        /// The server closed the connection before sending any response byte (on a reused
        /// connection, the stale keep-alive race), or it had closed before the request was
        /// written.
        public static let closedBeforeResponse = Cause("closedBeforeResponse")
        /// The server closed the connection in the middle of the response (`responseOffset`
        /// says after how many bytes).
        public static let closedDuringResponse = Cause("closedDuringResponse")
        /// The connection was reset, aborted, or broken while it was read.
        public static let reset = Cause("reset")
        /// Writing the request failed (the peer closed or reset the connection, a write buffer
        /// limit was reached).
        public static let writeFailed = Cause("writeFailed")
        /// TLS failed on the connection: a protocol error or alert, or a close without
        /// `close_notify`, which could hide a truncated response.
        public static let tlsFailed = Cause("tlsFailed")
        /// The response broke HTTP/1.1 or a parser limit (`responseOffset` says where).
        public static let invalidResponse = Cause("invalidResponse")
        /// The server switched protocols (101, or a 2xx to CONNECT), which Wick does not follow.
        public static let unexpectedProtocolSwitch = Cause("unexpectedProtocolSwitch")
        /// The request itself could not be written as given: a head or trailers the encoder
        /// refused, or a body longer or shorter than its `Content-Length`.
        public static let invalidRequest = Cause("invalidRequest")
        /// The server reset the request's HTTP/2 stream (RST_STREAM) before its response was
        /// complete; `reason` names the error code. The connection's other requests go on.
        public static let streamReset = Cause("streamReset")
        /// The HTTP/2 server refused the request without processing it (REFUSED_STREAM, or a
        /// GOAWAY below its stream) even after Wick sent it once more; safe to retry.
        public static let streamRefused = Cause("streamRefused")
        /// The server broke HTTP/2 (framing, HPACK, flow control, a limit against floods):
        /// `reason` names the rule and the error code Wick sent (RFC 9113 §7).
        public static let http2ProtocolError = Cause("http2ProtocolError")
        /// The HTTP/2 server stopped answering: it did not acknowledge Wick's SETTINGS within
        /// `http2SettingsAckTimeout` or a liveness PING within `http2PingAckTimeout`, so the
        /// connection was closed under the request. Whether it processed the request is unknown.
        public static let unresponsive = Cause("unresponsive")
        /// Anything else (the connection closed under the request for a reason of its own).
        public static let other = Cause("other")
    }

    /// What happened to the connection.
    public let cause: Cause
    /// What happened, as text (`the server closed the connection before responding`,
    /// `invalid response: invalidChunkSize at 58`).
    public let reason: String
    /// False only when no request byte was written, so the server cannot have acted on the
    /// request; when true, retrying a non-idempotent request may repeat its effect.
    public let requestMayHaveBeenProcessed: Bool
    /// For `invalidResponse` and `closedDuringResponse`: the bytes of the response read when the
    /// problem became certain. Nil for other causes.
    public let responseOffset: Int?
    /// The lower layer's error, for logs. Its type is not API: do not match on it.
    public let underlyingError: (any Error)?

    /// A loss with `cause`, described by `reason` (for test doubles and adapters that make their
    /// own failures).
    public init(
        cause: Cause, reason: String, requestMayHaveBeenProcessed: Bool, responseOffset: Int? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.cause = cause
        self.reason = reason
        self.requestMayHaveBeenProcessed = requestMayHaveBeenProcessed
        self.responseOffset = responseOffset
        self.underlyingError = underlyingError
    }

    /// The reason, then whether the server may have processed the request.
    public var description: String {
        requestMayHaveBeenProcessed
            ? "\(reason); the request may have been processed by the server"
            : "\(reason); the server did not receive the request"
    }
}
