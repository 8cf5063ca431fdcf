// The parser-owned bytes of heads and trailers, shared read-only with the values handed out.
//
// Unsafe code lives here, in HTTPFieldBlock.swift and in HTTPResponseParser+Scanning.swift only.
//
// Ownership: one `HTTPResponseParser` (a noncopyable value, so never two) writes a storage
// object; `HTTPResponseHead` and `HTTPFieldList` values read it. The parser writes only
//   - at or after `count` (bytes no value refers to yet), or
//   - anywhere, after `isKnownUniquelyReferenced` proved no value refers to it any more.
// `bytes` and `fields` never move: growing means a new storage object. So a published range is
// never written again while anyone can read it, which is why the class can be shared across
// threads (`@unchecked Sendable`): readers touch only immutable bytes.

/// One field line's name and value as byte ranges of the storage.
struct HTTPFieldRange: Sendable {
    /// Start of the name.
    var nameStart: Int
    /// End of the name (the colon's index).
    var nameEnd: Int
    /// Start of the value, leading whitespace skipped.
    var valueStart: Int
    /// End of the value, trailing whitespace dropped.
    var valueEnd: Int
}

/// Fixed-capacity byte and field-range buffers for head and trailer sections.
final class HTTPHeadStorage: @unchecked Sendable {
    /// The bytes; capacity fixed at creation.
    let bytes: UnsafeMutableRawBufferPointer
    /// The field ranges; capacity fixed at creation.
    let fields: UnsafeMutableBufferPointer<HTTPFieldRange>
    /// Bytes written so far. Touched only by the owning parser.
    var count = 0
    /// Field ranges written so far. Touched only by the owning parser.
    var fieldCount = 0

