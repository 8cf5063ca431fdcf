// Percent-decoding a URL part to bytes (RFC 3986 §2.1): socket paths in http+unix URLs, proxy credentials.
/// Turns `%XX` escapes back into bytes; every other byte stands for itself.
enum PercentDecoding {
    /// A `%` not followed by two hex digits, at `offset` (in UTF-8 bytes from the start).
    struct BadEscape: Error {
        let offset: Int
    }

    /// The bytes `text` stands for.
    /// - Throws: `BadEscape` at the first malformed escape.
    static func bytes(_ text: Substring) throws(BadEscape) -> [UInt8] {
        let encoded = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(encoded.count)
        var index = 0
        while index < encoded.count {
            guard encoded[index] == UInt8(ascii: "%") else {
                decoded.append(encoded[index])
                index += 1
                continue
            }
            guard index + 2 < encoded.count, let high = hexValue(encoded[index + 1]),
                let low = hexValue(encoded[index + 2])
            else { throw BadEscape(offset: index) }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
