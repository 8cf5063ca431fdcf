// An ordered list of header fields with case-insensitive lookup, as Alamofire's HTTPHeaders.

/// Header fields in the order they were added, looked up case-insensitively by name.
///
/// Order is kept because it is meaningful on the wire (several `Set-Cookie` fields, several
/// `WWW-Authenticate` challenges). `update` replaces; `add` appends even if the name exists.
public struct HTTPHeaders: Hashable, Sendable {
    private var fields: [HTTPHeader] = []

    /// An empty list.
    public init() {}

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
        fields.reserveCapacity(capacity)
    }

    /// Appends a field, keeping any existing field with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Appends a field, keeping any existing field with the same name.
    public mutating func add(_ header: HTTPHeader) {
        fields.append(header)
    }

    /// Replaces the value of the first field with this name (keeping its position, taking the
    /// new spelling of the name), or appends the field if there is none.
    public mutating func update(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Replaces the first field with this header's name, or appends it if there is none.
    public mutating func update(_ header: HTTPHeader) {
        if let index = firstIndex(of: header.name) {
            fields[index] = header
        } else {
            fields.append(header)
        }
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Sorts the fields by lowercased name, stably.
    public mutating func sort() {
        fields = sorted().fields
    }

    /// A copy sorted by lowercased name, stably.
    public func sorted() -> HTTPHeaders {
        var copy = HTTPHeaders()
        copy.fields = fields.enumerated()
            .sorted { lhs, rhs in
                let (l, r) = (lhs.element.name.lowercased(), rhs.element.name.lowercased())
                return l == r ? lhs.offset < rhs.offset : l < r
            }
            .map(\.element)
        return copy
    }

    /// The value of the first field with this name.
    public func value(for name: String) -> String? {
        firstIndex(of: name).map { fields[$0].value }
    }

    /// The values of every field with this name, in order.
    public func values(for name: String) -> [String] {
        fields.lazy.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
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
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private func firstIndex(of name: String) -> Int? {
        fields.firstIndex { $0.name.equalsIgnoringASCIICase(name) }
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
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at a position.
    public subscript(position: Int) -> HTTPHeader { fields[position] }
}

extension HTTPHeaders: CustomStringConvertible {
    /// One `name: value` line per field.
    public var description: String {
        fields.map(\.description).joined(separator: "\n")
    }
}
