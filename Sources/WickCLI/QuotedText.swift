// Text as a quoted literal, for `%{json}` (JSON strings) and `--print-swift` (Swift strings):
// the two agree on every escape but that of other control characters.

/// Quoting text with backslash escapes.
enum QuotedText {
    /// `text` in double quotes, with `"`, `\`, LF, CR and tab written `\"`, `\\`, `\n`, `\r`,
    /// `\t`, and every other control character (below U+0020, and U+007F) as `control` writes
    /// its code point.
    static func quoted(_ text: String, control: (UInt32) -> String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += control(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
