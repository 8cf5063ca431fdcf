// The challenges of a WWW-Authenticate field (RFC 9110 §11.6.1), parsed strictly.
import WickCore

/// One challenge of a `WWW-Authenticate` field: a scheme with either a token68 or parameters.
///
/// The grammar (RFC 9110 §11.2, §11.6.1, §5.6):
/// ```
/// WWW-Authenticate = #challenge
/// challenge     = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-scheme   = token
/// auth-param    = token BWS "=" BWS ( token / quoted-string )
/// token68       = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
/// quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
/// quoted-pair   = "\" ( HTAB / SP / VCHAR / obs-text )
/// ```
/// Commas separate both challenges and a challenge's parameters: after a comma, a token
/// followed by `=` is another parameter, anything else starts the next challenge. Empty list
/// elements (`, ,`) are skipped, as §5.6.1 asks of recipients.
struct HTTPAuthenticationChallenge: Sendable, Equatable {
    /// Why a field value is not a list of challenges, and the byte offset where that was found.
    enum ParseError: Error, Sendable, Equatable {
        /// A challenge must start with its scheme, a token.
        case expectedScheme(at: Int)
        /// A scheme must be followed by a space, a comma, or the end.
        case expectedSpaceAfterScheme(at: Int)
        /// A parameter name must be followed by `=`.
        case expectedEquals(at: Int)
        /// A parameter needs a token or quoted-string value.
        case expectedValue(at: Int)
        /// A value (or token68) must be followed by a comma or the end.
        case expectedComma(at: Int)
        /// A quoted-string was still open at the end of the field.
        case unterminatedQuotedString(at: Int)
        /// A byte not allowed in a quoted-string (a control character), or a `\` before one.
        case invalidQuotedStringByte(at: Int)
        /// A parameter name appeared twice in one challenge (RFC 9110 §11.2 forbids it).
        case duplicateParameter(name: String, at: Int)
    }

    /// The scheme as sent (`Digest`, `Basic`); compare it case-insensitively.
    var scheme: String
    /// The token68 form's value (`Negotiate abc==`), or nil when the challenge has parameters.
    var token68: String?
    /// The parameters, by lowercased name (names are case-insensitive), with quoted-strings
    /// unquoted.
    var parameters: [String: String]

    /// A challenge value.
    init(scheme: String, token68: String? = nil, parameters: [String: String] = [:]) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
    }

    /// Whether the scheme is `name`, ignoring ASCII case.
    func isScheme(_ name: String) -> Bool { scheme.equalsIgnoringASCIICase(name) }

    /// The parameter `name` (any case), or nil.
    func parameter(_ name: String) -> String? { parameters[name.lowercased()] }

    /// Every challenge of every `field` line in `headers`, in order. A line that does not parse
    /// is skipped whole: guessing at a malformed challenge could answer one the server did not
    /// send.
    static func challenges(in headers: HTTPHeaders, field: String = "WWW-Authenticate") -> [HTTPAuthenticationChallenge]
    {
        headers.values(for: field).flatMap { (try? parse($0)) ?? [] }
    }

    /// The challenges of one field value.
    /// - Throws: `ParseError`, with the byte offset in `value` where the grammar broke.
    static func parse(_ value: String) throws(ParseError) -> [HTTPAuthenticationChallenge] {
        var parser = Parser(bytes: Array(value.utf8))
        return try parser.challenges()
    }
}

