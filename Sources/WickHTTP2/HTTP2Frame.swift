// One HTTP/2 frame (RFC 9113 §4.1, §6), as the parser produces and the encoder writes it.

/// A frame: the stream it belongs to and its type-specific payload.
public struct HTTP2Frame: Hashable, Sendable {
    /// The stream (stream 0 for SETTINGS, PING, GOAWAY and connection WINDOW_UPDATE).
    public var streamID: HTTP2StreamID
    /// The frame's type and contents.
    public var payload: Payload

    /// A frame on a stream.
    public init(streamID: HTTP2StreamID, payload: Payload) {
        self.streamID = streamID
        self.payload = payload
    }

    /// The frame types of §6, plus the ones a receiver must ignore.
    public enum Payload: Hashable, Sendable {
        /// DATA (0x0, §6.1). `paddingLength` is nil without the PADDED flag; flow control counts
        /// the whole payload (`flowControlledLength`).
        case data(bytes: ArraySlice<UInt8>, endStream: Bool, paddingLength: Int?)
        /// HEADERS (0x1, §6.2): the first fragment of a field block.
        case headers(HTTP2HeadersFrame)
        /// PRIORITY (0x2, §6.3): deprecated signalling; parsed, checked and otherwise ignored.
        case priority(HTTP2Priority)
        /// RST_STREAM (0x3, §6.4).
        case rstStream(HTTP2ErrorCode)
        /// SETTINGS (0x4, §6.5) with its parameters in order (unknown identifiers dropped).
        case settings([HTTP2Setting])
        /// SETTINGS with the ACK flag: the peer applied ours.
        case settingsAck
        /// PUSH_PROMISE (0x5, §6.6); this client refuses push, so receiving one is an error.
        case pushPromise(promisedStreamID: HTTP2StreamID, fieldBlockFragment: [UInt8], endHeaders: Bool)
        /// PING (0x6, §6.7): 8 opaque bytes, echoed back with ACK.
        case ping(opaqueData: UInt64, ack: Bool)
        /// GOAWAY (0x7, §6.8).
        case goAway(lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: [UInt8])
        /// WINDOW_UPDATE (0x8, §6.9); the increment is 1...2^31 - 1.
        case windowUpdate(increment: Int)
        /// CONTINUATION (0x9, §6.10): the next fragment of a field block.
        case continuation(fieldBlockFragment: [UInt8], endHeaders: Bool)
        /// A frame of a type this module does not know (§4.1: ignored), kept only as its type and
        /// length so the connection can tell it apart inside a field block (§4.3).
        case unknown(type: UInt8, length: Int)
    }
}

/// A HEADERS frame's fields.
public struct HTTP2HeadersFrame: Hashable, Sendable {
    /// The start of the field block (the rest arrives in CONTINUATION frames unless `endHeaders`).
    public var fieldBlockFragment: [UInt8]
    /// END_STREAM: no DATA follows on this stream.
    public var endStream: Bool
    /// END_HEADERS: the field block is complete in this frame.
    public var endHeaders: Bool
    /// The deprecated priority fields, when the PRIORITY flag is set.
    public var priority: HTTP2Priority?
    /// The padding length, when the PADDED flag is set.
    public var paddingLength: Int?

    /// A HEADERS frame's fields.
    public init(
        fieldBlockFragment: [UInt8], endStream: Bool, endHeaders: Bool,
        priority: HTTP2Priority? = nil, paddingLength: Int? = nil
    ) {
        self.fieldBlockFragment = fieldBlockFragment
        self.endStream = endStream
        self.endHeaders = endHeaders
        self.priority = priority
        self.paddingLength = paddingLength
    }
}

/// The RFC 7540 priority fields (§5.3.1 of RFC 9113 deprecates the scheme; the fields remain).
public struct HTTP2Priority: Hashable, Sendable {
    /// Exclusive dependency flag.
    public var exclusive: Bool
    /// The stream this one depends on.
    public var dependency: HTTP2StreamID
    /// Weight minus one, 0...255.
    public var weight: UInt8

    /// Priority fields.
    public init(exclusive: Bool, dependency: HTTP2StreamID, weight: UInt8) {
        self.exclusive = exclusive
        self.dependency = dependency
        self.weight = weight
    }
}

extension HTTP2Frame.Payload {
    /// For DATA, the bytes flow control counts: data, padding and the padding-length byte (§6.9).
    public var flowControlledLength: Int {
        guard case .data(let bytes, _, let paddingLength) = self else { return 0 }
        return bytes.count + (paddingLength.map { $0 + 1 } ?? 0)
    }
}
