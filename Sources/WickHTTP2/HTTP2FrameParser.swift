// Splits the bytes a server sends into frames (RFC 9113 §4.1, §6), checking each frame's shape.

/// An incremental frame parser: bytes are appended as they arrive, and `nextFrame()` returns each
/// complete frame once. It checks everything a frame's own bytes can prove (its size against the
/// limit and its type's fixed sizes, padding, whether it belongs on stream 0, SETTINGS values,
/// WINDOW_UPDATE increments) and nothing that needs the connection's state.
///
/// Frame header (§4.1): Length (24) | Type (8) | Flags (8) | R (1) | Stream Identifier (31).
///
/// Memory: the parser holds what was appended and not yet parsed; a frame longer than
/// `maxFrameSize` is rejected as soon as its 9-byte header is in, before its payload is buffered.
/// Feeding k pieces costs O(total bytes): a partial frame is never rescanned, only waited for.
public struct HTTP2FrameParser: Sendable {
    /// The largest frame payload accepted: the SETTINGS_MAX_FRAME_SIZE this client advertised
    /// (16,384 by default; at most 16,777,215).
    public var maxFrameSize: Int
    private var buffer: [UInt8] = []
    /// Where the next frame starts in `buffer`.
    private var position = 0

    /// The length of the frame header.
    public static let frameHeaderLength = 9

    /// A parser accepting payloads of up to `maxFrameSize` bytes.
    public init(maxFrameSize: Int = 16_384) {
        precondition(
            HTTP2Settings.frameSizeRange.contains(maxFrameSize),
            "max frame size \(maxFrameSize) outside 16384...16777215")
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes appended but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - position }

    /// Adds received bytes after those already buffered.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        } else if position >= 4096 && position * 2 >= buffer.count {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil until more bytes arrive.
    ///
    /// - Throws: `HTTP2ProtocolError`. A connection error leaves the parser unusable (the
    ///   connection is over); a stream error (a PRIORITY frame of the wrong size, a stream
    ///   WINDOW_UPDATE of 0) has consumed its frame, and parsing may go on.
    public mutating func nextFrame() throws(HTTP2ProtocolError) -> HTTP2Frame? {
        let available = buffer.count - position
        guard available >= Self.frameHeaderLength else { return nil }
        let length = Int(buffer[position]) << 16 | Int(buffer[position + 1]) << 8 | Int(buffer[position + 2])
        guard length <= maxFrameSize else { throw .connection(.frameTooLarge, code: .frameSizeError) }
        guard available >= Self.frameHeaderLength + length else { return nil }
        let type = buffer[position + 3]
        let flags = buffer[position + 4]
        let streamID = HTTP2StreamID(rawValue: readUInt32(at: position + 5) & 0x7FFF_FFFF)
        let payloadStart = position + Self.frameHeaderLength
        position = payloadStart + length
        let payload = try parsePayload(
            type: type, flags: flags, streamID: streamID, buffer[payloadStart..<payloadStart + length])
        return HTTP2Frame(streamID: streamID, payload: payload)
    }

