// A parsed head's or trailer section's fields, read in place from the parser's storage.

public import WickCore

/// The field lines of a response head or trailer section, in wire order.
///
/// Names and values stay bytes in the parser's storage until asked for: `headers` and the
/// `String` accessors allocate, while `contains(name:)`, `firstValue(forName:equals:)` and
/// `withFirstValueBytes(forName:_:)` compare bytes without allocating. Values have their
/// leading and trailing whitespace removed (RFC 9112 §5.1); each obs-fold is replaced by spaces
/// (§5.2) unless the parser was configured to reject it. A list stays valid (and unchanged) after the parser moves on.
public struct HTTPFieldList: Sendable, RandomAccessCollection {
    let storage: HTTPHeadStorage
    let fieldRange: Range<Int>
    /// Which names the fields may have: a lookup of a name they lack walks none of them.
    let nameSummary: HTTPFieldNameSummary

    init(storage: HTTPHeadStorage, fieldRange: Range<Int>) {
        self.storage = storage
        self.fieldRange = fieldRange
        nameSummary = storage.nameSummary(of: fieldRange)
    }

    /// The position of the first field.
    public var startIndex: Int { 0 }
    /// The position after the last field.
    public var endIndex: Int { fieldRange.count }

    /// The field at `position` as an `HTTPHeader` (allocates its two strings).
    public subscript(position: Int) -> HTTPHeader {
        HTTPHeader(name: name(at: position), value: value(at: position))
    }

    /// The name of the field at `position`, as sent.
    public func name(at position: Int) -> String {
        let field = range(at: position)
        return storage.string(field.nameStart..<field.nameEnd)
    }

    /// The value of the field at `position`, without surrounding whitespace.
    public func value(at position: Int) -> String {
        let field = range(at: position)
        return storage.string(field.valueStart..<field.valueEnd)
    }

    /// Calls `body` with the name and value bytes of the field at `position`; the buffers must
    /// not escape the call. Does not allocate.
    public func withBytes<Result>(
        at position: Int,
        _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let field = range(at: position)
        return try storage.withBytes(field.nameStart..<field.nameEnd) { name in
            try storage.withBytes(field.valueStart..<field.valueEnd) { value in try body(name, value) }
        }
    }

    /// Every field, in order, as `HTTPHeaders` (repeated names are kept).
    /// The bytes are copied into one allocation of their size and read into strings only when
    /// asked for (`HTTPHeaders(fieldsOf:)`).
    public var headers: HTTPHeaders {
        isEmpty ? HTTPHeaders() : HTTPHeaders(fieldsOf: HTTPFieldBlock.copying(self))
    }

    /// Whether a field has this name (ASCII case-insensitive). Does not allocate.
    public func contains(name: some StringProtocol) -> Bool {
        firstPosition(forName: name) != nil
    }

    /// The value of the first field with this name, or nil.
    public func firstValue(forName name: some StringProtocol) -> String? {
        firstPosition(forName: name).map { value(at: $0) }
    }

    /// The value of the first field with this name, or nil: `firstValue(forName:)` for a
    /// `String`, which callers in other modules reach without the generic entry point (and its
    /// conversion of the name to a new `String`).
    public func firstValue(forName name: String) -> String? {
        firstPosition(forName: name).map { value(at: $0) }
    }

    /// Whether the first field with this name has exactly this value, comparing ASCII letters
    /// without case. Does not allocate.
    public func firstValue(forName name: some StringProtocol, equals value: some StringProtocol) -> Bool {
        guard let position = firstPosition(forName: name) else { return false }
        let field = range(at: position)
        var value = String(value)
        // SAFETY: `value` is a local String, so its UTF-8 buffer is valid inside the closure; the
        // storage compares lengths before any byte and reads both only during the call.
        return value.withUTF8 { storage.equalsIgnoringASCIICase(field.valueStart..<field.valueEnd, bytes: $0) }
    }

    /// Calls `body` with the bytes of the first value with this name, or returns nil if there
    /// is none. The buffer must not escape the call. Does not allocate.
    public func withFirstValueBytes<Result>(
        forName name: some StringProtocol,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        guard let position = firstPosition(forName: name) else { return nil }
        let field = range(at: position)
        return try storage.withBytes(field.valueStart..<field.valueEnd, body)
    }

    /// The first field named `name`: its bytes are read once, then each field is compared by
    /// length first and by bytes only when the lengths agree (most names differ in length).
    private func firstPosition(forName name: some StringProtocol) -> Int? {
        firstPosition(forName: String(name))
    }

    /// `firstPosition(forName:)` for a `String`, without the conversion.
    private func firstPosition(forName name: String) -> Int? {
        var name = name
        // SAFETY: `name` is a local String whose UTF-8 buffer is valid inside the closure; it is
        // compared only after its count equals the field name's, and no pointer to it leaves the
        // closure.
        return name.withUTF8 { name in
            guard nameSummary.mayContain(name) else { return nil }
            for position in indices {
                let field = range(at: position)
                if field.nameEnd - field.nameStart == name.count,
                    storage.equalsIgnoringASCIICase(field.nameStart..<field.nameEnd, bytes: name)
                {
                    return position
                }
            }
            return nil
        }
    }

    private func range(at position: Int) -> HTTPFieldRange {
        precondition(indices.contains(position), "field position \(position) outside 0..<\(count)")
        return storage.field(at: fieldRange.lowerBound + position)
    }
}
