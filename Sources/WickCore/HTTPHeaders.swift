// An ordered list of header fields with case-insensitive lookup, as Alamofire's HTTPHeaders.

/// Header fields in the order they were added, looked up case-insensitively by name.
///
/// Order is kept because it is meaningful on the wire (several `Set-Cookie` fields, several
/// `WWW-Authenticate` challenges). `update` replaces; `add` appends even if the name exists.
///
/// A list made from a parsed head (`init(fieldsOf:)`) keeps the head's bytes and makes strings
/// only for the fields read; the first change copies every field out.
///
/// `@unchecked Sendable`: `source` is immutable and thread-safe by `HTTPFieldSource`'s contract.
public struct HTTPHeaders: @unchecked Sendable {
    // `@usableFromInline` only so that walking the list (`endIndex`, the subscript) inlines into
    // the codec and the session; nothing outside this file touches them.
    @usableFromInline var fields: [HTTPHeader] = [] {
        didSet { vettedLines = nil }
    }
    /// The fields while they are still a parsed head's bytes (then `fields` is empty); nil after
    /// the first change.
    @usableFromInline var source: (any HTTPFieldSource)?
    /// The field lines as the request encoder wrote them when it found every field fit to send
    /// as it is (`HTTPRequestEncoder.vetted(_:)`), so that it need neither check nor write them
    /// again for each request the list goes with. Any change to the fields clears it; equality
    /// and hashing ignore it.
    package var vettedLines: VettedFieldLines?
    /// Whether the request encoder vetted the list (`vettedLines`).
    package var isVetted: Bool { vettedLines != nil }

    /// An empty list.
    public init() {}

    /// The fields of `source`, in its order (repeated names kept), read from it when asked for.
    public init(fieldsOf source: any HTTPFieldSource) {
        if source.fieldCount > 0 { self.source = source }
    }

    /// Copies the source's fields into `fields`, before a change.
    private mutating func materialize() {
        guard let source else { return }
        fields = (0..<source.fieldCount).map(source.field(at:))
        self.source = nil
    }

    /// A list from fields; a later field replaces an earlier one with the same name
    /// (case-insensitively), as in Alamofire.
    public init(_ headers: [HTTPHeader]) {
        fields.reserveCapacity(headers.count)
        for header in headers { update(header) }
    }

    /// A list from a dictionary. Order follows the dictionary's iteration order, which is
    /// unspecified; use the array form when order matters.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary { update(name: name, value: value) }
    }

    /// Makes room for `capacity` fields in all, so that adding up to that many allocates once.
    public mutating func reserveCapacity(_ capacity: Int) {
        materialize()
        fields.reserveCapacity(capacity)
    }

    /// Appends a field, keeping any existing field with the same name.
    public mutating func add(name: String, value: String) {
        materialize()
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Appends a field, keeping any existing field with the same name.
    public mutating func add(_ header: HTTPHeader) {
        materialize()
        fields.append(header)
    }

    /// Replaces the value of the first field with this name (keeping its position, taking the
    /// new spelling of the name), or appends the field if there is none.
    public mutating func update(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Replaces the first field with this header's name, or appends it if there is none.
    public mutating func update(_ header: HTTPHeader) {
        materialize()
        if let index = firstIndex(of: header.name) {
            fields[index] = header
        } else {
            fields.append(header)
        }
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        materialize()
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Sorts the fields by lowercased name, stably.
    public mutating func sort() {
        fields = sorted().fields
        source = nil
    }

    /// A copy sorted by lowercased name, stably.
    public func sorted() -> HTTPHeaders {
        var copy = HTTPHeaders()
        copy.fields = self.enumerated()
            .sorted { lhs, rhs in
                let (l, r) = (lhs.element.name.lowercased(), rhs.element.name.lowercased())
                return l == r ? lhs.offset < rhs.offset : l < r
            }
            .map(\.element)
        return copy
    }

    /// The value of the first field with this name.
    public func value(for name: String) -> String? {
        guard let index = firstIndex(of: name) else { return nil }
        return source?.value(at: index) ?? fields[index].value
    }

    /// The values of every field with this name, in order.
    public func values(for name: String) -> [String] {
        if let source {
            return (0..<source.fieldCount).filter { source.hasName(name, at: $0) }.map(source.value(at:))
        }
        return fields.lazy.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether any field has this name.
    public func contains(name: String) -> Bool {
        firstIndex(of: name) != nil
    }

    /// The first value for a name; setting a value updates the first field, setting `nil`
    /// removes every field with the name.
    public subscript(_ name: String) -> String? {
        get { value(for: name) }
        set {
            if let newValue {
                update(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// The fields as a dictionary; for repeated names the last value wins, as in Alamofire.
    public var dictionary: [String: String] {
        Dictionary(map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private func firstIndex(of name: String) -> Int? {
        if let source { return source.firstPosition(ofName: name) }
        return fields.firstIndex { $0.name.equalsIgnoringASCIICase(name) }
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// `["Accept": "application/json"]`; a later repeated name replaces an earlier one.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { update(name: name, value: value) }
    }
}

extension HTTPHeaders: ExpressibleByArrayLiteral {
    /// `[HTTPHeader(name:value:), ...]`; a later repeated name replaces an earlier one.
    public init(arrayLiteral elements: HTTPHeader...) {
        self.init(elements)
    }
}

extension HTTPHeaders: RandomAccessCollection {
    /// The position of the first field.
    @inlinable public var startIndex: Int { 0 }
    /// The position after the last field.
    @inlinable public var endIndex: Int { source?.fieldCount ?? fields.count }
    /// The field at a position.
    @inlinable public subscript(position: Int) -> HTTPHeader {
        guard let source else { return fields[position] }
        precondition(position >= 0 && position < source.fieldCount, "header position \(position) out of range")
        return source.field(at: position)
    }
}

extension HTTPHeaders: CustomStringConvertible {
    /// One `name: value` line per field.
    public var description: String {
        map(\.description).joined(separator: "\n")
    }
}

extension HTTPHeaders: Hashable {
    /// Equal when the fields are equal in order, however each list holds them.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        if lhs.source == nil && rhs.source == nil { return lhs.fields == rhs.fields }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for field in self { hasher.combine(field) }
    }
}
