// Which stream an HTTP/2 event shows progress on, for the driver's idle timeout.
import WickHTTP2

extension HTTP2ConnectionEvent {
    /// The stream a response frame arrived for (head, body, trailers, end) or whose send window
    /// opened; nil for connection-level events and a stream's failure.
    var progressingStream: HTTP2StreamID? {
        switch self {
        case .informationalResponse(let streamID, _), .response(let streamID, _, _), .body(let streamID, _, _),
            .trailers(let streamID, _), .streamClosed(let streamID), .sendWindowAvailable(let streamID):
            streamID
        case .streamReset, .streamFailed, .remoteSettingsChanged, .pingAcknowledged, .goAway, .connectionFailed,
            .connectionClosed:
            nil
        }
    }
}
