// What a server did wrong, whether it ends the stream or the connection, and the RFC error code.

/// A rule of RFC 9113 (or of a limit this client sets) that the server broke.
///
/// A *connection error* (`streamID == nil`, §5.4.1) ends the connection: the client sends GOAWAY
/// with `code` and closes. A *stream error* (§5.4.2) ends one stream: the client sends
/// RST_STREAM with `code` and the other streams go on.
public struct HTTP2ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What rule was broken.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        // Frames (§4, §6).
        /// A frame's length is larger than the SETTINGS_MAX_FRAME_SIZE this client advertised.
        case frameTooLarge
        /// A frame whose payload has a fixed size (PING 8, RST_STREAM 4, WINDOW_UPDATE 4,
        /// PRIORITY 5, SETTINGS a multiple of 6, GOAWAY at least 8, SETTINGS ACK 0) has another,
        /// or is too short for its own fields (padding length, priority).
        case invalidFrameSize
        /// The padding length is not less than the frame's payload (§6.1).
        case invalidPadding
        /// A DATA, HEADERS, PRIORITY, RST_STREAM, PUSH_PROMISE or CONTINUATION frame on stream 0.
        case frameRequiresStream
        /// A SETTINGS, PING or GOAWAY frame on a stream other than 0.
        case frameRequiresConnection
        /// A SETTINGS value outside its range: ENABLE_PUSH other than 0 from a server,
        /// INITIAL_WINDOW_SIZE above 2^31 - 1, MAX_FRAME_SIZE outside 16,384...16,777,215.
        case invalidSettingValue
        /// A WINDOW_UPDATE with an increment of 0 (§6.9).
        case zeroWindowIncrement

        // Connection (§3.4, §4.3, §5, §6).
        /// The server's first frame is not SETTINGS (§3.4).
        case missingServerPreface
        /// A frame other than CONTINUATION on the same stream arrived inside a field block (§4.3).
        case expectedContinuation
        /// A CONTINUATION frame arrived outside a field block (§6.10).
        case unexpectedContinuation
        /// The field block could not be decoded (`hpackError` says why): the HPACK state is lost.
        case compressionFailed
        /// A frame other than PRIORITY on a stream this client has not opened yet (§5.1).
        case frameOnIdleStream
        /// The server tried to open a stream (HEADERS on an even or unopened stream).
        case serverInitiatedStream
        /// PUSH_PROMISE, which this client disabled with SETTINGS_ENABLE_PUSH = 0 (§8.4).
        case pushPromiseRefused
        /// A frame other than WINDOW_UPDATE, PRIORITY or RST_STREAM after the server ended the
        /// stream (§5.1, half-closed (remote)).
        case frameAfterEndStream
        /// The server sent more DATA than the flow-control window allowed (§6.9.1).
        case flowControlWindowExceeded
        /// A WINDOW_UPDATE or a SETTINGS_INITIAL_WINDOW_SIZE change took a window above
        /// 2^31 - 1 (§6.9.1, §6.9.2).
        case flowControlWindowOverflow
        /// A GOAWAY raised the last stream identifier of an earlier one (§6.8).
        case goAwayLastStreamIncreased
        /// A PRIORITY or HEADERS frame made a stream depend on itself (§5.3.1).
        case streamDependsOnItself

        // Limits against hostile servers (`HTTP2Configuration`).
        /// A field block used more CONTINUATION frames than `maxContinuationFrames`.
        case tooManyContinuationFrames
        /// A field block's encoded bytes exceeded `maxFieldBlockBytes`.
        case fieldBlockTooLarge
        /// The decoded field section exceeded `maxHeaderListSize`.
        case headerListTooLarge
        /// SETTINGS, PING, RST_STREAM and empty frames arrived faster than `controlFrameRate`.
        case controlFrameFlood

        // Liveness (rule 12 of the connection state machine).
        /// The server did not acknowledge this client's SETTINGS within `settingsAckTimeout`
        /// (§6.5.3); sent as SETTINGS_TIMEOUT.
        case settingsTimeout
        /// The server did not answer a liveness PING within `pingAckTimeout`.
        case pingTimeout

        // Messages (§8.1–§8.3): a malformed response.
        /// A field name holds an uppercase letter (§8.2).
        case uppercaseFieldName
        /// A field name is empty or holds a byte RFC 9113 §8.2.1 forbids.
        case invalidFieldName
        /// A field value holds NUL, CR or LF, or starts or ends with whitespace (§8.2.1).
        case invalidFieldValue
        /// A connection-specific field (Connection, Keep-Alive, Proxy-Connection,
        /// Transfer-Encoding, Upgrade) in a response (§8.2.2).
        case connectionSpecificField
        /// A response without `:status`.
        case missingStatus
        /// A `:status` that is not three digits from 100 to 999.
        case invalidStatus
        /// A pseudo-header field twice.
        case duplicatePseudoHeader
        /// A pseudo-header other than `:status` in a response.
        case invalidPseudoHeader
        /// A pseudo-header after a regular field (§8.3).
        case pseudoHeaderAfterRegularField
        /// A pseudo-header in trailers (§8.1).
        case pseudoHeaderInTrailers
        /// An informational (1xx) response with END_STREAM (§8.1).
        case informationalResponseEndsStream
        /// 101 Switching Protocols, which HTTP/2 does not have (§8.6).
        case switchingProtocols
        /// A second field block after the final response without END_STREAM (§8.1).
        case trailersWithoutEndStream
        /// DATA before the final response's header block (§8.1).
        case dataBeforeResponse
        /// `content-length` is not a decimal number, or two values differ.
        case invalidContentLength
        /// The DATA received disagrees with `content-length` (§8.1.1).
        case contentLengthMismatch
        /// DATA in a response that has no content (to HEAD, or 204 / 304).
        case contentInBodilessResponse
    }

    /// What rule was broken.
    public let kind: Kind
    /// The error code sent in GOAWAY or RST_STREAM.
    public let code: HTTP2ErrorCode
    /// nil for a connection error; the stream for a stream error.
    public let streamID: HTTP2StreamID?
    /// For `compressionFailed`, why HPACK failed.
    public let hpackError: HPACKError?

    /// A connection error.
    public static func connection(_ kind: Kind, code: HTTP2ErrorCode, hpackError: HPACKError? = nil)
        -> HTTP2ProtocolError
    {
        HTTP2ProtocolError(kind: kind, code: code, streamID: nil, hpackError: hpackError)
    }

    /// A stream error on `streamID`.
    public static func stream(_ streamID: HTTP2StreamID, _ kind: Kind, code: HTTP2ErrorCode) -> HTTP2ProtocolError {
        HTTP2ProtocolError(kind: kind, code: code, streamID: streamID, hpackError: nil)
    }

    /// True when the connection must end.
    public var isConnectionError: Bool { streamID == nil }

    /// True when the server stopped answering (`settingsTimeout`, `pingTimeout`) rather than
    /// breaking a rule with what it sent.
    public var isLivenessFailure: Bool { kind == .settingsTimeout || kind == .pingTimeout }

    /// `connection: kind (CODE)` or `stream 3: kind (CODE)`.
    public var description: String {
        let scope = streamID.map { "stream \($0)" } ?? "connection"
        let detail = hpackError.map { ", HPACK \($0)" } ?? ""
        return "\(scope): \(kind.rawValue) (\(code)\(detail))"
    }
}
