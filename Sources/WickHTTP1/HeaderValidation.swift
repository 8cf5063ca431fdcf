// The byte classes that decide what the request encoder may put on the wire (RFC 9110 §5.6.2, §5.5).
import WickCore

/// Byte rules for the request line and header fields, and the search for the first bad byte.
enum HeaderValidation {
    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    /// "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`. Methods and field names are `1*tchar`.
    /// See `isHTTPTokenByte` (its masks are checked by `HeaderValidationTests`).
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        isHTTPTokenByte(byte)
    }

    /// RFC 9110 §5.5: `field-vchar = VCHAR / obs-text`, with SP and HTAB inside a value. Every
    /// other control byte (NUL, CR, LF, DEL, ...) is refused: CR and LF would end the field and
    /// inject new ones, NUL is cut short by some servers.
    @inline(__always)
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// Whether a byte of `word` (eight bytes) is below 0x20 (a control byte, HTAB included) or is
    /// 0x7F (DEL): the word-at-a-time test of a field value, exact for "any" (Mycroft's test for a
    /// byte below n, n <= 0x80; the same on `word ^ 0x7F…` for a byte equal to 0x7F). Obs-text
    /// (0x80 and up) sets neither. A word it passes holds only valid field-value bytes; one it
    /// flags is checked byte by byte (HTAB is valid).
    @inline(__always)
    static func hasControlOrDeleteByte(_ word: UInt64) -> Bool {
        let control = (word &- 0x2020_2020_2020_2020) & ~word
        let deleteDiff = word ^ 0x7F7F_7F7F_7F7F_7F7F
        let delete = (deleteDiff &- 0x0101_0101_0101_0101) & ~deleteDiff
        return (control | delete) & 0x8080_8080_8080_8080 != 0
    }

    /// A request-target is a URI form (RFC 9112 §3.2): visible ASCII only, no space, no control
    /// byte, no non-ASCII (which must be percent-encoded), and no `#` (fragments are never sent).
    @inline(__always)
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#")
    }

    /// The offset and value of the first byte of `text` that `isValid` refuses, if any. Inlined so
    /// that each byte class's test is inlined into the loop over the string's contiguous UTF-8.
    @inline(__always)
    static func firstInvalidByte(in text: String, where isValid: (UInt8) -> Bool) -> (offset: Int, byte: UInt8)? {
        let bytes = text.utf8.span
        for offset in bytes.indices where !isValid(bytes[offset]) {
            return (offset, bytes[offset])
        }
        return nil
    }

    /// The fields the encoder writes or checks itself, told apart by length first so that the
    /// common case (any other name) costs one comparison.
    enum FieldKind {
        case host
        case contentLength
        case transferEncoding
        case trailer
        case other
    }

    /// Which of the encoder's own fields `name` is, case-insensitively.
    static func kind(of name: String) -> FieldKind {
        switch name.utf8.count {
        case 4 where name.equalsIgnoringASCIICase("Host"): .host
        case 7 where name.equalsIgnoringASCIICase("Trailer"): .trailer
        case 14 where name.equalsIgnoringASCIICase("Content-Length"): .contentLength
        case 17 where name.equalsIgnoringASCIICase("Transfer-Encoding"): .transferEncoding
        default: .other
        }
    }
}
