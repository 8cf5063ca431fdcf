// Decodes HPACK header blocks (RFC 7541 §6) into fields, within the limits the client set.

/// The receiving half of HPACK for one connection: it turns each complete header block (HEADERS
/// plus CONTINUATION fragments, joined) into fields and keeps the dynamic table in step with the
/// server's encoder.
///
/// Limits: the dynamic table never exceeds the size this client advertised
/// (`SETTINGS_HEADER_TABLE_SIZE`); the decoded header list never exceeds `maxHeaderListSize`
/// (the HPACK bomb: a few bytes that index a large entry many times). Past that limit the rest of
/// the block is still decoded, so the table stays in step, but no further field is stored, and
/// the block fails with `headerListTooLarge`. Huffman strings expand at most 8/5, so the memory
/// one block costs is bounded by its own size and the limit.
public struct HPACKDecoder: Sendable {
    /// The largest decoded header list, counted as RFC 7541 §4.1 sizes (name + value + 32 per
    /// field) — the value this client advertises as SETTINGS_MAX_HEADER_LIST_SIZE.
    public var maxHeaderListSize: Int
    private var table: HPACKDynamicTable
    /// The largest table size the server may choose: what this client advertised.
    private var maxTableSize: Int
    /// True after this client lowered `maxTableSize` below the table's capacity: the next block
    /// must start with a size update (§4.2).
    private var sizeUpdateRequired = false

    /// A decoder whose table starts at HTTP/2's default 4,096 bytes, the size the server assumes
    /// until it acknowledges this client's SETTINGS.
    ///
    /// - Parameters:
    ///   - maxTableSize: the table size advertised now; lowering it later is
    ///     `setMaxTableSize(_:)`.
    ///   - maxHeaderListSize: see `maxHeaderListSize`.
    public init(maxTableSize: Int = 4096, maxHeaderListSize: Int = 65_536) {
        precondition(maxTableSize >= 0 && maxHeaderListSize >= 0, "negative HPACK limits")
        self.maxTableSize = max(maxTableSize, 4096)
        self.maxHeaderListSize = maxHeaderListSize
        table = HPACKDynamicTable(capacity: 4096)
    }

    /// The dynamic table's current size and capacity in HPACK bytes (for tests and metrics).
    public var dynamicTableSize: (size: Int, capacity: Int) { (table.size, table.capacity) }

    /// Applies a table size the server has acknowledged (SETTINGS ACK for this client's
    /// SETTINGS_HEADER_TABLE_SIZE). Below the current capacity, the next block must begin with a
    /// size update to at most `newMax`.
    public mutating func setMaxTableSize(_ newMax: Int) {
        precondition(newMax >= 0, "negative HPACK table size")
        maxTableSize = newMax
        if table.capacity > newMax { sizeUpdateRequired = true }
    }

    /// Decodes one complete header block.
    ///
    /// - Returns: the fields in block order, each with the indexing it arrived with
    ///   (`.automatic` for indexed and incrementally indexed ones).
    /// - Throws: `HPACKError`; after any kind but `headerListTooLarge` the decoder is out of step
    ///   with the server and the connection must end with COMPRESSION_ERROR.
    public mutating func decode(_ block: ArraySlice<UInt8>) throws(HPACKError) -> [HPACKHeaderField] {
        var fields: [HPACKHeaderField] = []
        // One allocation for a typical response (at most 16 fields) instead of one per doubling.
        if !block.isEmpty { fields.reserveCapacity(16) }
        var listSize = 0
        var listTooLarge = false
        var sawField = false
        var index = block.startIndex
        while index < block.endIndex {
            let representationStart = index - block.startIndex
            let first = block[index]
            if first & 0xE0 == 0x20 {
                // Dynamic table size update: 001 + 5-bit prefix (§6.3).
                guard !sawField else { throw HPACKError(.tableSizeUpdateNotAtStart, at: representationStart) }
                let newSize = try HPACKInteger.decode(block, at: &index, prefixBits: 5)
                guard newSize <= maxTableSize else {
                    throw HPACKError(.tableSizeUpdateTooLarge, at: representationStart)
                }
                table.setCapacity(newSize)
                sizeUpdateRequired = false
                continue
            }
            guard !sizeUpdateRequired else { throw HPACKError(.missingTableSizeUpdate, at: representationStart) }
            sawField = true
            let field: HPACKHeaderField
            if first & 0x80 != 0 {
                // Indexed field: 1 + 7-bit index (§6.1).
                let fieldIndex = try HPACKInteger.decode(block, at: &index, prefixBits: 7)
                field = try entry(at: fieldIndex, offset: representationStart)
            } else if first & 0x40 != 0 {
                // Literal with incremental indexing: 01 + 6-bit name index (§6.2.1).
                field = try literal(block, at: &index, prefixBits: 6, indexing: .automatic)
                table.insert(field)
            } else {
                // Literal without indexing (0000) or never indexed (0001): 4-bit name index.
                let indexing: HPACKIndexing = first & 0x10 != 0 ? .neverIndexed : .withoutIndexing
                field = try literal(block, at: &index, prefixBits: 4, indexing: indexing)
            }
            listSize += field.hpackSize
            if listSize > maxHeaderListSize {
                listTooLarge = true
                fields = []
            } else if !listTooLarge {
                fields.append(field)
            }
        }
        if listTooLarge { throw HPACKError(.headerListTooLarge, at: block.count) }
        return fields
    }

    /// The static (1...61) or dynamic (62...) entry at an HPACK index.
    private func entry(at index: Int, offset: Int) throws(HPACKError) -> HPACKHeaderField {
        let staticCount = HPACKStaticTable.entries.count
        if index >= 1 && index <= staticCount { return HPACKStaticTable.entries[index - 1] }
        let dynamicIndex = index - staticCount - 1
        guard dynamicIndex >= 0 && dynamicIndex < table.count else { throw HPACKError(.invalidIndex, at: offset) }
        return table[dynamicIndex]
    }

    /// A literal field representation: a name index in the prefix (0: a literal name follows),
    /// then the value string (§6.2).
    private func literal(
        _ block: ArraySlice<UInt8>, at index: inout Int, prefixBits: Int, indexing: HPACKIndexing
    ) throws(HPACKError) -> HPACKHeaderField {
        let start = index - block.startIndex
        let nameIndex = try HPACKInteger.decode(block, at: &index, prefixBits: prefixBits)
        let name = nameIndex == 0 ? try string(block, at: &index) : try entry(at: nameIndex, offset: start).name
        let value = try string(block, at: &index)
        return HPACKHeaderField(name: name, value: value, indexing: indexing)
    }

    /// A string literal: H bit + 7-bit length, then that many bytes, Huffman-coded if H (§5.2).
    private func string(_ block: ArraySlice<UInt8>, at index: inout Int) throws(HPACKError) -> [UInt8] {
        guard index < block.endIndex else { throw HPACKError(.truncatedBlock, at: block.count) }
        let isHuffman = block[index] & 0x80 != 0
        let length = try HPACKInteger.decode(block, at: &index, prefixBits: 7)
        guard length <= block.endIndex - index else { throw HPACKError(.truncatedBlock, at: block.count) }
        let bytes = block[index..<index + length]
        let offset = index - block.startIndex
        index += length
        guard isHuffman else { return Array(bytes) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(length * 8 / 5)
        try HPACKHuffman.decode(bytes, blockOffset: offset, into: &decoded)
        return decoded
    }
}
