// Why a body is not JSON, and where.

/// Why `JSONParser` refused its input: `offset` is the byte at which it stopped.
public struct JSONParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the parser found wrong.
    public enum Reason: Sendable, Hashable {
        /// The input ended inside a value (or was empty or all whitespace).
        case unexpectedEnd
        /// A byte that cannot start or continue a value here (printed as hex).
        case unexpectedByte(UInt8)
        /// A value was complete, then more than whitespace followed it.
        case trailingContent
        /// A number that does not follow RFC 8259's grammar (a leading zero, a bare `-`, a `.`
        /// without digits, ...), or one too large for a `Double`.
        case invalidNumber
        /// A control character (below U+0020) unescaped inside a string.
        case unescapedControlCharacter
        /// A backslash followed by something RFC 8259 does not define, or a `\u` without four
        /// hex digits.
        case invalidEscape
        /// A `\u` escape for half a surrogate pair without the other half.
        case unpairedSurrogate
        /// Bytes inside a string that are not UTF-8.
        case invalidUTF8
        /// Arrays and objects nested deeper than the limit (a guard against hostile documents
        /// that would exhaust the stack).
        case tooDeep(limit: Int)
    }

    /// What was wrong.
    public let reason: Reason
    /// The offset in the input, from 0, at which the parser stopped.
    public let offset: Int

    /// An error for `reason` at `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// What was wrong and where, for people.
    public var description: String {
        let what =
            switch reason {
            case .unexpectedEnd: "the JSON text ends too early"
            case .unexpectedByte(let byte): "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
            case .trailingContent: "content after the JSON value"
            case .invalidNumber: "an invalid number"
            case .unescapedControlCharacter: "a control character unescaped in a string"
            case .invalidEscape: "an invalid escape in a string"
            case .unpairedSurrogate: "an unpaired UTF-16 surrogate in a \\u escape"
            case .invalidUTF8: "a string that is not UTF-8"
            case .tooDeep(let limit): "arrays and objects nested deeper than \(limit)"
            }
        return "\(what) at byte \(offset)"
    }
}
