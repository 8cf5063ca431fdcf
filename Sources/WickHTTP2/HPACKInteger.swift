// HPACK's prefixed integers (RFC 7541 §5.1).

/// Encodes and decodes the integer representation of RFC 7541 §5.1: a value that fits in the
/// N-bit prefix is stored there; otherwise the prefix is all ones and the rest follows 7 bits at a
/// time, least significant first, with the high bit set on every byte but the last.
enum HPACKInteger {
    /// The largest value this implementation decodes: 2^32 - 1. Larger values mean nothing in
    /// HTTP/2 (indexes, string lengths and table sizes all fit), so they are an error.
    static let maxValue = Int(UInt32.max)

    /// Appends `value` with a `prefixBits`-bit prefix; `firstByteFlags` supplies the bits above
    /// the prefix in the first byte (the representation's pattern).
    static func encode(_ value: Int, prefixBits: Int, firstByteFlags: UInt8, into output: inout [UInt8]) {
        precondition(
            value >= 0 && (1...8).contains(prefixBits), "HPACK integer \(value) with a \(prefixBits)-bit prefix")
        let prefixMax = (1 << prefixBits) - 1
        if value < prefixMax {
            output.append(firstByteFlags | UInt8(value))
            return
        }
        output.append(firstByteFlags | UInt8(prefixMax))
        var rest = value - prefixMax
        while rest >= 128 {
            output.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }

    /// Decodes the integer whose first byte is at `index` in `block`, with a `prefixBits`-bit
    /// prefix, and moves `index` past it. Throws `truncatedBlock` when the block ends inside it
    /// and `integerOverflow` when it passes `maxValue` (offsets count from `block.startIndex`).
    static func decode(
        _ block: ArraySlice<UInt8>, at index: inout Int, prefixBits: Int
    ) throws(HPACKError) -> Int {
        let start = block.startIndex
        guard index < block.endIndex else { throw HPACKError(.truncatedBlock, at: index - start) }
        let prefixMax = (1 << prefixBits) - 1
        var value = Int(block[index]) & prefixMax
        index += 1
        guard value == prefixMax else { return value }
        var shift = 0
        while true {
            guard index < block.endIndex else { throw HPACKError(.truncatedBlock, at: index - start) }
            let byte = block[index]
            // Five continuation bytes carry 35 bits: more than any 32-bit value needs.
            guard shift <= 28 else { throw HPACKError(.integerOverflow, at: index - start) }
            value += Int(byte & 0x7F) << shift
            guard value <= maxValue else { throw HPACKError(.integerOverflow, at: index - start) }
            index += 1
            shift += 7
            if byte & 0x80 == 0 { return value }
        }
    }
}
