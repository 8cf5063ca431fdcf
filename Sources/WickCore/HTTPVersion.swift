// The HTTP protocol version of a message.

/// An HTTP version such as `HTTP/1.1` (RFC 9112 §2.3).
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// HTTP/2 (RFC 9113).
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    /// The major version digit.
    public var major: UInt8
    /// The minor version digit.
    public var minor: UInt8

    /// Creates a version from its two digits.
    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    /// The version as HTTP/1.x writes it on the wire (`HTTP/1.1`); HTTP/2 and later by their
    /// major number alone (`HTTP/2`, as RFC 9113 names it and curl prints it).
    public var description: String { major >= 2 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }
}
