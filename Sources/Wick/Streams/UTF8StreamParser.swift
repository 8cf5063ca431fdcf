// Chunks as UTF-8 text, a character cut by a chunk boundary carried into the next chunk.
import FoundationEssentials

/// Decodes chunks as UTF-8. A multi-byte character split between two chunks is carried (at
/// most 3 bytes) and decoded with the next chunk, so it arrives whole. Invalid bytes, and an
/// incomplete character at the very end, become U+FFFD, as `String(decoding:as:)` does. A
/// chunk that only carries part of a character produces no element.
struct UTF8StreamParser: DataStreamParser {
    /// The start of a character the previous chunk cut: 0 to 3 bytes.
    private var carry: [UInt8] = []

    mutating func parse(_ chunk: Data, into elements: inout [String]) {
        var bytes = carry
        bytes.append(contentsOf: chunk)
        let cut = Self.completePrefixLength(of: bytes)
        carry = Array(bytes[cut...])
        guard cut > 0 else { return }
        elements.append(String(decoding: bytes[..<cut], as: UTF8.self))
    }

    mutating func finish(into elements: inout [String]) {
        defer { carry = [] }
        if !carry.isEmpty { elements.append(String(decoding: carry, as: UTF8.self)) }
    }

    mutating func reset() {
        carry = []
    }

    /// How many leading bytes of `bytes` do not end inside a character: everything except a
    /// final lead byte whose continuation bytes have not all arrived. Looks at the last 3 bytes
    /// only (a character is at most 4 bytes); invalid bytes count as complete (they decode to
    /// U+FFFD either way).
    static func completePrefixLength(of bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuations = 0
        while index > 0, continuations < 3 {
            let byte = bytes[index - 1]
            guard byte & 0b1100_0000 == 0b1000_0000 else { break }
            continuations += 1
            index -= 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let length =
            switch lead {
            case 0b1100_0000...0b1101_1111: 2
            case 0b1110_0000...0b1110_1111: 3
            case 0b1111_0000...0b1111_0111: 4
            default: 1
            }
        // The lead's character is complete when all its continuation bytes are here.
        return continuations + 1 < length ? index - 1 : bytes.count
    }
}
