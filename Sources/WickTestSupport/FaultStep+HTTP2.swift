// Fault-server steps that speak a little HTTP/2 (RFC 9113 §4–§6): frames written by hand.

extension FaultStep {
    /// One HTTP/2 frame: the 9-byte header (length, type, flags, stream) and the payload.
    public static func http2Frame(type: UInt8, flags: UInt8 = 0, stream: UInt32, payload: [UInt8] = []) -> FaultStep {
        .send(http2FrameBytes(type: type, flags: flags, stream: stream, payload: payload))
    }

    /// The bytes of one HTTP/2 frame.
    public static func http2FrameBytes(type: UInt8, flags: UInt8 = 0, stream: UInt32, payload: [UInt8] = []) -> [UInt8]
    {
        let length = UInt32(payload.count)
        var bytes: [UInt8] = [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
        bytes += [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)]
        return bytes + payload
    }

    /// A SETTINGS frame with these (identifier, value) pairs; empty: the server's defaults.
    public static func http2Settings(_ settings: [(UInt16, UInt32)] = []) -> FaultStep {
        var payload: [UInt8] = []
        for (identifier, value) in settings {
            payload += [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]
            payload += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        return http2Frame(type: 0x4, stream: 0, payload: payload)
    }

    /// A HEADERS frame with `:status: 200` (HPACK static index 8) and END_HEADERS, with
    /// END_STREAM when `endStream`.
    public static func http2OKHeaders(stream: UInt32, endStream: Bool = false) -> FaultStep {
        http2Frame(type: 0x1, flags: 0x4 | (endStream ? 0x1 : 0), stream: stream, payload: [0x88])
    }

    /// A DATA frame carrying `text`, with END_STREAM when `endStream`.
    public static func http2Data(_ text: String, stream: UInt32, endStream: Bool = false) -> FaultStep {
        http2Frame(type: 0x0, flags: endStream ? 0x1 : 0, stream: stream, payload: Array(text.utf8))
    }

    /// RST_STREAM with an RFC 9113 §7 error code (2 INTERNAL_ERROR, 7 REFUSED_STREAM, 8 CANCEL).
    public static func http2Reset(stream: UInt32, code: UInt32) -> FaultStep {
        http2Frame(type: 0x3, stream: stream, payload: bigEndian(code))
    }

    /// GOAWAY naming the last stream the server processes, with an error code (0 NO_ERROR).
    public static func http2GoAway(lastStream: UInt32, code: UInt32 = 0) -> FaultStep {
        http2Frame(type: 0x7, stream: 0, payload: bigEndian(lastStream & 0x7FFF_FFFF) + bigEndian(code))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
