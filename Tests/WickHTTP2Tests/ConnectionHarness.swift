// A client connection state machine wired to a scripted server: the server's frames are built
// with this module's own encoder and HPACK, the client's output is parsed back into frames.
import WickCore

@testable import WickHTTP2

/// The server side of a test: builds the bytes a server sends and reads what the client wrote.
struct ServerPeer {
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 20)
    var parser = HTTP2FrameParser(maxFrameSize: 16_777_215)
    var prefaceSeen = false
    /// The request field block being collected from HEADERS and CONTINUATION.
    var requestBlock: [UInt8] = []

    /// The frames in bytes the client wrote (the preface is checked and dropped first).
    mutating func read(_ bytes: [UInt8]) -> [HTTP2Frame] {
        var bytes = bytes[...]
        if !prefaceSeen {
            precondition(
                bytes.starts(with: HTTP2FrameEncoder.clientPreface), "the client did not start with the preface")
            bytes = bytes.dropFirst(HTTP2FrameEncoder.clientPreface.count)
            prefaceSeen = true
        }
        parser.append(bytes)
        var frames: [HTTP2Frame] = []
        while let frame = must("the client's frames parse", { try parser.nextFrame() }) { frames.append(frame) }
        return frames
    }

    /// Decodes a request's field block once its last fragment is in.
    mutating func requestFields(_ frames: [HTTP2Frame]) -> [[HPACKHeaderField]] {
        var lists: [[HPACKHeaderField]] = []
        for frame in frames {
            switch frame.payload {
            case .headers(let headers):
                requestBlock = headers.fieldBlockFragment
                if headers.endHeaders {
                    lists.append(must("the request block decodes") { try decoder.decode(requestBlock[...]).fields })
                }
            case .continuation(let fragment, let endHeaders):
                requestBlock += fragment
                if endHeaders {
                    lists.append(must("the request block decodes") { try decoder.decode(requestBlock[...]).fields })
                }
            default:
                continue
            }
        }
        return lists
    }

    /// A frame's bytes.
    func frame(_ stream: Int, _ payload: HTTP2Frame.Payload) -> [UInt8] {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder.encode(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: payload), into: &bytes)
        return bytes
    }

    /// The encoded field block for `pairs` (HPACK state advances).
    mutating func block(_ pairs: KeyValuePairs<String, String>) -> [UInt8] {
        var block: [UInt8] = []
        encoder.encode(fields(pairs), into: &block)
        return block
    }

    /// A HEADERS frame carrying `pairs` whole.
    mutating func headers(_ stream: Int, _ pairs: KeyValuePairs<String, String>, endStream: Bool = false) -> [UInt8] {
        let block = block(pairs)
        return frame(
            stream, .headers(HTTP2HeadersFrame(fieldBlockFragment: block, endStream: endStream, endHeaders: true)))
    }

    /// A DATA frame.
    func data(_ stream: Int, _ bytes: [UInt8], endStream: Bool = false, padding: Int? = nil) -> [UInt8] {
        frame(stream, .data(bytes: bytes[...], endStream: endStream, paddingLength: padding))
    }

    /// `count` zero bytes as DATA frames of at most 16,384 bytes, END_STREAM on the last.
    func data(_ stream: Int, zeros count: Int, endStream: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        var left = count
        repeat {
            let size = min(left, 16_384)
            left -= size
            bytes += data(stream, Array(repeating: 0, count: size), endStream: endStream && left == 0)
        } while left > 0
        return bytes
    }

    /// The server's SETTINGS.
    func settings(_ settings: [HTTP2Setting] = []) -> [UInt8] { frame(0, .settings(settings)) }
}

/// A client machine and a server peer, past the preface exchange unless told otherwise.
struct ConnectionHarness {
    var machine: HTTP2ConnectionStateMachine
    var server = ServerPeer()
    var now = Deadline(uptimeNanoseconds: 1_000_000_000)
    /// The frames the client wrote at the last `flush()`.
    var written: [HTTP2Frame] = []

    init(
        _ configuration: HTTP2Configuration = HTTP2Configuration(), serverSettings: [HTTP2Setting] = [],
        handshake: Bool = true
    ) {
        machine = HTTP2ConnectionStateMachine(configuration: configuration)
        flush()
        if handshake {
            _ = receive(server.settings(serverSettings) + server.frame(0, .settingsAck))
        }
    }

    /// Parses what the client has queued into `written`.
    @discardableResult
    mutating func flush() -> [HTTP2Frame] {
        written = server.read(machine.takePendingOutput())
        return written
    }

    /// Delivers server bytes and returns the events; the client's output goes to `written`.
    mutating func receive(_ bytes: [UInt8]) -> [HTTP2ConnectionEvent] {
        let events = machine.bytesReceived(bytes[...], at: now)
        flush()
        return events
    }

    /// Opens a GET for `path` (HEADERS with END_STREAM).
    mutating func get(_ path: String = "/", method: HTTPMethod = .get, endStream: Bool = true) -> HTTP2StreamID {
        let head = HTTP2RequestHead(method: method, scheme: "https", authority: "example.com", path: path)
        let id = must("the connection takes the request") { try machine.openStream(head, endStream: endStream) }
        flush()
        return id
    }

    /// The payloads the client wrote last, without stream identifiers.
    var writtenPayloads: [HTTP2Frame.Payload] { written.map(\.payload) }
}

extension HTTP2ConnectionEvent {
    /// The protocol error of a `streamFailed` or `connectionFailed` event.
    var protocolError: HTTP2ProtocolError? {
        switch self {
        case .streamFailed(_, let error), .connectionFailed(let error, _): error
        default: nil
        }
    }
}
