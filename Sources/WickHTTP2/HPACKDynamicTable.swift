// HPACK's dynamic table (RFC 7541 §2.3.2, §4): newest first, bounded by a size in HPACK bytes.

/// One side's dynamic table: fields in insertion order, evicted oldest first so that their HPACK
/// sizes (32 bytes of overhead each) never add up to more than `capacity`.
///
/// The entries' names and values sit back to back in one byte buffer, so an insert copies bytes
/// into it and allocates nothing once the buffer has grown, and a lookup reads contiguous bytes.
/// Memory is bounded by about twice `capacity`: evicted entries and their bytes are released in
/// batches (compacted once more than half of the entries, or more than `capacity` bytes, are
/// evicted), so an insert costs O(1) amortized.
struct HPACKDynamicTable: Sendable {
    /// Where one entry's bytes are in `bytes`: its name at `start`, its value right after it.
    private struct Entry: Sendable {
        var start: Int
        let nameCount: Int
        let valueCount: Int

        var hpackSize: Int { nameCount + valueCount + 32 }
        var nameRange: Range<Int> { start..<start + nameCount }
        var valueRange: Range<Int> { start + nameCount..<start + nameCount + valueCount }
    }

    /// The table as it was when `hold()` was called, for `rollBack(to:)`.
    struct Checkpoint {
        fileprivate let entryCount: Int
        fileprivate let oldest: Int
        fileprivate let size: Int
        fileprivate let byteCount: Int
    }

    /// The entries, oldest first; those before `oldest` are evicted and wait for compaction.
    private var entries: [Entry] = []
    private var oldest = 0
    /// Every entry's name then value, oldest first; evicted entries' bytes until compaction.
    private var bytes: [UInt8] = []
    /// The sum of the live entries' HPACK sizes.
    private(set) var size = 0
    /// The largest `size` allowed now (the last size update, or the initial 4,096).
    private(set) var capacity: Int
    /// Between `hold()` and `release()` or `rollBack(to:)`: evicted entries stay in the buffers
    /// (no compaction), so that the table can go back to the checkpoint.
    private var isHeld = false

    /// An empty table with room for `capacity` bytes of entries.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many entries the table holds.
    var count: Int { entries.count - oldest }

    /// The name and value lengths of the entry at dynamic index `index`.
    func counts(at index: Int) -> (name: Int, value: Int) {
        let entry = self.entry(index)
        return (entry.nameCount, entry.valueCount)
    }

    /// Appends the name of the entry at dynamic index `index` to `output`, and its value too
    /// unless `nameOnly`.
    func append(_ index: Int, nameOnly: Bool, to output: inout [UInt8]) {
        let entry = self.entry(index)
        output.append(contentsOf: bytes[nameOnly ? entry.nameRange : entry.start..<entry.valueRange.upperBound])
    }

    private func entry(_ index: Int) -> Entry {
        precondition(index >= 0 && index < count, "dynamic table index \(index) outside 0..<\(count)")
        return entries[entries.count - 1 - index]
    }

    /// Adds a field as the newest entry, evicting the oldest ones to make room; a field larger
    /// than `capacity` empties the table and is not added (§4.4).
    mutating func insert(name: some Collection<UInt8>, value: some Collection<UInt8>) {
        let entry = Entry(start: bytes.count, nameCount: name.count, valueCount: value.count)
        guard entry.hpackSize <= capacity else {
            evict(toFit: 0)
            return
        }
        // Evicting first may compact `bytes`, so the entry's start is taken after it.
        evict(toFit: capacity - entry.hpackSize)
        // The first insert sizes the buffers for a full table: one allocation each instead of
        // one per doubling (a connection's first response fills the table).
        if bytes.capacity == 0 {
            bytes.reserveCapacity(capacity)
            entries.reserveCapacity(16)
        }
        entries.append(Entry(start: bytes.count, nameCount: entry.nameCount, valueCount: entry.valueCount))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: value)
        size += entry.hpackSize
    }

    /// Starts a change the caller may undo (an encoder's header block): returns where
    /// `rollBack(to:)` goes back to, and keeps every evicted entry until `release()` or the
    /// rollback.
    mutating func hold() -> Checkpoint {
        precondition(!isHeld, "HPACKDynamicTable.hold while already held")
        isHeld = true
        return Checkpoint(entryCount: entries.count, oldest: oldest, size: size, byteCount: bytes.count)
    }

    /// Keeps the changes made since `hold()`, and compacts what they evicted if it is time.
    mutating func release() {
        precondition(isHeld, "HPACKDynamicTable.release without hold")
        isHeld = false
        compactIfWorthwhile()
    }

    /// Undoes every insert and eviction since `hold()` returned `checkpoint`.
    mutating func rollBack(to checkpoint: Checkpoint) {
        precondition(isHeld, "HPACKDynamicTable.rollBack without hold")
        entries.removeLast(entries.count - checkpoint.entryCount)
        bytes.removeLast(bytes.count - checkpoint.byteCount)
        oldest = checkpoint.oldest
        size = checkpoint.size
        isHeld = false
    }

    /// Sets the size the table may use, evicting entries that no longer fit (§4.3).
    mutating func setCapacity(_ newCapacity: Int) {
        precondition(newCapacity >= 0, "negative dynamic table capacity \(newCapacity)")
        precondition(!isHeld, "HPACKDynamicTable.setCapacity during a held change")
        capacity = newCapacity
        evict(toFit: newCapacity)
    }

    /// The dynamic indexes (0 newest) of the newest entry with this name and value, and of the
    /// newest entry with this name, for the encoder.
    func find(name: some Collection<UInt8>, value: some Collection<UInt8>) -> (exact: Int?, nameOnly: Int?) {
        let nameLength = name.count
        let valueLength = value.count
        var nameOnly: Int?
        var position = entries.count - 1
        while position >= oldest {
            let entry = entries[position]
            if entry.nameCount == nameLength && bytesEqual(bytes[entry.nameRange], name) {
                let index = entries.count - 1 - position
                if entry.valueCount == valueLength && bytesEqual(bytes[entry.valueRange], value) {
                    return (index, nameOnly ?? index)
                }
                if nameOnly == nil { nameOnly = index }
            }
            position -= 1
        }
        return (nil, nameOnly)
    }

    /// Evicts the oldest entries until `size` is at most `limit`.
    private mutating func evict(toFit limit: Int) {
        while size > limit {
            size -= entries[oldest].hpackSize
            oldest += 1
        }
        if !isHeld { compactIfWorthwhile() }
    }

    /// Drops the evicted entries and their bytes when every entry is evicted, more than half of
    /// them are, or more than `capacity` bytes are.
    private mutating func compactIfWorthwhile() {
        if oldest == entries.count {
            entries.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            oldest = 0
            return
        }
        let evictedBytes = entries[oldest].start
        if oldest > 16 && oldest * 2 > entries.count || evictedBytes > capacity {
            entries.removeFirst(oldest)
            bytes.removeFirst(evictedBytes)
            for position in entries.indices { entries[position].start -= evictedBytes }
            oldest = 0
        }
    }
}
