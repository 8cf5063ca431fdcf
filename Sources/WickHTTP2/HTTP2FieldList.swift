// A response's regular fields as HPACK decoded them, made strings only when read.
public import WickCore

/// The regular fields of an HTTP/2 response head, as `HTTPHeaders` reads them
/// (`HTTPFieldSource`): the decoded block itself, so a head nobody reads costs no strings. Building the strings eagerly cost an allocation for every name or value
/// longer than fifteen bytes (a date, a content type), a few per response.
///
/// Immutable after `init`, so safe to read from any thread.
final class HTTP2FieldList: HTTPFieldSource, Sendable {
    private let fields: HPACKFieldBlock
    /// The first regular field: the pseudo-headers before it are not headers.
    private let start: Int

    /// The fields of `fields` from `start` on, all regular (validated, lowercase names).
    init(_ fields: HPACKFieldBlock, regularFrom start: Int) {
        self.fields = fields
        self.start = start
    }

    var fieldCount: Int { fields.count - start }

    func field(at position: Int) -> HTTPHeader {
        let field = fields[start + position]
        return HTTPHeader(
            name: String(decoding: field.name, as: UTF8.self), value: String(decoding: field.value, as: UTF8.self))
    }

    func value(at position: Int) -> String {
        String(decoding: fields[start + position].value, as: UTF8.self)
    }

    func hasName(_ name: String, at position: Int) -> Bool {
        Self.matches(fields[start + position].name, name)
    }

    func firstPosition(ofName name: String) -> Int? {
        (0..<fieldCount).first { Self.matches(fields[start + $0].name, name) }
    }

    /// Whether `stored` (lowercase, as HTTP/2 sends names) is `name` with its ASCII letters
    /// lowercased. Lengths first: most names asked for differ in length.
    private static func matches(_ stored: ArraySlice<UInt8>, _ name: String) -> Bool {
        guard stored.count == name.utf8.count else { return false }
        for (byte, asked) in zip(stored, name.utf8)
        where byte != (asked >= UInt8(ascii: "A") && asked <= UInt8(ascii: "Z") ? asked | 0x20 : asked) {
            return false
        }
        return true
    }
}
