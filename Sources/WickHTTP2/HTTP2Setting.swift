// SETTINGS parameters (RFC 9113 §6.5.2) and the values each side has in force.

/// One SETTINGS parameter as it travels: a 16-bit identifier and a 32-bit value. Identifiers
/// this module does not know are ignored on receipt (§6.5.2) and never sent.
public struct HTTP2Setting: Hashable, Sendable, CustomStringConvertible {
    /// A SETTINGS parameter identifier.
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        /// The 16-bit identifier.
        public let rawValue: UInt16
        /// An identifier as it appears on the wire.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// SETTINGS_HEADER_TABLE_SIZE (0x1): the largest HPACK table the sender's decoder allows.
        public static let headerTableSize = Identifier(rawValue: 0x1)
        /// SETTINGS_ENABLE_PUSH (0x2): 0 or 1; a server may only send 0.
        public static let enablePush = Identifier(rawValue: 0x2)
        /// SETTINGS_MAX_CONCURRENT_STREAMS (0x3): streams the receiver may open towards the sender.
        public static let maxConcurrentStreams = Identifier(rawValue: 0x3)
        /// SETTINGS_INITIAL_WINDOW_SIZE (0x4): every stream's initial flow-control window.
        public static let initialWindowSize = Identifier(rawValue: 0x4)
        /// SETTINGS_MAX_FRAME_SIZE (0x5): the largest frame payload the sender accepts.
        public static let maxFrameSize = Identifier(rawValue: 0x5)
        /// SETTINGS_MAX_HEADER_LIST_SIZE (0x6): advisory limit on a received field section.
        public static let maxHeaderListSize = Identifier(rawValue: 0x6)
    }

    /// Which parameter.
    public var identifier: Identifier
    /// Its value.
    public var value: UInt32

    /// A parameter and its value.
    public init(_ identifier: Identifier, _ value: UInt32) {
        self.identifier = identifier
        self.value = value
    }

    /// `0x4=65535`.
    public var description: String { "0x\(String(identifier.rawValue, radix: 16))=\(value)" }
}

/// The SETTINGS values one endpoint has in force, starting from RFC 9113's defaults.
public struct HTTP2Settings: Hashable, Sendable {
    /// SETTINGS_HEADER_TABLE_SIZE; default 4,096.
    public var headerTableSize: Int = 4096
    /// SETTINGS_ENABLE_PUSH; default true (a client turns it off).
    public var enablePush = true
    /// SETTINGS_MAX_CONCURRENT_STREAMS; default unlimited (nil).
    public var maxConcurrentStreams: Int?
    /// SETTINGS_INITIAL_WINDOW_SIZE; default 65,535.
    public var initialWindowSize: Int = 65_535
    /// SETTINGS_MAX_FRAME_SIZE; default 16,384.
    public var maxFrameSize: Int = 16_384
    /// SETTINGS_MAX_HEADER_LIST_SIZE; default unlimited (nil).
    public var maxHeaderListSize: Int?

    /// The protocol's initial values.
    public init() {}

    /// The smallest and largest SETTINGS_MAX_FRAME_SIZE (§6.5.2).
    public static let frameSizeRange = 16_384...16_777_215
    /// The largest flow-control window (§6.9.1): 2^31 - 1.
    public static let maxWindowSize = 0x7FFF_FFFF
}
