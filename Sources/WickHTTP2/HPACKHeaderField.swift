// One field of a header block, as bytes, with how it may be indexed.

/// A header field as HPACK carries it: a name and a value of raw bytes (RFC 7541 §1.3), with the
/// indexing the sender asked for.
///
/// Names and values are bytes, not `String`s, because HPACK does not promise UTF-8 and the
/// HTTP/2 validation (RFC 9113 §8.2) inspects bytes; `WickHTTP2` checks them before any `String`
/// is made.
public struct HPACKHeaderField: Hashable, Sendable, CustomStringConvertible {
    /// The field name, e.g. `content-type` or the pseudo-header `:status`.
    public var name: [UInt8]
    /// The field value.
    public var value: [UInt8]
    /// How an encoder may index this field; how a decoder received it.
    public var indexing: HPACKIndexing

    /// A field from bytes.
    public init(name: [UInt8], value: [UInt8], indexing: HPACKIndexing = .automatic) {
        self.name = name
        self.value = value
        self.indexing = indexing
    }

    /// A field from strings (their UTF-8 bytes).
    public init(_ name: String, _ value: String, indexing: HPACKIndexing = .automatic) {
        self.init(name: Array(name.utf8), value: Array(value.utf8), indexing: indexing)
    }

    /// The size HPACK charges for this field: name and value lengths plus 32 (RFC 7541 §4.1),
    /// used by the dynamic table and by SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2).
    public var hpackSize: Int { name.count + value.count + 32 }

    /// `name: value`, decoded as UTF-8 (invalid bytes replaced).
    public var description: String {
        "\(String(decoding: name, as: UTF8.self)): \(String(decoding: value, as: UTF8.self))"
    }
}

/// Whether a field may enter the dynamic tables (RFC 7541 §6.2).
public enum HPACKIndexing: Hashable, Sendable {
    /// The encoder decides: it indexes the field unless it is too large for the table. A decoder
    /// reports fields it received indexed or with incremental indexing this way.
    case automatic
    /// Literal without indexing (§6.2.2): sent literally this time, not added to the table.
    case withoutIndexing
    /// Literal never indexed (§6.2.3): no intermediary may index it either. For secrets with
    /// guessable values (short cookies, authorization), against compression oracles (§7.1).
    case neverIndexed
}
