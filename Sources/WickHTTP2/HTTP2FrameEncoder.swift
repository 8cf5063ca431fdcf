// Writes frames in their wire format (RFC 9113 §4.1, §6): the inverse of HTTP2FrameParser.

/// Serializes frames. It writes what it is given: the connection state machine decides what
/// may be sent (sizes within the peer's SETTINGS_MAX_FRAME_SIZE, windows, stream states).
public enum HTTP2FrameEncoder {
    /// The 24 bytes every client connection starts with (§3.4), before its SETTINGS frame.
    public static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Appends `frame` to `output`. Traps when a payload cannot be represented (longer than
    /// 2^24 - 1 bytes, padding above 255): callers size frames first.
    public static func encode(_ frame: HTTP2Frame, into output: inout [UInt8]) {
        let stream = frame.streamID
        switch frame.payload {
        case .data(let bytes, let endStream, let paddingLength):
            encodeData(
                stream: stream, bytes: bytes, endStream: endStream, paddingLength: paddingLength, into: &output)
        case .headers(let headers):
            encodeHeaders(
                stream: stream, fragment: headers.fieldBlockFragment[...], endStream: headers.endStream,
                endHeaders: headers.endHeaders, paddingLength: headers.paddingLength, priority: headers.priority,
                into: &output)
        case .priority(let priority):
            writeHeader(length: 5, type: 0x2, flags: 0, stream: stream, into: &output)
            appendPriority(priority, to: &output)
        case .rstStream(let code):
            writeHeader(length: 4, type: 0x3, flags: 0, stream: stream, into: &output)
            appendUInt32(code.rawValue, to: &output)
        case .settings(let settings):
            writeHeader(length: 6 * settings.count, type: 0x4, flags: 0, stream: stream, into: &output)
            for setting in settings {
                output.append(UInt8(setting.identifier.rawValue >> 8))
                output.append(UInt8(truncatingIfNeeded: setting.identifier.rawValue))
                appendUInt32(setting.value, to: &output)
            }
        case .settingsAck:
            writeHeader(length: 0, type: 0x4, flags: 0x1, stream: stream, into: &output)
        case .pushPromise(let promised, let fragment, let endHeaders):
            writeHeader(
                length: 4 + fragment.count, type: 0x5, flags: endHeaders ? 0x4 : 0, stream: stream, into: &output)
            appendUInt32(promised.rawValue, to: &output)
            output.append(contentsOf: fragment)
        case .ping(let opaqueData, let ack):
            writeHeader(length: 8, type: 0x6, flags: ack ? 0x1 : 0, stream: stream, into: &output)
            appendUInt32(UInt32(truncatingIfNeeded: opaqueData >> 32), to: &output)
            appendUInt32(UInt32(truncatingIfNeeded: opaqueData), to: &output)
        case .goAway(let lastStreamID, let errorCode, let debugData):
            writeHeader(length: 8 + debugData.count, type: 0x7, flags: 0, stream: stream, into: &output)
            appendUInt32(lastStreamID.rawValue, to: &output)
            appendUInt32(errorCode.rawValue, to: &output)
            output.append(contentsOf: debugData)
        case .windowUpdate(let increment):
            precondition((1...HTTP2Settings.maxWindowSize).contains(increment), "window increment \(increment)")
            writeHeader(length: 4, type: 0x8, flags: 0, stream: stream, into: &output)
            appendUInt32(UInt32(increment), to: &output)
        case .continuation(let fragment, let endHeaders):
            encodeContinuation(stream: stream, fragment: fragment[...], endHeaders: endHeaders, into: &output)
        case .unknown(let type, let length):
            writeHeader(length: length, type: type, flags: 0, stream: stream, into: &output)
            output.append(contentsOf: repeatElement(0, count: length))
        }
    }

    /// Appends a DATA frame carrying `bytes` (§6.1), without building an `HTTP2Frame`.
    static func encodeData(
        stream: HTTP2StreamID, bytes: ArraySlice<UInt8>, endStream: Bool, paddingLength: Int? = nil,
        into output: inout [UInt8]
    ) {
        let flags = (endStream ? 0x1 : 0) | (paddingLength != nil ? 0x8 : 0)
        writePadded(type: 0x0, flags: UInt8(flags), stream: stream, paddingLength: paddingLength, into: &output) {
            $0.append(contentsOf: bytes)
        }
    }

    /// Appends a HEADERS frame carrying `fragment` (§6.2), without building an `HTTP2Frame`.
    static func encodeHeaders(
        stream: HTTP2StreamID, fragment: ArraySlice<UInt8>, endStream: Bool, endHeaders: Bool,
        paddingLength: Int? = nil, priority: HTTP2Priority? = nil, into output: inout [UInt8]
    ) {
        var flags = (endStream ? 0x1 : 0) | (endHeaders ? 0x4 : 0)
        if paddingLength != nil { flags |= 0x8 }
        if priority != nil { flags |= 0x20 }
        writePadded(type: 0x1, flags: UInt8(flags), stream: stream, paddingLength: paddingLength, into: &output) {
            if let priority { appendPriority(priority, to: &$0) }
            $0.append(contentsOf: fragment)
        }
    }

    /// Appends a CONTINUATION frame carrying `fragment` (§6.10).
    static func encodeContinuation(
        stream: HTTP2StreamID, fragment: ArraySlice<UInt8>, endHeaders: Bool, into output: inout [UInt8]
    ) {
        writeHeader(length: fragment.count, type: 0x9, flags: endHeaders ? 0x4 : 0, stream: stream, into: &output)
        output.append(contentsOf: fragment)
    }

    /// Writes a frame whose content `body` appends, with the PADDED layout when `paddingLength`
    /// is set (zero padding bytes, §6.1), and fixes up the length afterwards.
    private static func writePadded(
        type: UInt8, flags: UInt8, stream: HTTP2StreamID, paddingLength: Int?, into output: inout [UInt8],
        _ body: (inout [UInt8]) -> Void
    ) {
        let headerStart = output.count
        writeHeader(length: 0, type: type, flags: flags, stream: stream, into: &output)
        if let paddingLength {
            precondition((0...255).contains(paddingLength), "padding length \(paddingLength)")
            output.append(UInt8(paddingLength))
        }
        body(&output)
        if let paddingLength { output.append(contentsOf: repeatElement(0, count: paddingLength)) }
        let length = output.count - headerStart - HTTP2FrameParser.frameHeaderLength
        precondition(length < 1 << 24, "frame payload of \(length) bytes")
        output[headerStart] = UInt8(length >> 16)
        output[headerStart + 1] = UInt8(truncatingIfNeeded: length >> 8)
        output[headerStart + 2] = UInt8(truncatingIfNeeded: length)
    }

    /// Length (24) | Type (8) | Flags (8) | R (1) | Stream Identifier (31).
    private static func writeHeader(
        length: Int, type: UInt8, flags: UInt8, stream: HTTP2StreamID, into output: inout [UInt8]
    ) {
        precondition(length >= 0 && length < 1 << 24, "frame payload of \(length) bytes")
        output.append(UInt8(length >> 16))
        output.append(UInt8(truncatingIfNeeded: length >> 8))
        output.append(UInt8(truncatingIfNeeded: length))
        output.append(type)
        output.append(flags)
        appendUInt32(stream.rawValue, to: &output)
    }

    private static func appendPriority(_ priority: HTTP2Priority, to output: inout [UInt8]) {
        appendUInt32(priority.dependency.rawValue | (priority.exclusive ? 0x8000_0000 : 0), to: &output)
        output.append(priority.weight)
    }

    private static func appendUInt32(_ value: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(value >> 24))
        output.append(UInt8(truncatingIfNeeded: value >> 16))
        output.append(UInt8(truncatingIfNeeded: value >> 8))
        output.append(UInt8(truncatingIfNeeded: value))
    }
}
