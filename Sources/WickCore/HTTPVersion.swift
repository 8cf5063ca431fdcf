// The HTTP protocol version of a message.

/// An HTTP version such as `HTTP/1.1` (RFC 9112 §2.3).
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// The major version digit.
    public var major: UInt8
    /// The minor version digit.
    public var minor: UInt8

    /// Creates a version from its two digits.
    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    /// The version as it appears on the wire, e.g. `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
