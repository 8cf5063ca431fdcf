// Encodes header lists into HPACK blocks (RFC 7541 §6) with a dynamic table the client bounds.

/// The sending half of HPACK for one connection.
///
/// Strategy: a field found whole in the static or dynamic table is one index; otherwise it is a
/// literal (with the name indexed when the name is known), added to the dynamic table when its
/// `indexing` is `.automatic` and it fits; each string is Huffman-coded unless that is longer.
/// The table uses the smaller of `maxTableSize` (this client's memory bound) and the server's
/// SETTINGS_HEADER_TABLE_SIZE, and the first block after a change starts with the size updates
/// RFC 7541 §4.2 requires.
public struct HPACKEncoder: Sendable {
    /// The most table memory this client spends on the server's behalf, whatever the server allows.
    public let maxTableSize: Int
    private var table: HPACKDynamicTable
    /// The smallest size chosen since the last block, and the latest: both are signalled (§4.2).
    private var pendingSizeUpdate: (smallest: Int, latest: Int)?

    /// An encoder whose table may grow to `maxTableSize` bytes (and to no more than the server's
    /// SETTINGS_HEADER_TABLE_SIZE, 4,096 until the server says otherwise).
    public init(maxTableSize: Int = 4096) {
        precondition(maxTableSize >= 0, "negative HPACK table size")
        self.maxTableSize = maxTableSize
        table = HPACKDynamicTable(capacity: 4096)
        if maxTableSize < 4096 {
            table.setCapacity(maxTableSize)
            pendingSizeUpdate = (maxTableSize, maxTableSize)
        }
    }

    /// The dynamic table's current size and capacity in HPACK bytes (for tests and metrics).
    public var dynamicTableSize: (size: Int, capacity: Int) { (table.size, table.capacity) }

    /// Applies the server's SETTINGS_HEADER_TABLE_SIZE: the table uses `min(peerMax, maxTableSize)`.
    public mutating func setPeerMaxTableSize(_ peerMax: Int) {
        let newCapacity = min(peerMax, maxTableSize)
        guard newCapacity != table.capacity || pendingSizeUpdate != nil else { return }
        table.setCapacity(newCapacity)
        let smallest = min(pendingSizeUpdate?.smallest ?? newCapacity, newCapacity)
        pendingSizeUpdate = (smallest, newCapacity)
    }

    /// Appends the header block for `fields`, in order, to `output`.
    public mutating func encode(_ fields: [HPACKHeaderField], into output: inout [UInt8]) {
        if let update = pendingSizeUpdate {
            if update.smallest < update.latest {
                HPACKInteger.encode(update.smallest, prefixBits: 5, firstByteFlags: 0x20, into: &output)
            }
            HPACKInteger.encode(update.latest, prefixBits: 5, firstByteFlags: 0x20, into: &output)
            pendingSizeUpdate = nil
        }
        for field in fields { encode(field, into: &output) }
    }

    private mutating func encode(_ field: HPACKHeaderField, into output: inout [UInt8]) {
        let staticCount = HPACKStaticTable.entries.count
        let inStaticTable = HPACKStaticTable.find(name: field.name, value: field.value)
        var nameIndex = inStaticTable.nameOnly
        if field.indexing == .automatic {
            if let index = inStaticTable.exact {
                HPACKInteger.encode(index, prefixBits: 7, firstByteFlags: 0x80, into: &output)
                return
            }
            let found = table.find(name: field.name, value: field.value)
            if let exact = found.exact {
                HPACKInteger.encode(staticCount + 1 + exact, prefixBits: 7, firstByteFlags: 0x80, into: &output)
                return
            }
            if nameIndex == nil, let dynamic = found.nameOnly { nameIndex = staticCount + 1 + dynamic }
        } else if nameIndex == nil, let dynamic = table.find(name: field.name, value: field.value).nameOnly {
            nameIndex = staticCount + 1 + dynamic
        }

        let indexes = field.indexing == .automatic && field.hpackSize <= table.capacity
        switch (field.indexing, indexes) {
        case (.automatic, true):
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 6, firstByteFlags: 0x40, into: &output)
        case (.neverIndexed, _):
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 4, firstByteFlags: 0x10, into: &output)
        default:
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 4, firstByteFlags: 0x00, into: &output)
        }
        if nameIndex == nil { encodeString(field.name, into: &output) }
        encodeString(field.value, into: &output)
        if indexes { table.insert(field) }
    }

    /// A string literal, Huffman-coded unless that is longer (§5.2; a tie goes to Huffman, as in
    /// RFC 7541 Appendix C.6).
    private func encodeString(_ bytes: [UInt8], into output: inout [UInt8]) {
        let huffmanCount = HPACKHuffman.encodedCount(of: bytes)
        if huffmanCount <= bytes.count {
            HPACKInteger.encode(huffmanCount, prefixBits: 7, firstByteFlags: 0x80, into: &output)
            HPACKHuffman.encode(bytes, encodedCount: huffmanCount, into: &output)
        } else {
            HPACKInteger.encode(bytes.count, prefixBits: 7, firstByteFlags: 0x00, into: &output)
            output.append(contentsOf: bytes)
        }
    }
}
