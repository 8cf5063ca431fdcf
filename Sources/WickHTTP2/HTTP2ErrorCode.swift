// The error codes of RST_STREAM and GOAWAY frames (RFC 9113 §7).

/// An HTTP/2 error code. Unknown codes are kept as they arrived (§7: they "MUST NOT trigger any
/// special behavior" and may be treated as INTERNAL_ERROR).
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit code.
    public let rawValue: UInt32

    /// A code as it appears on the wire.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Graceful shutdown, or a stream no longer needed.
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// An unspecific protocol error.
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// An unexpected internal error.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// The flow-control protocol was violated.
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// SETTINGS were not acknowledged in time.
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// A frame arrived on a half-closed stream.
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// A frame had an invalid size.
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// The stream was refused before any processing: safe to retry elsewhere.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// The stream is no longer needed.
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// The HPACK state cannot be maintained.
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// A CONNECT tunnel failed.
    public static let connectError = HTTP2ErrorCode(rawValue: 0xA)
    /// The peer is behaving in a way that may generate excessive load.
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)
    /// The transport's security is inadequate.
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xC)
    /// HTTP/1.1 is required for this request.
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xD)

    private static let names: [UInt32: String] = [
        0x0: "NO_ERROR", 0x1: "PROTOCOL_ERROR", 0x2: "INTERNAL_ERROR", 0x3: "FLOW_CONTROL_ERROR",
        0x4: "SETTINGS_TIMEOUT", 0x5: "STREAM_CLOSED", 0x6: "FRAME_SIZE_ERROR", 0x7: "REFUSED_STREAM",
        0x8: "CANCEL", 0x9: "COMPRESSION_ERROR", 0xA: "CONNECT_ERROR", 0xB: "ENHANCE_YOUR_CALM",
        0xC: "INADEQUATE_SECURITY", 0xD: "HTTP_1_1_REQUIRED",
    ]

    /// The RFC's name (`PROTOCOL_ERROR`), or `0x…` for an unknown code.
    public var description: String {
        Self.names[rawValue] ?? "0x" + String(rawValue, radix: 16)
    }
}
