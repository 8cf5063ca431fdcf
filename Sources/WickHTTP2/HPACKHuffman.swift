// Huffman coding of HPACK string literals (RFC 7541 §5.2 and Appendix B).

/// Encodes and decodes strings with the static Huffman code of `HPACKHuffmanTable`.
enum HPACKHuffman {
    /// The decoding tree: node `n`'s children for bit 0 and bit 1 are at `2n` and `2n + 1`; a
    /// non-negative entry is the child node, a negative one `-(symbol + 1)` ends a code. The code
    /// is complete (every bit string leads to a symbol), so there are no dead ends. 256 inner
    /// nodes, built once.
    static let tree: [Int32] = {
        var tree = [Int32](repeating: 0, count: 2)
        for symbol in 0...HPACKHuffmanTable.endOfString {
            let code = HPACKHuffmanTable.codes[symbol]
            let length = Int(HPACKHuffmanTable.lengths[symbol])
            var node = 0
            for position in stride(from: length - 1, through: 1, by: -1) {
                let slot = 2 * node + Int(code >> UInt32(position) & 1)
                if tree[slot] == 0 {
                    tree[slot] = Int32(tree.count / 2)
                    tree += [0, 0]
                }
                node = Int(tree[slot])
            }
            tree[2 * node + Int(code & 1)] = -Int32(symbol + 1)
        }
        return tree
    }()

    /// How many bytes `bytes` take Huffman-coded, padding included.
    static func encodedCount(of bytes: some Collection<UInt8>) -> Int {
        var bits = 0
        for byte in bytes { bits += Int(HPACKHuffmanTable.lengths[Int(byte)]) }
        return (bits + 7) / 8
    }

    /// Appends `bytes` Huffman-coded, padded to a byte with the most significant bits of EOS.
    static func encode(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
        var pending: UInt64 = 0
        var pendingBits = 0
        for byte in bytes {
            let length = Int(HPACKHuffmanTable.lengths[Int(byte)])
            pending = pending << UInt64(length) | UInt64(HPACKHuffmanTable.codes[Int(byte)])
            pendingBits += length
            while pendingBits >= 8 {
                pendingBits -= 8
                output.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingBits)))
            }
            pending &= (1 << UInt64(pendingBits)) - 1
        }
        if pendingBits > 0 {
            output.append(UInt8(truncatingIfNeeded: pending << UInt64(8 - pendingBits)) | (0xFF >> UInt8(pendingBits)))
        }
    }

    /// Decodes the Huffman-coded string `encoded`, appending its bytes to `output` unless
    /// `output` is nil (the caller only needs the string checked and skipped). Throws
    /// `huffmanEndOfString` for an EOS symbol and `invalidHuffmanPadding` for padding longer than
    /// 7 bits or not all 1 bits; `blockOffset` is where `encoded` starts in the header block.
    static func decode(
        _ encoded: ArraySlice<UInt8>, blockOffset: Int, into output: inout [UInt8]?
    ) throws(HPACKError) {
        let tree = Self.tree
        var node = 0
        var bitsSinceSymbol = 0
        var onlyOnesSinceSymbol = true
        for index in encoded.indices {
            let byte = encoded[index]
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = Int(byte >> UInt8(shift) & 1)
                bitsSinceSymbol += 1
                if bit == 0 { onlyOnesSinceSymbol = false }
                let next = tree[2 * node + bit]
                if next >= 0 {
                    node = Int(next)
                    continue
                }
                let symbol = Int(-next - 1)
                guard symbol != HPACKHuffmanTable.endOfString else {
                    throw HPACKError(.huffmanEndOfString, at: blockOffset + index - encoded.startIndex)
                }
                output?.append(UInt8(symbol))
                node = 0
                bitsSinceSymbol = 0
                onlyOnesSinceSymbol = true
            }
        }
        guard bitsSinceSymbol <= 7 && onlyOnesSinceSymbol else {
            throw HPACKError(.invalidHuffmanPadding, at: blockOffset + encoded.count - 1)
        }
    }
}
