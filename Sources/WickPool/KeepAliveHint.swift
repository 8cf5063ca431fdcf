// The server's `Keep-Alive: timeout=N, max=M` hints, parsed leniently from untrusted bytes.

/// What a response's `Keep-Alive` header says about the connection's future (RFC 2068 §19.7.1.1,
/// kept by HTTP/1.1 servers such as Apache): how long the server keeps an idle connection open
/// and how many more requests it will accept on it.
///
/// The header is advice from an untrusted peer, so parsing never fails: an unknown parameter or a
/// value that is not a plain decimal number is ignored, and a huge number is clamped.
public struct KeepAliveHint: Hashable, Sendable {
    /// The largest timeout or request count taken from the header; more is treated as this.
    public static let largestValue = 1_000_000_000

    /// `timeout=N`: the server closes the connection after N idle seconds.
    public var timeout: Duration?

    /// `max=M`: the server accepts M more requests on the connection; 0 means none.
    public var maximumRequests: Int?

    /// A hint with the given values; `nil` means the server did not say.
    public init(timeout: Duration? = nil, maximumRequests: Int? = nil) {
        self.timeout = timeout
        self.maximumRequests = maximumRequests
    }

    /// Parses a `Keep-Alive` field value such as `timeout=5, max=100`. Parameter names are
    /// case-insensitive; surrounding spaces and tabs are ignored; a repeated parameter keeps its
    /// first value. Never throws: malformed parts are skipped.
    public init(headerValue: some StringProtocol) {
        self.init()
        for part in Substring(headerValue).utf8.split(separator: UInt8(ascii: ",")) {
            let pieces = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, let value = Self.decimal(Self.trimmed(pieces[1])) else { continue }
            let name = Self.trimmed(pieces[0])
            if Self.equalsIgnoringCase(name, "timeout") {
                if timeout == nil { timeout = .seconds(value) }
            } else if Self.equalsIgnoringCase(name, "max") {
                if maximumRequests == nil { maximumRequests = value }
            }
        }
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            slice = slice.dropFirst()
        }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            slice = slice.dropLast()
        }
        return slice
    }

    /// A non-empty run of ASCII digits, clamped to `largestValue`; anything else is `nil`.
    private static func decimal(_ bytes: Substring.UTF8View.SubSequence) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), largestValue)
        }
        return value
    }

    private static func equalsIgnoringCase(_ bytes: Substring.UTF8View.SubSequence, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        // SAFETY: `lowercase` is a literal whose UTF-8 buffer is static; `expected` is only iterated by
        // zip, which stops at the shorter side, so no read goes past its utf8CodeUnitCount bytes.
        return lowercase.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { ($0 | 0x20) == $1 }
        }
    }
}