    /// Empty storage with room for `byteCapacity` bytes and `fieldCapacity` fields.
    init(byteCapacity: Int, fieldCapacity: Int) {
        precondition(byteCapacity > 0 && fieldCapacity > 0, "head storage needs a positive capacity")
        // SAFETY: fresh allocations owned by this object and freed in deinit; alignment 1 for
        // bytes, the type's own alignment for the ranges.
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCapacity, alignment: 1)
        // SAFETY: as above; HTTPFieldRange is trivial, so uninitialised slots are only ever
        // written before being read (reads are below `fieldCount`).
        fields = UnsafeMutableBufferPointer<HTTPFieldRange>.allocate(capacity: fieldCapacity)
    }

    deinit {
        // SAFETY: allocated in init, never handed out beyond this object's lifetime (values
        // that read them hold a strong reference to this object).
        bytes.deallocate()
        // SAFETY: as above.
        fields.deallocate()
    }

    /// Appends `source` (the parser's input) after the current bytes. Capacity is the caller's
    /// responsibility and is checked.
    @inline(__always)
    func append(_ source: UnsafeRawBufferPointer) {
        precondition(count + source.count <= bytes.count, "head storage overflow: parser sized it wrong")
        // SAFETY: the destination range count..<count+source.count is inside `bytes` (checked
        // above) and past every published range; source and destination never overlap because
        // the source is the caller's buffer.
        UnsafeMutableRawBufferPointer(rebasing: bytes[count..<count + source.count])
            .copyMemory(from: source)
        count += source.count
    }

    /// Copies `range` of `other` (the bytes of a section in progress) to the end of this one.
    func append(bytesOf other: HTTPHeadStorage, in range: Range<Int>) {
        precondition(range.upperBound <= other.count, "copy from beyond the written bytes")
        // SAFETY: `range` is inside other's written bytes (checked above); `append` checks the
        // destination; two distinct objects never share memory.
        append(UnsafeRawBufferPointer(rebasing: other.bytes[range]))
    }

    /// How many bytes this storage can hold.
    var byteCapacity: Int { bytes.count }

    /// How many field ranges this storage can hold.
    var fieldCapacity: Int { fields.count }

    /// The field range at `index`, which must be below `fieldCount`.
    func field(at index: Int) -> HTTPFieldRange {
        precondition(index >= 0 && index < fieldCount, "field \(index) outside 0..<\(fieldCount)")
        // SAFETY: index is inside the written ranges (checked above).
        return fields[index]
    }

    /// The names of the fields at `positions` (below `fieldCount`), summarized for lookups.
    func nameSummary(of positions: Range<Int>) -> HTTPFieldNameSummary {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= fieldCount, "fields beyond the written ones")
        var summary = HTTPFieldNameSummary()
        for position in positions {
            // SAFETY: position is inside the written ranges (checked above), and a recorded name
            // is a non-empty range of the written bytes.
            let field = fields[position]
            summary.insert(
                count: field.nameEnd &- field.nameStart, first: bytes[field.nameStart], last: bytes[field.nameEnd &- 1])
        }
        return summary
    }

    /// Appends one field range. Capacity is the caller's responsibility and is checked.
    @inline(__always)
    func appendField(_ field: HTTPFieldRange) {
        precondition(fieldCount < fields.count, "field storage overflow: parser sized it wrong")
        fields[fieldCount] = field
        fieldCount += 1
    }

    /// The bytes of `range` decoded as UTF-8 (invalid sequences become U+FFFD).
    func string(_ range: Range<Int>) -> String {
        // SAFETY: callers pass ranges recorded by the parser inside the written bytes, which are
        // immutable while this value can see them (see the file comment).
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the bytes of `range` equal `other`, comparing ASCII letters without case.
    func equalsIgnoringASCIICase(_ range: Range<Int>, bytes other: UnsafeBufferPointer<UInt8>) -> Bool {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "compare beyond the written bytes")
        // SAFETY: `range` is inside the written bytes (checked above), which live as long as self.
        return UnsafeRawBufferPointer(rebasing: bytes[range]).equalsIgnoringASCIICase(other)
    }

    /// Whether the bytes of `range` equal `lowercase`, an ASCII literal written in lowercase,
    /// comparing ASCII letters without case, eight bytes per step (the last step overlaps the
    /// one before it). The parser's framing checks use it; only `A`–`Z` fold, so no other byte
    /// can pass for a letter or a `-`.
    @inline(__always)
    func equalsLowercase(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard range.count == count else { return false }
        precondition(range.lowerBound >= 0 && range.upperBound <= self.count, "compare beyond the written bytes")
        // SAFETY: a StaticString's UTF-8 start is valid for utf8CodeUnitCount bytes for the
        // program's lifetime; `range` is inside the written bytes (checked above), and every
        // read below stays within `count` bytes of either start.
        let expected = UnsafeRawPointer(lowercase.utf8Start)
        let stored = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped) + range.lowerBound
        guard count >= 8 else {
            var offset = 0
            while offset < count {
                // SAFETY: offset < count, inside both the stored range and the literal.
                let byte = stored.load(fromByteOffset: offset, as: UInt8.self)
                if byte.asciiLowercased != expected.load(fromByteOffset: offset, as: UInt8.self) { return false }
                offset += 1
            }
            return true
        }
        func wordsMatch(at offset: Int) -> Bool {
            // SAFETY: offset + 8 <= count (callers pass 0...count - 8).
            let word = stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let upper = bytesInRange(word & 0x7F7F_7F7F_7F7F_7F7F, 0x41, 0x5A) & ~word
            return word | upper >> 2 == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        var offset = 0
        while offset + 8 < count {
            if !wordsMatch(at: offset) { return false }
            offset += 8
        }
        return wordsMatch(at: count - 8)
    }

    /// Which framing field (RFC 9112 §6.3) a field name is.
    enum FramingFieldName {
        case connection
        case contentLength
        case transferEncoding
    }

    /// The first field in `positions` (below `fieldCount`) named Connection, Content-Length or
    /// Transfer-Encoding (ASCII case-insensitive): its position, its ranges and which of them it
    /// is; nil if none is.
    @inline(__always)
    func firstFramingField(
        in positions: Range<Int>
    ) -> (position: Int, field: HTTPFieldRange, name: FramingFieldName)? {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= fieldCount, "fields beyond the written ones")
        var position = positions.lowerBound
        while position < positions.upperBound {
            // SAFETY: position is inside the written ranges (checked above).
            let field = fields[position]
            // The length alone rules out almost every other field.
            switch field.nameEnd &- field.nameStart {
            case 10 where equalsLowercase(field.nameStart..<field.nameEnd, "connection"):
                return (position, field, .connection)
            case 14 where equalsLowercase(field.nameStart..<field.nameEnd, "content-length"):
                return (position, field, .contentLength)
            case 17 where equalsLowercase(field.nameStart..<field.nameEnd, "transfer-encoding"):
                return (position, field, .transferEncoding)
            default:
                position += 1
            }
        }
        return nil
    }

    /// The bytes of `range` (inside the written bytes) read as a decimal number: nil when
    /// `range` is empty, holds anything but digits, or overflows 64 bits.
    func decimalValue(_ range: Range<Int>) -> UInt64? {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "read beyond the written bytes")
        guard !range.isEmpty else { return nil }
        var value: UInt64 = 0
        var index = range.lowerBound
        while index < range.upperBound {
            // SAFETY: index is inside `range`, inside the written bytes (checked above).
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowA && !overflowB else { return nil }
            value = sum
            index += 1
        }
        return value
    }

    /// The index of the first `byte` in `range` (inside the written bytes), or nil.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "search beyond the written bytes")
        var index = range.lowerBound
        while index < range.upperBound {
            // SAFETY: index is inside `range`, inside the written bytes (checked above).
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// `range` (inside the written bytes) without leading and trailing SP and HTAB.
    func trimmingWhitespace(_ range: Range<Int>) -> Range<Int> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "trim beyond the written bytes")
        var lower = range.lowerBound
        var upper = range.upperBound
        // SAFETY: lower < upper keeps both reads inside `range` (checked above).
        while lower < upper && (bytes[lower] == 0x20 || bytes[lower] == 0x09) { lower += 1 }
        while upper > lower && (bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09) { upper -= 1 }
        return lower..<upper
    }

    /// Calls `body` with the bytes of `range`; the pointer must not escape the call.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // SAFETY: as in `string(_:)`; the buffer lives as long as this object, which the caller
        // keeps alive for the call.
        try body(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// The byte at `index`, which must be below `count`.
    func byte(at index: Int) -> UInt8 {
        precondition(index < count, "read beyond the written head bytes")
        // SAFETY: index is inside the written bytes (checked above).
        return bytes[index]
    }
}

/// Per byte of `word` (high bits clear), 0x80 where the byte is within `low...high`. Used by the
/// eight-bytes-per-step scans of the parser and by `equalsLowercase`.
@inline(__always)
func bytesInRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    // No carry crosses a byte: each byte is at most 0x7F and each addend at most 0x80.
    let atLeastLow = word &+ ones &* UInt64(0x80 &- low)
    let aboveHigh = word &+ ones &* UInt64(0x7F &- high)
    return atLeastLow & ~aboveHigh & 0x8080_8080_8080_8080
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes equal `other`'s, comparing ASCII letters without case: the one
    /// comparison of a stored field name with a name asked for (`HTTPHeadStorage`, `HTTPFieldBlock`).
    func equalsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for (stored, byte) in zip(self, other) where stored != byte && stored.asciiLowercased != byte.asciiLowercased {
            return false
        }
        return true
    }
}