    private func parsePayload(
        type: UInt8, flags: UInt8, streamID: HTTP2StreamID, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> HTTP2Frame.Payload {
        switch type {
        case 0x0: return try parseData(flags: flags, streamID: streamID, payload)
        case 0x1: return try parseHeaders(flags: flags, streamID: streamID, payload)
        case 0x2:
            try requireStream(streamID)
            guard payload.count == 5 else { throw .stream(streamID, .invalidFrameSize, code: .frameSizeError) }
            return .priority(parsePriority(payload))
        case 0x3:
            try requireStream(streamID)
            guard payload.count == 4 else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
            return .rstStream(HTTP2ErrorCode(rawValue: readUInt32(at: payload.startIndex)))
        case 0x4: return try parseSettings(flags: flags, streamID: streamID, payload)
        case 0x5: return try parsePushPromise(flags: flags, streamID: streamID, payload)
        case 0x6:
            try requireConnection(streamID)
            guard payload.count == 8 else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
            let opaque =
                UInt64(readUInt32(at: payload.startIndex)) << 32 | UInt64(readUInt32(at: payload.startIndex + 4))
            return .ping(opaqueData: opaque, ack: flags & 0x1 != 0)
        case 0x7:
            try requireConnection(streamID)
            guard payload.count >= 8 else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
            let lastStreamID = HTTP2StreamID(rawValue: readUInt32(at: payload.startIndex) & 0x7FFF_FFFF)
            let code = HTTP2ErrorCode(rawValue: readUInt32(at: payload.startIndex + 4))
            return .goAway(lastStreamID: lastStreamID, errorCode: code, debugData: Array(payload.dropFirst(8)))
        case 0x8:
            guard payload.count == 4 else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
            let increment = Int(readUInt32(at: payload.startIndex) & 0x7FFF_FFFF)
            guard increment > 0 else {
                throw streamID.isConnection
                    ? .connection(.zeroWindowIncrement, code: .protocolError)
                    : .stream(streamID, .zeroWindowIncrement, code: .protocolError)
            }
            return .windowUpdate(increment: increment)
        case 0x9:
            try requireStream(streamID)
            return .continuation(fieldBlockFragment: Array(payload), endHeaders: flags & 0x4 != 0)
        default:
            return .unknown(type: type, length: payload.count)
        }
    }

    /// DATA: [Pad Length (8)] | Data | Padding; flags END_STREAM 0x1, PADDED 0x8 (§6.1).
    private func parseData(
        flags: UInt8, streamID: HTTP2StreamID, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> HTTP2Frame.Payload {
        try requireStream(streamID)
        let (content, paddingLength) = try removePadding(flags: flags, fixedFieldsLength: 0, payload)
        return .data(bytes: content, endStream: flags & 0x1 != 0, paddingLength: paddingLength)
    }

    /// HEADERS: [Pad Length (8)] | [E (1) | Stream Dependency (31) | Weight (8)] | Field Block
    /// Fragment | Padding; flags END_STREAM 0x1, END_HEADERS 0x4, PADDED 0x8, PRIORITY 0x20 (§6.2).
    private func parseHeaders(
        flags: UInt8, streamID: HTTP2StreamID, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> HTTP2Frame.Payload {
        try requireStream(streamID)
        let hasPriority = flags & 0x20 != 0
        var (content, paddingLength) = try removePadding(flags: flags, fixedFieldsLength: hasPriority ? 5 : 0, payload)
        var priority: HTTP2Priority?
        if hasPriority {
            priority = parsePriority(content.prefix(5))
            content = content.dropFirst(5)
        }
        return .headers(
            HTTP2HeadersFrame(
                fieldBlockFragment: Array(content), endStream: flags & 0x1 != 0, endHeaders: flags & 0x4 != 0,
                priority: priority, paddingLength: paddingLength))
    }

    /// PUSH_PROMISE: [Pad Length (8)] | R (1) | Promised Stream ID (31) | Field Block Fragment |
    /// Padding; flags END_HEADERS 0x4, PADDED 0x8 (§6.6).
    private func parsePushPromise(
        flags: UInt8, streamID: HTTP2StreamID, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> HTTP2Frame.Payload {
        try requireStream(streamID)
        let (content, _) = try removePadding(flags: flags, fixedFieldsLength: 4, payload)
        let promised = HTTP2StreamID(rawValue: readUInt32(at: content.startIndex) & 0x7FFF_FFFF)
        return .pushPromise(
            promisedStreamID: promised, fieldBlockFragment: Array(content.dropFirst(4)), endHeaders: flags & 0x4 != 0)
    }

    /// SETTINGS: zero or more (Identifier (16) | Value (32)); flag ACK 0x1 (§6.5).
    private func parseSettings(
        flags: UInt8, streamID: HTTP2StreamID, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> HTTP2Frame.Payload {
        try requireConnection(streamID)
        if flags & 0x1 != 0 {
            guard payload.isEmpty else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
            return .settingsAck
        }
        guard payload.count % 6 == 0 else { throw .connection(.invalidFrameSize, code: .frameSizeError) }
        var settings: [HTTP2Setting] = []
        var index = payload.startIndex
        while index < payload.endIndex {
            let identifier = HTTP2Setting.Identifier(rawValue: UInt16(payload[index]) << 8 | UInt16(payload[index + 1]))
            let value = readUInt32(at: index + 2)
            index += 6
            switch identifier {
            case .enablePush:
                guard value <= 1 else { throw .connection(.invalidSettingValue, code: .protocolError) }
            case .initialWindowSize:
                guard value <= UInt32(HTTP2Settings.maxWindowSize) else {
                    throw .connection(.invalidSettingValue, code: .flowControlError)
                }
            case .maxFrameSize:
                guard HTTP2Settings.frameSizeRange.contains(Int(value)) else {
                    throw .connection(.invalidSettingValue, code: .protocolError)
                }
            case .headerTableSize, .maxConcurrentStreams, .maxHeaderListSize:
                break
            default:
                continue  // Unknown identifiers are ignored (§6.5.2).
            }
            settings.append(HTTP2Setting(identifier, value))
        }
        return .settings(settings)
    }

    /// Splits off the padding of a PADDED frame: the Pad Length byte, then `fixedFieldsLength`
    /// bytes of fields that must be present, then content, then padding (§6.1, §6.2, §6.6).
    private func removePadding(
        flags: UInt8, fixedFieldsLength: Int, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2ProtocolError) -> (content: ArraySlice<UInt8>, paddingLength: Int?) {
        guard flags & 0x8 != 0 else {
            guard payload.count >= fixedFieldsLength else {
                throw .connection(.invalidFrameSize, code: .frameSizeError)
            }
            return (payload, nil)
        }
        guard payload.count >= 1 + fixedFieldsLength else {
            throw .connection(.invalidFrameSize, code: .frameSizeError)
        }
        let paddingLength = Int(payload[payload.startIndex])
        guard paddingLength <= payload.count - 1 - fixedFieldsLength else {
            throw .connection(.invalidPadding, code: .protocolError)
        }
        return (payload[(payload.startIndex + 1)..<(payload.endIndex - paddingLength)], paddingLength)
    }

    /// E (1) | Stream Dependency (31) | Weight (8), from 5 bytes.
    private func parsePriority(_ bytes: ArraySlice<UInt8>) -> HTTP2Priority {
        let word = readUInt32(at: bytes.startIndex)
        return HTTP2Priority(
            exclusive: word & 0x8000_0000 != 0, dependency: HTTP2StreamID(rawValue: word & 0x7FFF_FFFF),
            weight: buffer[bytes.startIndex + 4])
    }

    private func requireStream(_ streamID: HTTP2StreamID) throws(HTTP2ProtocolError) {
        guard !streamID.isConnection else { throw .connection(.frameRequiresStream, code: .protocolError) }
    }

    private func requireConnection(_ streamID: HTTP2StreamID) throws(HTTP2ProtocolError) {
        guard streamID.isConnection else { throw .connection(.frameRequiresConnection, code: .protocolError) }
    }

    private func readUInt32(at index: Int) -> UInt32 {
        UInt32(buffer[index]) << 24 | UInt32(buffer[index + 1]) << 16 | UInt32(buffer[index + 2]) << 8
            | UInt32(buffer[index + 3])
    }
}
