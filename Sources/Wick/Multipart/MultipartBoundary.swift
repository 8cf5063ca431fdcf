// The boundary of a multipart body: generated at random, checked when given, and its delimiter lines (RFC 2046 §5.1.1).

/// Boundary generation and the delimiter bytes between parts.
///
/// A boundary must not occur in any part's content (RFC 2046 §5.1.1), but files are never read
/// ahead of time to check: like Alamofire, Wick draws 128 random bits from the system generator
/// (`getrandom`), so a collision needs content that contains those 32 hex digits by chance.
enum MultipartBoundary {
    /// The longest boundary RFC 2046 allows.
    static let maximumLength = 70

    /// `wick.boundary.` followed by 32 random hexadecimal digits (128 bits).
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "wick.boundary." + hex(high) + hex(low)
    }

    /// `value` as 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `boundary` is 1 to 70 characters from `A-Z a-z 0-9 ' + _ - .`: RFC 2046's
    /// boundary characters that are also token characters, so `Content-Type` needs no quotes.
    static func isValid(_ boundary: String) -> Bool {
        let bytes = boundary.utf8
        guard (1...maximumLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "'"), UInt8(ascii: "+"), UInt8(ascii: "_"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default: false
            }
        }
    }

    /// The line that opens the first part: `--boundary CRLF`.
    static func initialDelimiter(_ boundary: String) -> [UInt8] { Array("--\(boundary)\r\n".utf8) }

    /// The line that opens every later part, ending the previous one: `CRLF --boundary CRLF`.
    static func encapsulatedDelimiter(_ boundary: String) -> [UInt8] { Array("\r\n--\(boundary)\r\n".utf8) }

    /// The line that ends the last part and the body: `CRLF --boundary-- CRLF`.
    static func closeDelimiter(_ boundary: String) -> [UInt8] { Array("\r\n--\(boundary)--\r\n".utf8) }
}
