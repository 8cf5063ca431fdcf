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
        let lengths = HPACKHuffmanTable.lengths
        var bits = 0
        for byte in bytes { bits += Int(lengths[Int(byte)]) }
        return (bits + 7) / 8
    }

    /// Appends `bytes` Huffman-coded, padded to a byte with the most significant bits of EOS.
    /// `encodedCount` is `encodedCount(of: bytes)`, which the caller has already computed: the
    /// code is written to temporary memory of exactly that size and appended in one copy
    /// (growing `output` by a zero fill first cost more than the encoding).
    static func encode(_ bytes: some Collection<UInt8>, encodedCount: Int, into output: inout [UInt8]) {
        let lengths = HPACKHuffmanTable.lengths
        let codes = HPACKHuffmanTable.codes
        // SAFETY: `encoded` has `encodedCount` bytes, the whole code of `bytes` padded to a byte;
        // every write is at a position checked to be below it (a wrong count traps, it never
        // writes past the memory), and all `encodedCount` bytes are written before the append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encodedCount) { encoded in
            var position = 0
            var pending: UInt64 = 0
            var pendingBits = 0
            for byte in bytes {
                let length = Int(lengths[Int(byte)])
                pending = pending << UInt64(length) | UInt64(codes[Int(byte)])
                pendingBits += length
                while pendingBits >= 8 {
                    pendingBits -= 8
                    precondition(position < encodedCount, "HPACKHuffman.encode: encodedCount is too small")
                    encoded[position] = UInt8(truncatingIfNeeded: pending >> UInt64(pendingBits))
                    position += 1
                }
                pending &= (1 << UInt64(pendingBits)) - 1
            }
            if pendingBits > 0 {
                precondition(position < encodedCount, "HPACKHuffman.encode: encodedCount is too small")
                encoded[position] =
                    UInt8(truncatingIfNeeded: pending << UInt64(8 - pendingBits)) | (0xFF >> UInt8(pendingBits))
                position += 1
            }
            precondition(position == encodedCount, "HPACKHuffman.encode: encodedCount is too large")
            // SAFETY: the first `position` bytes, all written above; the append copies them.
            output.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[..<position]))
        }
    }

    /// The decoder's transitions, four bits at a time: entry `16 * node + nibble` says where
    /// reading `nibble` from inner node `node` of `tree` leads. Bits 0-7: the next node; bit 8: a
    /// symbol completed, bits 9-16 its byte value; bit 17: EOS completed (an error). Codes are at
    /// least 5 bits long, so one nibble completes at most one symbol. 4,096 entries, built once.
    static let nibbleTransitions: [UInt32] = {
        let tree = Self.tree
        let nodeCount = tree.count / 2
        var transitions = [UInt32](repeating: 0, count: nodeCount * 16)
        for node in 0..<nodeCount {
            for nibble in 0..<16 {
                var current = node
                var entry: UInt32 = 0
                for shift in stride(from: 3, through: 0, by: -1) {
                    let next = tree[2 * current + (nibble >> shift & 1)]
                    if next >= 0 {
                        current = Int(next)
                        continue
                    }
                    let symbol = Int(-next - 1)
                    entry |= symbol == HPACKHuffmanTable.endOfString ? 1 << 17 : 1 << 8 | UInt32(symbol) << 9
                    current = 0
                }
                transitions[16 * node + nibble] = entry | UInt32(current)
            }
        }
        return transitions
    }()

    /// The inner nodes a string may end on: those reached from the root by at most seven 1 bits,
    /// the most significant bits of EOS (§5.2). Any other node means padding that is too long or
    /// not all ones.
    static let acceptingEnds: [Bool] = {
        let tree = Self.tree
        var accepting = [Bool](repeating: false, count: tree.count / 2)
        var node = 0
        accepting[node] = true
        for _ in 0..<7 {
            node = Int(tree[2 * node + 1])
            accepting[node] = true
        }
        return accepting
    }()

    /// Decodes the Huffman-coded string `encoded`, appending its bytes to `output`. Throws
    /// `huffmanEndOfString` for an EOS symbol and `invalidHuffmanPadding` for padding longer than
    /// 7 bits or not all 1 bits; `blockOffset` is where `encoded` starts in the header block.
    ///
    /// Symbols are written to temporary memory sized for the most symbols `encoded` can hold
    /// (codes are at least 5 bits), each nibble's transition writing its symbol there
    /// unconditionally and advancing only when it completed one: no branch per symbol and no
    /// capacity check per byte. The decoded bytes are then appended to `output` in one copy
    /// (growing `output` first and trimming it after cost more than the decoding itself).
    static func decode(
        _ encoded: ArraySlice<UInt8>, blockOffset: Int, into output: inout [UInt8]
    ) throws(HPACKError) {
        let room = encoded.count * 8 / 5 + 1
        let transitions = nibbleTransitions
        // SAFETY: `decoded` has `room` bytes, and at most `encoded.count * 8 / 5` symbols are
        // completed, so every write (at `end`, which only a completed symbol advances) is in
        // bounds; only the first `end` bytes, each written, are read. `transitions` has 16
        // entries for each of its 256 nodes, and a node is an entry's low 8 bits.
        let (node, seen) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { decoded in
            var node = 0
            var seen: UInt32 = 0
            var end = 0
            transitions.withUnsafeBufferPointer { transitions in
                for byte in encoded {
                    let high = transitions[node << 4 | Int(byte >> 4)]
                    decoded[end] = UInt8(truncatingIfNeeded: high >> 9)
                    end += Int(high >> 8 & 1)
                    let low = transitions[Int(high & 0xFF) << 4 | Int(byte & 0xF)]
                    decoded[end] = UInt8(truncatingIfNeeded: low >> 9)
                    end += Int(low >> 8 & 1)
                    node = Int(low & 0xFF)
                    seen |= high | low
                }
            }
            // SAFETY: the first `end` bytes, each written above; the append copies them.
            output.append(contentsOf: UnsafeBufferPointer(rebasing: decoded[..<end]))
            return (node, seen)
        }
        if seen & 1 << 17 != 0 {
            throw HPACKError(.huffmanEndOfString, at: blockOffset + endOfStringPosition(in: encoded))
        }
        guard Self.acceptingEnds[node] else {
            throw HPACKError(.invalidHuffmanPadding, at: blockOffset + encoded.count - 1)
        }
    }

    /// The position in `encoded` of the byte that completes its first EOS symbol (one does).
    private static func endOfStringPosition(in encoded: ArraySlice<UInt8>) -> Int {
        let transitions = nibbleTransitions
        var node = 0
        for (position, byte) in encoded.enumerated() {
            for nibble in [Int(byte >> 4), Int(byte & 0xF)] {
                let entry = transitions[node << 4 | nibble]
                if entry & 1 << 17 != 0 { return position }
                node = Int(entry & 0xFF)
            }
        }
        preconditionFailure("HPACKHuffman: no EOS in a string that decoded one")
    }
}
