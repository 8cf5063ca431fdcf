// A decoded header block: every field's bytes in one buffer, read through views.

/// The fields of one decoded header block (`HPACKDecoder.decode`), in block order.
///
/// Every name and value sits in one byte buffer, one after another, and each field is a view of
/// it: decoding a response's head costs two allocations (the bytes and the field list), not two
/// arrays per field as `HPACKHeaderField`s would.
public struct HPACKFieldBlock: RandomAccessCollection, Sendable {
    /// One field: slices of the block's bytes, and the indexing it arrived with
    /// (`.automatic` for indexed and incrementally indexed representations).
    public struct Field: Sendable {
        /// The field name, e.g. `content-type` or the pseudo-header `:status`.
        public let name: ArraySlice<UInt8>
        /// The field value.
        public let value: ArraySlice<UInt8>
        /// How the server represented the field.
        public let indexing: HPACKIndexing

        /// The size HPACK charges for this field: name and value lengths plus 32 (RFC 7541 §4.1).
        public var hpackSize: Int { name.count + value.count + 32 }
    }

    /// Where one field's bytes are: its name at `start`, its value right after it.
    private struct Span: Sendable {
        let start: Int
        let nameCount: Int
        let valueCount: Int
        let indexing: HPACKIndexing
    }

    /// Every field's name then value, back to back. The decoder appends a field's name and then
    /// its value here, and `endField` makes them one field.
    var bytes: [UInt8] = []
    private var spans: [Span] = []

    /// An empty block; `reservingBytes` sizes the byte buffer for what a block is expected to
    /// decode to, so that it grows once.
    init(reservingBytes byteCapacity: Int = 0) {
        guard byteCapacity > 0 else { return }
        bytes.reserveCapacity(byteCapacity)
        // A typical response has at most 16 fields.
        spans.reserveCapacity(16)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { spans.count }

    /// The field at `position`.
    public subscript(position: Int) -> Field {
        let span = spans[position]
        let valueStart = span.start + span.nameCount
        return Field(
            name: bytes[span.start..<valueStart], value: bytes[valueStart..<valueStart + span.valueCount],
            indexing: span.indexing)
    }

    /// Calls `body` with each field's position, name and value, in order, read in place from
    /// the block's bytes: no slice (and no reference count) per field.
    func forEachField<Failure: Error>(
        _ body: (_ position: Int, _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>)
            throws(Failure)
            -> Void
    ) throws(Failure) {
        // SAFETY: every span lies within `bytes` (`endField` makes them from bytes appended), and
        // the buffers are read inside the closure only.
        try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(Failure) in
            for (position, span) in spans.enumerated() {
                let valueStart = span.start + span.nameCount
                try body(
                    position, UnsafeBufferPointer(rebasing: buffer[span.start..<valueStart]),
                    UnsafeBufferPointer(rebasing: buffer[valueStart..<valueStart + span.valueCount]))
            }
        }
    }

    /// The position of the first field at or after `start` whose name satisfies `matches`, read in
    /// place as `forEachField` reads them.
    func firstPosition(from start: Int, whereName matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int? {
        // SAFETY: as in `forEachField`.
        bytes.withUnsafeBufferPointer { buffer in
            (start..<spans.count).first { position in
                let span = spans[position]
                return matches(UnsafeBufferPointer(rebasing: buffer[span.start..<span.start + span.nameCount]))
            }
        }
    }

    /// Makes the last `nameCount + valueCount` bytes of `bytes` a field.
    mutating func endField(nameCount: Int, valueCount: Int, indexing: HPACKIndexing) {
        spans.append(
            Span(
                start: bytes.count - nameCount - valueCount, nameCount: nameCount, valueCount: valueCount,
                indexing: indexing))
    }

    /// The fields as values of their own (two arrays each), for callers that keep or compare
    /// them apart from the block.
    public var fields: [HPACKHeaderField] {
        map { HPACKHeaderField(name: Array($0.name), value: Array($0.value), indexing: $0.indexing) }
    }

    /// Drops every field and their bytes (the list grew past its limit; capacity is kept).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }
}