extension HTTPAuthenticationChallenge {
    /// A cursor over a field value's bytes.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func challenges() throws(ParseError) -> [HTTPAuthenticationChallenge] {
            var found: [HTTPAuthenticationChallenge] = []
            skipListSeparators()
            while index < bytes.count {
                found.append(try challenge())
                skipListSeparators()
            }
            return found
        }

        /// One challenge, from its scheme to the comma (or end) after its last parameter.
        private mutating func challenge() throws(ParseError) -> HTTPAuthenticationChallenge {
            let schemeStart = index
            let scheme = scan(while: Self.isTokenByte)
            guard !scheme.isEmpty else { throw .expectedScheme(at: schemeStart) }
            var challenge = HTTPAuthenticationChallenge(scheme: Self.text(scheme))
            if atEnd || bytes[index] == UInt8(ascii: ",") { return challenge }
            guard bytes[index] == UInt8(ascii: " ") else { throw .expectedSpaceAfterScheme(at: index) }
            skip(while: { $0 == UInt8(ascii: " ") })
            if atEnd || bytes[index] == UInt8(ascii: ",") { return challenge }
            if let token68 = token68() {
                challenge.token68 = token68
                return challenge
            }
            while true {
                let nameStart = index
                let (name, value) = try parameter()
                let key = name.lowercased()
                guard challenge.parameters[key] == nil else { throw .duplicateParameter(name: name, at: nameStart) }
                challenge.parameters[key] = value
                skipOptionalWhitespace()
                if atEnd { return challenge }
                guard bytes[index] == UInt8(ascii: ",") else { throw .expectedComma(at: index) }
                // After the comma: another parameter of this challenge, or the next challenge.
                let afterComma = index
                skipListSeparators()
                if atEnd || !startsParameter() {
                    index = afterComma
                    return challenge
                }
            }
        }

        /// A token68 ending the challenge (followed by OWS then a comma or the end), consumed;
        /// otherwise nil with the cursor unmoved.
        private mutating func token68() -> String? {
            let start = index
            var probe = index
            while probe < bytes.count, Self.isToken68Byte(bytes[probe]) { probe += 1 }
            guard probe > start else { return nil }
            while probe < bytes.count, bytes[probe] == UInt8(ascii: "=") { probe += 1 }
            let end = probe
            while probe < bytes.count, Self.isWhitespace(bytes[probe]) { probe += 1 }
            guard probe == bytes.count || bytes[probe] == UInt8(ascii: ",") else { return nil }
            index = end
            return Self.text(bytes[start..<end])
        }

        /// Whether the cursor is at `token BWS "="` (a parameter, not a new challenge's scheme).
        private func startsParameter() -> Bool {
            var probe = index
            while probe < bytes.count, Self.isTokenByte(bytes[probe]) { probe += 1 }
            guard probe > index else { return false }
            while probe < bytes.count, Self.isWhitespace(bytes[probe]) { probe += 1 }
            return probe < bytes.count && bytes[probe] == UInt8(ascii: "=")
        }

        /// `token BWS "=" BWS ( token / quoted-string )`.
        private mutating func parameter() throws(ParseError) -> (String, String) {
            let name = scan(while: Self.isTokenByte)
            guard !name.isEmpty else { throw .expectedValue(at: index) }
            skipOptionalWhitespace()
            guard !atEnd, bytes[index] == UInt8(ascii: "=") else { throw .expectedEquals(at: index) }
            index += 1
            skipOptionalWhitespace()
            guard !atEnd else { throw .expectedValue(at: index) }
            if bytes[index] == UInt8(ascii: "\"") { return (Self.text(name), try quotedString()) }
            let value = scan(while: Self.isTokenByte)
            guard !value.isEmpty else { throw .expectedValue(at: index) }
            return (Self.text(name), Self.text(value))
        }

        /// A quoted-string's content, unescaped; the cursor is on its opening quote.
        private mutating func quotedString() throws(ParseError) -> String {
            let open = index
            index += 1
            var content: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return Self.text(content[...])
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { throw .unterminatedQuotedString(at: open) }
                    let escaped = bytes[index + 1]
                    guard Self.isQuotedPairByte(escaped) else { throw .invalidQuotedStringByte(at: index + 1) }
                    content.append(escaped)
                    index += 2
                default:
                    guard Self.isQuotedTextByte(byte) else { throw .invalidQuotedStringByte(at: index) }
                    content.append(byte)
                    index += 1
                }
            }
            throw .unterminatedQuotedString(at: open)
        }

        private var atEnd: Bool { index >= bytes.count }

        private mutating func scan(while predicate: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let start = index
            skip(while: predicate)
            return bytes[start..<index]
        }

        private mutating func skip(while predicate: (UInt8) -> Bool) {
            while index < bytes.count, predicate(bytes[index]) { index += 1 }
        }

        private mutating func skipOptionalWhitespace() { skip(while: Self.isWhitespace) }

        /// OWS and commas: the empty elements a list may hold.
        private mutating func skipListSeparators() {
            skip(while: { Self.isWhitespace($0) || $0 == UInt8(ascii: ",") })
        }

        private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

        private static func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 0x09 }

        /// token68's symbols besides the trailing `=` (RFC 9110 §11.2).
        private static let token68Symbols = Set("-._~+/".utf8)

        /// tchar (RFC 9110 §5.6.2); see `isHTTPTokenByte`.
        private static func isTokenByte(_ byte: UInt8) -> Bool {
            isHTTPTokenByte(byte)
        }

        /// A token68 character other than the trailing `=`.
        private static func isToken68Byte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: token68Symbols.contains(byte)
            }
        }

        /// qdtext: HTAB, SP, visible ASCII but `"` and `\`, obs-text.
        private static func isQuotedTextByte(_ byte: UInt8) -> Bool {
            byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
                || byte >= 0x80
        }

        /// What may follow `\`: HTAB, SP, VCHAR, obs-text.
        private static func isQuotedPairByte(_ byte: UInt8) -> Bool {
            byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
        }
    }
}
