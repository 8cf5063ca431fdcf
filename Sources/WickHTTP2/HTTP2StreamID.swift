// A stream identifier (RFC 9113 §5.1.1): 31 bits, odd when the client opened the stream.
import WickCore

/// A stream's identifier. 0 is the connection itself; clients open odd-numbered streams,
/// servers (with PUSH_PROMISE, which Wick refuses) even-numbered ones.
public struct HTTP2StreamID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier, 0 to 2^31 - 1.
    public let rawValue: UInt32

    /// The largest identifier (RFC 9113 §5.1.1): a connection that would need more must end.
    public static let max = HTTP2StreamID(rawValue: 0x7FFF_FFFF)

    /// Stream 0: frames about the connection as a whole.
    public static let connection = HTTP2StreamID(rawValue: 0)

    /// An identifier; traps above 2^31 - 1 (the reserved bit is the frame codec's business).
    public init(rawValue: UInt32) {
        precondition(rawValue <= 0x7FFF_FFFF, "stream identifier \(rawValue) uses the reserved bit")
        self.rawValue = rawValue
    }

    /// An identifier from an integer literal-like value; traps outside 0...2^31 - 1.
    public init(_ value: Int) {
        precondition(value >= 0 && value <= 0x7FFF_FFFF, "stream identifier \(value) out of range")
        self.init(rawValue: UInt32(value))
    }

    /// True for stream 0.
    public var isConnection: Bool { rawValue == 0 }

    /// True for identifiers a client opens (odd).
    public var isClientInitiated: Bool { rawValue & 1 == 1 }

    /// Orders identifiers by number.
    public static func < (lhs: HTTP2StreamID, rhs: HTTP2StreamID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Hashes the number as `UInt32` hashes itself.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The hash a `Dictionary` or `Set` uses: `identifierHash` (SplitMix64's finalizer) instead of the
    /// standard library's SipHash (the number is chosen here, never by a peer).
    public func _rawHashValue(seed: Int) -> Int { identifierHash(UInt64(rawValue), seed: seed) }

    /// The number.
    public var description: String { String(rawValue) }
}
