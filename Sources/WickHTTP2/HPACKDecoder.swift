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
    ///   (`.automatic` for indexed and incrementally indexed ones), their bytes in one buffer.
    /// - Throws: `HPACKError`; after any kind but `headerListTooLarge` the decoder is out of step
    ///   with the server and the connection must end with COMPRESSION_ERROR.
    public mutating func decode(_ block: ArraySlice<UInt8>) throws(HPACKError) -> HPACKFieldBlock {
        // One allocation each for a typical response's bytes and fields. Literals grow at most
        // 8/5 when Huffman-decoded, but an indexed field turns one byte into a whole table
        // entry, so the reserve has a floor that a typical response's fields fit in (a warm
        // connection's block is mostly indexes: 63 bytes for 507 of names and values in
        // `wick-bench hpack`).
        var fields = HPACKFieldBlock(reservingBytes: block.isEmpty ? 0 : max(1024, block.count * 8 / 5 + 256))
        var listSize = 0
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
            let counts: (name: Int, value: Int)
            let indexing: HPACKIndexing
            if first & 0x80 != 0 {
                // Indexed field: 1 + 7-bit index (§6.1). Its size is known before its bytes are
                // copied, so an entry indexed again and again past the limit is never copied.
                let fieldIndex = try HPACKInteger.decode(block, at: &index, prefixBits: 7)
                counts = try entryCounts(at: fieldIndex, offset: representationStart)
                indexing = .automatic
                if listSize + counts.name + counts.value + 32 <= maxHeaderListSize {
                    appendEntry(at: fieldIndex, nameOnly: false, to: &fields.bytes)
                }
            } else {
                // Literal with incremental indexing: 01 + 6-bit name index (§6.2.1); without
                // indexing (0000) or never indexed (0001): 4-bit name index (§6.2.2, §6.2.3).
                let isIndexed = first & 0x40 != 0
                indexing = isIndexed ? .automatic : first & 0x10 != 0 ? .neverIndexed : .withoutIndexing
                counts = try literal(block, at: &index, prefixBits: isIndexed ? 6 : 4, into: &fields.bytes)
                if isIndexed {
                    let decoded = fields.bytes
                    let nameStart = decoded.count - counts.value - counts.name
                    table.insert(
                        name: decoded[nameStart..<nameStart + counts.name], value: decoded[(nameStart + counts.name)...]
                    )
                }
            }
            listSize += counts.name + counts.value + 32
            if listSize > maxHeaderListSize {
                // Past the limit (for good: the size only grows), fields are decoded to keep the
                // table in step and dropped.
                fields.removeAll()
            } else {
                fields.endField(nameCount: counts.name, valueCount: counts.value, indexing: indexing)
            }
        }
        if listSize > maxHeaderListSize { throw HPACKError(.headerListTooLarge, at: block.count) }
        return fields
    }

    /// The name and value lengths of the static (1...61) or dynamic (62...) entry at an HPACK
    /// index.
    private func entryCounts(at index: Int, offset: Int) throws(HPACKError) -> (name: Int, value: Int) {
        if index >= 1 && index <= HPACKStaticTable.entries.count {
            let entry = HPACKStaticTable.entries[index - 1]
            return (entry.name.count, entry.value.count)
        }
        return table.counts(at: try dynamicIndex(index, offset: offset))
    }

    /// Appends the name (and value, unless `nameOnly`) of the entry at a valid HPACK index.
    private func appendEntry(at index: Int, nameOnly: Bool, to output: inout [UInt8]) {
        if index <= HPACKStaticTable.entries.count {
            let entry = HPACKStaticTable.entries[index - 1]
            output.append(contentsOf: entry.name)
            if !nameOnly { output.append(contentsOf: entry.value) }
        } else {
            table.append(index - HPACKStaticTable.entries.count - 1, nameOnly: nameOnly, to: &output)
        }
    }

    /// The dynamic table index of HPACK index `index` (62 and up), or `invalidIndex`.
    private func dynamicIndex(_ index: Int, offset: Int) throws(HPACKError) -> Int {
        let dynamicIndex = index - HPACKStaticTable.entries.count - 1
        guard dynamicIndex >= 0 && dynamicIndex < table.count else { throw HPACKError(.invalidIndex, at: offset) }
        return dynamicIndex
    }

    /// A literal field representation: a name index in the prefix (0: a literal name follows),
    /// then the value string (§6.2). The name and value are appended to `output`; returns their
    /// lengths.
    private func literal(
        _ block: ArraySlice<UInt8>, at index: inout Int, prefixBits: Int, into output: inout [UInt8]
    ) throws(HPACKError) -> (name: Int, value: Int) {
        let start = index - block.startIndex
        let nameIndex = try HPACKInteger.decode(block, at: &index, prefixBits: prefixBits)
        let nameCount: Int
        if nameIndex == 0 {
            nameCount = try string(block, at: &index, into: &output)
        } else {
            nameCount = try entryCounts(at: nameIndex, offset: start).name
            appendEntry(at: nameIndex, nameOnly: true, to: &output)
        }
        return (nameCount, try string(block, at: &index, into: &output))
    }

    /// A string literal: H bit + 7-bit length, then that many bytes, Huffman-coded if H (§5.2).
    /// Appends the string to `output`; returns its length.
    private func string(_ block: ArraySlice<UInt8>, at index: inout Int, into output: inout [UInt8]) throws(HPACKError)
        -> Int
    {
        guard index < block.endIndex else { throw HPACKError(.truncatedBlock, at: block.count) }
        let isHuffman = block[index] & 0x80 != 0
        let length = try HPACKInteger.decode(block, at: &index, prefixBits: 7)
        guard length <= block.endIndex - index else { throw HPACKError(.truncatedBlock, at: block.count) }
        let bytes = block[index..<index + length]
        let offset = index - block.startIndex
        index += length
        let before = output.count
        if isHuffman {
            try HPACKHuffman.decode(bytes, blockOffset: offset, into: &output)
        } else {
            output.append(contentsOf: bytes)
        }
        return output.count - before
    }
}
