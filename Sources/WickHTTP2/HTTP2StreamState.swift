// One client stream's life (RFC 9113 §5.1) and its response's progress (§8.1), sans-I/O.
//
// Rules
//
// 1. The client opens a stream by sending HEADERS: it is `open`, or `half-closed (local)` when
//    that HEADERS carried END_STREAM (no body). The client's side closes with END_STREAM on its
//    last DATA or on its trailers.
// 2. The server's side carries the response: zero or more 1xx heads (never with END_STREAM, never
//    101), one final head, DATA, optional trailers (which must carry END_STREAM). Its side closes
//    with END_STREAM: `half-closed (remote)`, or `closed` when the client's side is closed too.
// 3. After the server's END_STREAM, any HEADERS or DATA is a stream error STREAM_CLOSED.
// 4. `content-length` binds the DATA that follows (§8.1.1): more, or less at END_STREAM, is a
//    stream error. A response to HEAD, a 204 or a 304 has no content: any DATA byte is an error.
// 5. Flow control (§6.9): the server may send `receiveWindow` more bytes (padding included); the
//    window reopens only as the consumer reports bytes consumed, so unconsumed bytes never exceed
//    the initial window. The client may send `sendWindow` more bytes; the connection's windows
//    apply on top of these.
// 6. Errors here are stream errors; the connection machine sends the RST_STREAM.

import WickCore

/// The state of one stream this client opened; owned by `HTTP2ConnectionStateMachine`.
struct HTTP2StreamState: Sendable {
    /// The client's direction (§5.1): open until END_STREAM is sent.
    var localOpen: Bool
    /// The server's direction: where the response is.
    private(set) var response: ResponseProgress = .awaitingHead
    /// True for a HEAD request: its response has no content whatever its headers say.
    let isHeadRequest: Bool

    /// Bytes this client may still send on the stream (may go negative after a SETTINGS change).
    var sendWindow: Int
    /// Bytes the server may still send on the stream.
    var receiveWindow: Int
    /// Body bytes delivered to the consumer and not yet reported consumed.
    var unconsumedBytes = 0
    /// Bytes consumed (or padding) not yet returned to the server in a WINDOW_UPDATE.
    var pendingWindowCredit = 0
    /// True when `sendBody` could not send everything: the next window increase is reported.
    var waitsForSendWindow = false

    /// The server's direction.
    enum ResponseProgress: Sendable, Equatable {
        /// No final head yet (1xx heads may come).
        case awaitingHead
        /// Receiving DATA; `remaining` is what `content-length` still expects (nil: no length),
        /// 0 for responses without content.
        case body(remaining: UInt64?, hasNoContent: Bool)
        /// END_STREAM received.
        case ended
    }

    init(isHeadRequest: Bool, localOpen: Bool, sendWindow: Int, receiveWindow: Int) {
        self.isHeadRequest = isHeadRequest
        self.localOpen = localOpen
        self.sendWindow = sendWindow
        self.receiveWindow = receiveWindow
    }

    /// True when the server has ended its side.
    var isRemoteClosed: Bool { response == .ended }

    /// True when both sides are closed (§5.1 `closed`).
    var isClosed: Bool { !localOpen && isRemoteClosed }

    /// A complete, decoded field block from the server (rules 2–4).
    mutating func fieldBlockReceived(
        _ fields: HPACKFieldBlock, endStream: Bool, on streamID: HTTP2StreamID
    ) throws(HTTP2ProtocolError) -> HTTP2ConnectionEvent {
        func malformed(_ kind: HTTP2ProtocolError.Kind) -> HTTP2ProtocolError {
            .stream(streamID, kind, code: .protocolError)
        }
        switch response {
        case .awaitingHead:
            let head: HTTP2ResponseHead
            do { head = try HTTP2FieldValidation.responseHead(fields) } catch { throw malformed(error.kind) }
            if head.status.rawValue < 200 {
                guard head.status.rawValue != 101 else { throw malformed(.switchingProtocols) }
                guard !endStream else { throw malformed(.informationalResponseEndsStream) }
                return .informationalResponse(streamID, head)
            }
            let hasNoContent = isHeadRequest || head.status.rawValue == 204 || head.status.rawValue == 304
            let remaining = hasNoContent ? 0 : head.contentLength
            if endStream {
                guard remaining == nil || remaining == 0 else { throw malformed(.contentLengthMismatch) }
                response = .ended
            } else {
                response = .body(remaining: remaining, hasNoContent: hasNoContent)
            }
            return .response(streamID, head, endStream: endStream)
        case .body(let remaining, _):
            guard endStream else { throw malformed(.trailersWithoutEndStream) }
            let trailers: HTTPHeaders
            do { trailers = try HTTP2FieldValidation.trailers(fields) } catch { throw malformed(error.kind) }
            guard remaining == nil || remaining == 0 else { throw malformed(.contentLengthMismatch) }
            response = .ended
            return .trailers(streamID, trailers)
        case .ended:
            throw .stream(streamID, .frameAfterEndStream, code: .streamClosed)
        }
    }

    /// DATA from the server, after the flow-control accounting (rules 2–4).
    mutating func dataReceived(
        _ bytes: ArraySlice<UInt8>, endStream: Bool, on streamID: HTTP2StreamID
    ) throws(HTTP2ProtocolError) -> HTTP2ConnectionEvent {
        switch response {
        case .awaitingHead:
            throw .stream(streamID, .dataBeforeResponse, code: .protocolError)
        case .body(var remaining, let hasNoContent):
            if !bytes.isEmpty && hasNoContent {
                throw .stream(streamID, .contentInBodilessResponse, code: .protocolError)
            }
            if let expected = remaining {
                guard UInt64(bytes.count) <= expected else {
                    throw .stream(streamID, .contentLengthMismatch, code: .protocolError)
                }
                remaining = expected - UInt64(bytes.count)
            }
            if endStream {
                guard remaining == nil || remaining == 0 else {
                    throw .stream(streamID, .contentLengthMismatch, code: .protocolError)
                }
                response = .ended
            } else {
                response = .body(remaining: remaining, hasNoContent: hasNoContent)
            }
            return .body(streamID, bytes, endStream: endStream)
        case .ended:
            throw .stream(streamID, .frameAfterEndStream, code: .streamClosed)
        }
    }
}
