// One appended part: its header block (RFC 7578 §4.2, with HTML's escaping of quoted names) and where its content comes from.
import FoundationEssentials

/// One part of a `MultipartFormData`, as `append` recorded it.
struct MultipartBodyPart: Sendable {
    /// Where the part's content comes from when it is encoded.
    enum Content: Sendable {
        /// Bytes held in memory.
        case data(Data)
        /// A regular file at `path` (symbolic links resolved) of `size` bytes when appended.
        case file(path: String, size: UInt64)
        /// Bytes from a stream of your own; `name` is the part's name, for errors.
        case stream(name: String, MultipartStreamSource)

        /// The content's length in bytes.
        var length: UInt64 {
            switch self {
            case .data(let data): UInt64(data.count)
            case .file(_, let size): size
            case .stream(_, let source): source.length
            }
        }
    }

    /// The header fields and the empty line that ends them.
    let head: [UInt8]
    /// The content that follows `head`.
    let content: Content

    /// A part named `name`, with `filename` and `Content-Type` fields when given.
    ///
    /// ```
    /// Content-Disposition: form-data; name="<name>"; filename="<fileName>" CRLF
    /// Content-Type: <mimeType> CRLF
    /// CRLF
    /// ```
    /// `mimeType` must already be checked by `isValidMIMEType`.
    init(name: String, fileName: String?, mimeType: String?, content: Content) {
        var head = "Content-Disposition: form-data; name=\"\(Self.escapedQuotedValue(name))\""
        if let fileName { head += "; filename=\"\(Self.escapedQuotedValue(fileName))\"" }
        head += "\r\n"
        if let mimeType { head += "Content-Type: \(mimeType)\r\n" }
        head += "\r\n"
        self.head = Array(head.utf8)
        self.content = content
    }

    /// `value` ready to go between the quotes of a `name` or `filename` parameter: `"`, CR and
    /// LF become `%22`, `%0D` and `%0A`, as HTML's form submission does (RFC 7578 §2 leaves
    /// the escaping to it); other characters, non-ASCII included, go as their UTF-8 bytes.
    static func escapedQuotedValue(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else {
            return value
        }
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count + 6)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether `mimeType` can be a `Content-Type` value: no control character (anything below
    /// 0x20 but HTAB, and DEL), so it cannot end the line and add fields of its own.
    static func isValidMIMEType(_ mimeType: String) -> Bool {
        !mimeType.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
