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
    /// The header block `startBlock` began and `field(name:value:indexing:)` extends; its storage
    /// is reused from block to block.
    private(set) var block: [UInt8] = []
    /// The size of the fields added to `block`, as SETTINGS_MAX_HEADER_LIST_SIZE counts it
    /// (RFC 9113 §6.5.2: each field's name and value lengths plus 32).
    private(set) var blockListSize = 0
    /// The block in progress: the table and the pending size update as it began, which
    /// `abandonBlock` restores.
    private var blockStart:
        (checkpoint: HPACKDynamicTable.Checkpoint, pendingSizeUpdate: (smallest: Int, latest: Int)?)?

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
        appendPendingSizeUpdate(to: &output)
        for field in fields { encode(name: field.name, value: field.value, indexing: field.indexing, into: &output) }
    }

    /// Starts a new header block in `block`: the previous one is cleared (its storage kept for
    /// the next) and the block opens with any dynamic table size update due (§4.2). Fields are
    /// then added with `field(name:value:indexing:)`, and the block kept with `endBlock()` or
    /// undone with `abandonBlock()`.
    private mutating func startBlock() {
        precondition(blockStart == nil, "HPACKEncoder.startBlock during a block")
        blockStart = (table.hold(), pendingSizeUpdate)
        blockListSize = 0
        var output: [UInt8] = []
        swap(&output, &block)
        output.removeAll(keepingCapacity: true)
        appendPendingSizeUpdate(to: &output)
        swap(&output, &block)
    }

    /// Starts a block (`startBlock()`) and has `fields` add its fields; when `fields` throws, the
    /// block is abandoned (`abandonBlock()`) and the error goes on. The block is then kept with
    /// `endBlock()` or still abandoned.
    mutating func startBlock<Failure: Error>(
        adding fields: (inout HPACKEncoder) throws(Failure) -> Void
    ) throws(Failure) {
        startBlock()
        do {
            try fields(&self)
        } catch {
            abandonBlock()
            throw error
        }
    }

    /// Keeps the block: its table changes stand, and `block` holds it until the next one.
    mutating func endBlock() {
        precondition(blockStart != nil, "HPACKEncoder.endBlock without a block")
        blockStart = nil
        table.release()
    }

    /// Undoes the block (a request refused part way): the table and the size updates due are as
    /// before `startBlock()`, and `block` is empty, as if it had never begun.
    mutating func abandonBlock() {
        guard let start = blockStart else { preconditionFailure("HPACKEncoder.abandonBlock without a block") }
        blockStart = nil
        table.rollBack(to: start.checkpoint)
        pendingSizeUpdate = start.pendingSizeUpdate
        block.removeAll(keepingCapacity: true)
        blockListSize = 0
    }

    /// Appends one field to `block` (see `encode(name:value:indexing:into:)`) and counts it in
    /// `blockListSize`.
    mutating func field(name: some Collection<UInt8>, value: some Collection<UInt8>, indexing: HPACKIndexing) {
        blockListSize += name.count + value.count + 32
        // Swapped out and back rather than copied, so the buffer stays uniquely referenced.
        var output: [UInt8] = []
        swap(&output, &block)
        encode(name: name, value: value, indexing: indexing, into: &output)
        swap(&output, &block)
    }

    /// The dynamic table size updates due since the last block (§4.2), at the start of a block.
    private mutating func appendPendingSizeUpdate(to output: inout [UInt8]) {
        guard let update = pendingSizeUpdate else { return }
        if update.smallest < update.latest {
            HPACKInteger.encode(update.smallest, prefixBits: 5, firstByteFlags: 0x20, into: &output)
        }
        HPACKInteger.encode(update.latest, prefixBits: 5, firstByteFlags: 0x20, into: &output)
        pendingSizeUpdate = nil
    }

    /// Appends one field's representation to `output`: an index when the field is in a table,
    /// else a literal (its name indexed when known), entering the dynamic table when `indexing`
    /// is `.automatic` and it fits. Allocates only to add a field to the dynamic table.
    private mutating func encode(
        name: some Collection<UInt8>, value: some Collection<UInt8>, indexing: HPACKIndexing,
        into output: inout [UInt8]
    ) {
        let staticCount = HPACKStaticTable.entries.count
        let inStaticTable = HPACKStaticTable.find(name: name, value: value)
        var nameIndex = inStaticTable.nameOnly
        if indexing == .automatic {
            if let index = inStaticTable.exact {
                HPACKInteger.encode(index, prefixBits: 7, firstByteFlags: 0x80, into: &output)
                return
            }
            let found = table.find(name: name, value: value)
            if let exact = found.exact {
                HPACKInteger.encode(staticCount + 1 + exact, prefixBits: 7, firstByteFlags: 0x80, into: &output)
                return
            }
            if nameIndex == nil, let dynamic = found.nameOnly { nameIndex = staticCount + 1 + dynamic }
        } else if nameIndex == nil, let dynamic = table.find(name: name, value: value).nameOnly {
            nameIndex = staticCount + 1 + dynamic
        }

        let indexes = indexing == .automatic && name.count + value.count + 32 <= table.capacity
        switch (indexing, indexes) {
        case (.automatic, true):
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 6, firstByteFlags: 0x40, into: &output)
        case (.neverIndexed, _):
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 4, firstByteFlags: 0x10, into: &output)
        default:
            HPACKInteger.encode(nameIndex ?? 0, prefixBits: 4, firstByteFlags: 0x00, into: &output)
        }
        if nameIndex == nil { Self.encodeString(name, into: &output) }
        Self.encodeString(value, into: &output)
        if indexes { table.insert(name: name, value: value) }
    }

    /// A string literal, Huffman-coded unless that is longer (§5.2; a tie goes to Huffman, as in
    /// RFC 7541 Appendix C.6).
    private static func encodeString(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
        let huffmanCount = HPACKHuffman.encodedCount(of: bytes)
        let count = bytes.count
        if huffmanCount <= count {
            HPACKInteger.encode(huffmanCount, prefixBits: 7, firstByteFlags: 0x80, into: &output)
            HPACKHuffman.encode(bytes, encodedCount: huffmanCount, into: &output)
        } else {
            HPACKInteger.encode(count, prefixBits: 7, firstByteFlags: 0x00, into: &output)
            output.append(contentsOf: bytes)
        }
    }
}
