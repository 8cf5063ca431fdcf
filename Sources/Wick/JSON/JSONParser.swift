// A strict RFC 8259 parser: bytes in, a JSONValue out, or an error naming the byte.
public import FoundationEssentials

/// Parses JSON text (RFC 8259) into a `JSONValue`. Strict where `JSONDecoder` is lenient: no
/// trailing commas, comments, single quotes, `NaN`, leading zeros or unescaped control
/// characters; strings must be UTF-8 and `\u` escapes must pair their surrogates. Any value may
/// stand at the top (as `JSONSerialization` with `.fragmentsAllowed`, Alamofire's default).
/// Nesting is limited (`maximumDepth`) so that a hostile document cannot exhaust the stack; a
/// duplicate key keeps its last value.
public struct JSONParser {
    /// Nesting allowed by default: 512 levels of arrays and objects, as in swift-foundation's
    /// `JSONDecoder`.
    public static let defaultMaximumDepth = 512

    private let bytes: UnsafeRawBufferPointer
    private let maximumDepth: Int
    private var offset = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses `data` as one JSON text.
    /// - Throws: `JSONParsingError` naming the reason and the byte offset.
    public static func parse(_ data: Data, maximumDepth: Int = defaultMaximumDepth) throws(JSONParsingError)
        -> JSONValue
    {
        // SAFETY: `bytes` is valid only inside this closure; the parser that holds it is made, used and
        // dropped inside it, and every value it returns owns copies of the bytes it needed.
        let result: Result<JSONValue, JSONParsingError> = data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
            return Result { () throws(JSONParsingError) in try parser.document() }
        }
        return try result.get()
    }

    private mutating func document() throws(JSONParsingError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        let value = try self.value()
        skipWhitespace()
        guard offset == bytes.count else { throw JSONParsingError(.trailingContent, at: offset) }
        return value
    }

    private mutating func value() throws(JSONParsingError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw JSONParsingError(.unexpectedEnd, at: offset) }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw JSONParsingError(.unexpectedByte(byte), at: offset)
        }
    }

    private mutating func object() throws(JSONParsingError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        offset += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            members[key] = try value()
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return .object(members)
            default: throw unexpected()
            }
        }
    }

    private mutating func array() throws(JSONParsingError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        offset += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; return .array(elements)
            default: throw unexpected()
            }
        }
    }

    /// A string from its opening quote; leaves `offset` after the closing one.
    private mutating func string() throws(JSONParsingError) -> String {
        offset += 1  // "
        let start = offset
        // The common case, no escapes: validate the run as UTF-8 in one go.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = try utf8(start..<offset, errorAt: start)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONParsingError(.unescapedControlCharacter, at: offset) }
            offset += 1
        }
        var text = try utf8(start..<offset, errorAt: start)
        var runStart = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                text += try utf8(runStart..<offset, errorAt: runStart)
                offset += 1
                return text
            case UInt8(ascii: "\\"):
                text += try utf8(runStart..<offset, errorAt: runStart)
                text.unicodeScalars.append(try escape())
                runStart = offset
            case ..<0x20:
                throw JSONParsingError(.unescapedControlCharacter, at: offset)
            default:
                offset += 1
            }
        }
        throw JSONParsingError(.unexpectedEnd, at: offset)
    }

    /// One escape from its backslash; leaves `offset` after it.
    private mutating func escape() throws(JSONParsingError) -> Unicode.Scalar {
        let start = offset
        offset += 1
        guard offset < bytes.count else { throw JSONParsingError(.unexpectedEnd, at: offset) }
        let letter = bytes[offset]
        offset += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit(escapeAt: start)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by `\u` and a low one.
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw JSONParsingError(.unpairedSurrogate, at: start) }
                offset += 2
                let low = try hexUnit(escapeAt: start)
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONParsingError(.unpairedSurrogate, at: start) }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                return Unicode.Scalar(value)!
            case 0xDC00...0xDFFF:
                throw JSONParsingError(.unpairedSurrogate, at: start)
            default:
                return Unicode.Scalar(unit)!
            }
        default:
            throw JSONParsingError(.invalidEscape, at: start)
        }
    }

    /// Four hex digits after `\u`.
    private mutating func hexUnit(escapeAt start: Int) throws(JSONParsingError) -> UInt16 {
        guard offset + 4 <= bytes.count else { throw JSONParsingError(.invalidEscape, at: start) }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch bytes[offset] {
            case let byte where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): digit = byte - UInt8(ascii: "0")
            case let byte where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte): digit = byte - UInt8(ascii: "a") + 10
            case let byte where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParsingError(.invalidEscape, at: start)
            }
            unit = unit << 4 | UInt16(digit)
            offset += 1
        }
        return unit
    }

    /// A number per RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(JSONParsingError) -> JSONValue {
        let start = offset
        var isInteger = true
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw JSONParsingError(.invalidNumber, at: start) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw JSONParsingError(.invalidNumber, at: start) }
        } else {
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw JSONParsingError(.invalidNumber, at: start) }
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw JSONParsingError(.invalidNumber, at: start) }
            skipDigits()
        }
        // SAFETY: start <= offset <= bytes.count (offset only advances under an `offset < bytes.count`
        // check), so the slice is inside `bytes`; String(decoding:) copies it.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        // `-0` keeps its sign as a double: as an integer it would print back as `0`.
        if isInteger, text != "-0", let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw JSONParsingError(.invalidNumber, at: start) }
        return .double(double)
    }

    private mutating func literal(_ word: StaticString) throws(JSONParsingError) {
        // SAFETY: `word` is one of the literals "true", "false" and "null", stored with a pointer to
        // its UTF-8 bytes that stays valid for the program's lifetime, utf8CodeUnitCount bytes long.
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard offset < bytes.count else { throw JSONParsingError(.unexpectedEnd, at: offset) }
            guard bytes[offset] == byte else { throw unexpected() }
            offset += 1
        }
    }

    private mutating func enterContainer() throws(JSONParsingError) {
        depth += 1
        guard depth <= maximumDepth else { throw JSONParsingError(.tooDeep(limit: maximumDepth), at: offset) }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParsingError) {
        guard try peek() == byte else { throw unexpected() }
        offset += 1
    }

    private func peek() throws(JSONParsingError) -> UInt8 {
        guard offset < bytes.count else { throw JSONParsingError(.unexpectedEnd, at: offset) }
        return bytes[offset]
    }

    private func unexpected() -> JSONParsingError {
        JSONParsingError(.unexpectedByte(bytes[offset]), at: offset)
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private func utf8(_ range: Range<Int>, errorAt start: Int) throws(JSONParsingError) -> String {
        // SAFETY: callers pass start..<offset ranges of the string just scanned, with offset <=
        // bytes.count; String(validating:) copies the bytes.
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw JSONParsingError(.invalidUTF8, at: start)
        }
        return text
    }
}
