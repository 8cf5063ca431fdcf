// HPACK's dynamic table (RFC 7541 §2.3.2, §4): newest first, bounded by a size in HPACK bytes.

/// One side's dynamic table: fields in insertion order, evicted oldest first so that their HPACK
/// sizes (`hpackSize`, 32 bytes of overhead each) never add up to more than `capacity`.
///
/// Memory is bounded by about twice `capacity`: evicted entries are released in batches (the
/// array is compacted once more than half of it is evicted), so an insert costs O(1) amortized.
struct HPACKDynamicTable: Sendable {
    /// The entries, oldest first; those before `oldest` are evicted and wait for compaction.
    private var entries: [HPACKHeaderField] = []
    private var oldest = 0
    /// The sum of the live entries' HPACK sizes.
    private(set) var size = 0
    /// The largest `size` allowed now (the last size update, or the initial 4,096).
    private(set) var capacity: Int

    /// An empty table with room for `capacity` bytes of entries.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many entries the table holds.
    var count: Int { entries.count - oldest }

    /// The entry at dynamic index `index`: 0 is the newest (HPACK index 62).
    subscript(index: Int) -> HPACKHeaderField {
        precondition(index >= 0 && index < count, "dynamic table index \(index) outside 0..<\(count)")
        return entries[entries.count - 1 - index]
    }

    /// Adds `field` as the newest entry, evicting the oldest ones to make room; a field larger
    /// than `capacity` empties the table and is not added (§4.4).
    mutating func insert(_ field: HPACKHeaderField) {
        let fieldSize = field.hpackSize
        guard fieldSize <= capacity else {
            evict(toFit: 0)
            return
        }
        evict(toFit: capacity - fieldSize)
        var stored = field
        stored.indexing = .automatic
        entries.append(stored)
        size += fieldSize
    }

    /// Sets the size the table may use, evicting entries that no longer fit (§4.3).
    mutating func setCapacity(_ newCapacity: Int) {
        precondition(newCapacity >= 0, "negative dynamic table capacity \(newCapacity)")
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
            if entry.name.count == nameLength && bytesEqual(entry.name, name) {
                let index = entries.count - 1 - position
                if entry.value.count == valueLength && bytesEqual(entry.value, value) {
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
        if oldest == entries.count {
            entries.removeAll(keepingCapacity: true)
            oldest = 0
        } else if oldest > 16 && oldest * 2 > entries.count {
            entries.removeFirst(oldest)
            oldest = 0
        }
    }
}
