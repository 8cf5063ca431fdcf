// A JSON document as a Sendable Swift value: what `responseJSON` gives.
public import FoundationEssentials

/// A parsed JSON value (RFC 8259): what `responseJSON` and `serializingJSON()` give, where
/// Alamofire gives `JSONSerialization`'s `Any`. Being an enum, it is `Sendable`, `Hashable`, and
/// switched over without casts; `anyValue` gives the `Any` form for code written against
/// Alamofire.
///
/// Numbers without a fraction or exponent that fit in `Int64` are `.integer`, so ids survive
/// exactly; every other number is `.double` (`-0` too, to keep its sign).
public enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data` as one JSON text (any value at the top, surrounding whitespace allowed, a
    /// UTF-8 byte order mark skipped).
    /// - Throws: `JSONParsingError` naming the byte offset and what was wrong.
    public init(parsing data: Data, maximumDepth: Int = JSONParser.defaultMaximumDepth) throws(JSONParsingError) {
        self = try JSONParser.parse(data, maximumDepth: maximumDepth)
    }

    /// The member named `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; nil out of range or for a value that is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, for `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as a `Double`, for `.integer` and `.double`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The number as an `Int64`, for `.integer` (and a `.double` with no fractional part in range).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The bool, for `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The value as `JSONSerialization` shapes it: `[String: Any]`, `[Any]`, `String`, `Int64`,
    /// `Double`, `Bool`, and for `null` an `Optional<Any>.none` (there is no `NSNull` without
    /// Foundation). Also accepted back as `Parameters` by `JSONEncoding`.
    public var anyValue: Any {
        switch self {
        case .null: Optional<Any>.none as Any
        case .bool(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let elements): elements.map(\.anyValue)
        case .object(let members): members.mapValues(\.anyValue)
        }
    }

    /// The value as compact JSON text, keys sorted.
    public var description: String {
        var writer = JSONWriter(options: [.sortedKeys, .withoutEscapingSlashes])
        // Only non-finite numbers make the writer throw, and parsing never produces them.
        try? writer.write(anyValue, path: "", depth: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
