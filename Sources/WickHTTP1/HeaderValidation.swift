// The byte classes that decide what the request encoder may put on the wire (RFC 9110 §5.6.2, §5.5).

/// Byte rules for the request line and header fields, and the search for the first bad byte.
enum HeaderValidation {
    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    /// "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`. Methods and field names are `1*tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// RFC 9110 §5.5: `field-vchar = VCHAR / obs-text`, with SP and HTAB inside a value. Every
    /// other control byte (NUL, CR, LF, DEL, ...) is refused: CR and LF would end the field and
    /// inject new ones, NUL is cut short by some servers.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// A request-target is a URI form (RFC 9112 §3.2): visible ASCII only, no space, no control
    /// byte, no non-ASCII (which must be percent-encoded), and no `#` (fragments are never sent).
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#")
    }

    /// The offset and value of the first byte of `text` that `isValid` refuses, if any.
    static func firstInvalidByte(in text: String, where isValid: (UInt8) -> Bool) -> (offset: Int, byte: UInt8)? {
        var offset = 0
        for byte in text.utf8 {
            if !isValid(byte) { return (offset, byte) }
            offset += 1
        }
        return nil
    }
}
