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
        var name = name
        // SAFETY: the name's UTF-8 and the field's bytes are lent for the closures only.
        return name.withUTF8 { asked in
            fields[start + position].name.withUnsafeBufferPointer { Self.matches($0, asked) }
        }
    }

    func firstPosition(ofName name: String) -> Int? {
        var name = name
        // SAFETY: `withUTF8` lends the name's contiguous UTF-8 for the closure only.
        return name.withUTF8 { asked in
            fields.firstPosition(from: start) { Self.matches($0, asked) }.map { $0 - start }
        }
    }

    /// Whether `stored` (lowercase, as HTTP/2 sends names) is `name` with its ASCII letters
    /// lowercased. Lengths first: most names asked for differ in length.
    private static func matches(_ stored: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == name.count else { return false }
        for (byte, asked) in zip(stored, name)
        where byte != (asked >= UInt8(ascii: "A") && asked <= UInt8(ascii: "Z") ? asked | 0x20 : asked) {
            return false
        }
        return true
    }
}
