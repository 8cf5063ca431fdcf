// Golden test cases read from readable text files: raw input, options, expected events.

/// One golden case: a name, options, the raw input bytes and the expected event lines.
///
/// File format (one file holds many cases; see `Tests/WickHTTP1Tests/Fixtures/README.md`):
///
/// ```
/// # Comment lines start with '#' (outside input blocks).
/// ### a case's name
/// options: method=HEAD allowBareLF maxFieldLineBytes=20
/// input:
/// HTTP/1.1 200 OK\r\n
/// Content-Length: 5\r\n
/// \r\n
/// hello
/// expect:
/// head 200 HTTP/1.1 length:5 OK
/// field Content-Length: 5
/// body hello
/// end reusable
/// ```
///
/// Input lines are joined without their newlines, then unescaped: `\r`, `\n`, `\t`, `\0`,
/// `\\` and `\xHH`. Trailing whitespace of an input line is dropped (write `\x20` to keep a
/// final space); leading whitespace is kept. `options:` holds `key=value` and bare `flag`
/// words. Expected lines are compared verbatim with what the test harness records.
public struct GoldenCase: Sendable, CustomStringConvertible {
    /// The file the case came from (its last path component).
    public let file: String
    /// The case's name (after `###`).
    public let name: String
    /// `key=value` options; bare flags map to `"true"`.
    public let options: [String: String]
    /// The unescaped input.
    public let input: [UInt8]
    /// The expected event lines, in order.
    public let expected: [String]

    /// A case built in code.
    public init(file: String, name: String, options: [String: String], input: [UInt8], expected: [String]) {
        self.file = file
        self.name = name
        self.options = options
        self.input = input
        self.expected = expected
    }

    /// `file: name`, for test output.
    public var description: String { "\(file): \(name)" }

    /// A problem in a fixture file.
    public struct FormatError: Error, CustomStringConvertible {
        /// What is wrong and where.
        public let description: String
    }

    /// Parses every case in a fixture file's text.
    ///
    /// - Throws: `FormatError` for a bad escape, a missing `input:`/`expect:` block, or text
    ///   outside a case.
    public static func parse(_ text: String, file: String) throws -> [GoldenCase] {
        enum Block { case header, input, expect }
        var cases: [GoldenCase] = []
        var name: String?
        var options: [String: String] = [:]
        var input: [UInt8] = []
        var expected: [String] = []
        var block = Block.header
        var sawInput = false

        func finish(line: Int) throws {
            guard let current = name else { return }
            guard sawInput, block == .expect else {
                throw FormatError(description: "\(file):\(line): case '\(current)' needs input: and expect: blocks")
            }
            cases.append(GoldenCase(file: file, name: current, options: options, input: input, expected: expected))
        }

        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            if line.hasPrefix("### ") {
                try finish(line: number + 1)
                name = String(line.dropFirst(4))
                (options, input, expected, block, sawInput) = ([:], [], [], .header, false)
                continue
            }
            switch block {
            case .header:
                let trimmed = line.trimmingTrailingWhitespace
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard name != nil else {
                    throw FormatError(description: "\(file):\(number + 1): text before the first '### ' case")
                }
                if trimmed.hasPrefix("options:") {
                    for word in trimmed.dropFirst("options:".count).split(separator: " ") {
                        let parts = word.split(separator: "=", maxSplits: 1)
                        options[String(parts[0])] = parts.count == 2 ? String(parts[1]) : "true"
                    }
                } else if trimmed == "input:" {
                    block = .input
                    sawInput = true
                } else {
                    throw FormatError(description: "\(file):\(number + 1): expected options: or input:")
                }
            case .input:
                if line.trimmingTrailingWhitespace == "expect:" {
                    block = .expect
                    continue
                }
                input += try unescape(line.trimmingTrailingWhitespace, at: "\(file):\(number + 1)")
            case .expect:
                let trimmed = line.trimmingTrailingWhitespace
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                expected.append(trimmed)
            }
        }
        try finish(line: text.count)
        return cases
    }

    /// Turns `\r`, `\n`, `\t`, `\0`, `\\` and `\xHH` into bytes; every other character is its
    /// UTF-8 bytes.
    ///
    /// - Throws: `FormatError` for an unknown or truncated escape.
    public static func unescape(_ text: String, at location: String = "input") throws -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            switch iterator.next() {
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "0"): bytes.append(0x00)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "x"):
                guard let high = iterator.next().flatMap(hexDigit), let low = iterator.next().flatMap(hexDigit) else {
                    throw FormatError(description: "\(location): \\x needs two hex digits")
                }
                bytes.append(high << 4 | low)
            default:
                throw FormatError(description: "\(location): unknown escape in '\(text)'")
            }
        }
        return bytes
    }

    /// The inverse of `unescape` for display: printable ASCII stays, CR, LF, HTAB, NUL and `\`
    /// get their short escapes, every other byte becomes `\xHH`.
    public static func escape(_ bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x0D: text += "\\r"
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x00: text += "\\0"
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                text += "\\x"
                text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
                text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0xF)]))
            }
        }
        return text
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
