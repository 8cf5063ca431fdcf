// Fuzzes the response parser's chunked decoding against a small reference decoder written here:
// the same body, trailers and end, or the same error at the same offset, whatever the cut.
//
// Input: byte 0, then a chunked body that follows a fixed head (`fixedHead`).
//   byte 0   bits 0-2 and 7: the piece size of the split delivery (`pieceSizes`),
//            bit 3 allowBareLF, bits 4-5 limits (`limitPresets`), bit 6 the server closes after
//            the body (EOF)
//
// Checks (a failed check traps, which libFuzzer reports):
// - `ResponseParserHarness` records the same events whole and in pieces.
// - Those events are exactly what `ReferenceChunkedDecoder` computes from the whole input: the
//   decoded body, the trailer fields, `end`, the bytes left over, or the error kind and offset.
// - A chunk size that does not fit in 64 bits is always an error.
import CFuzzDriver
import WickCore
import WickHTTP1
import WickTestSupport

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzChunkedDecoder) }
}

/// The head every input's body follows.
let fixedHead = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

/// The events the harness records for `fixedHead`.
let fixedHeadEvents = ["head 200 HTTP/1.1 chunked OK", "field Transfer-Encoding: chunked"]

/// Piece sizes of the split delivery; 0 means the body whole after the head, in a second piece.
let pieceSizes = [1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 255, 256, 1000, 0]

/// Harness options for each limits code: the defaults; chunk sizes long enough to overflow;
/// small chunk-line and trailer limits; one digit past the 64-bit size, and one extension byte.
/// Every preset admits `fixedHead`.
let limitPresets: [[String: String]] = [
    [:],
    ["maxChunkSizeDigits": "32", "maxChunkExtensionBytes": "8"],
    [
        "maxChunkSizeDigits": "2", "maxChunkExtensionBytes": "0", "maxTrailerBytes": "16",
        "maxFieldLineBytes": "30", "maxFieldCount": "1", "initialHeadCapacity": "1",
    ],
    ["maxChunkSizeDigits": "17", "maxChunkExtensionBytes": "1", "maxTrailerBytes": "40", "maxFieldCount": "2"],
]

/// libFuzzer's entry: runs one input, the control byte and the chunked body (see the top of this file); traps when a check fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkedDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var options = limitPresets[Int(control >> 4 & 3)]
    if control & 0x08 != 0 { options["allowBareLF"] = "true" }
    if control & 0x40 != 0 { options["eof"] = "true" }
    let harness: ResponseParserHarness
    do {
        harness = try ResponseParserHarness(options: options)
    } catch {
        preconditionFailure("the fuzz plan built bad harness options: \(error)")
    }
    let message = fixedHead + input.dropFirst()
    let pieceSize = pieceSizes[Int(control & 7 | control >> 4 & 8)]
    let pieces =
        pieceSize == 0
        ? Delivery.split(message, at: fixedHead.count).pieces
        : Delivery.chunks(message, size: pieceSize).pieces

    let whole = harness.run([message[...]])
    let split = harness.run(pieces)
    precondition(whole == split, "whole \(whole.events) and in pieces of \(pieceSize) \(split.events) disagree")

    let reference = ReferenceChunkedDecoder(configuration: harness.configuration)
        .decode(message, from: fixedHead.count)
    let expected = fixedHeadEvents + reference.events(closes: harness.closesAfterInput, total: message.count)
    precondition(whole.events == expected, "parser \(whole.events), reference \(expected)")
    if case .failed(.chunkSizeOverflow, _) = reference.end {
        // Equal events already imply it; stated on its own because it is the CVE shape.
        precondition(whole.events.last?.hasPrefix("error=chunkSize") == true, "an overflowing chunk size was accepted")
    }
    return 0
}

/// Decodes a chunked body in one pass over the whole message, the plain way: no state kept
/// between calls, arbitrary look-ahead. It follows the parser's documented rules (RFC 9112 §7.1
/// with extensions parsed by §7.1.1's grammar and bounded; trailers as strict field lines,
/// obs-fold unfolded) and reports errors at the byte where they become certain, as
/// `HTTPParseError` defines.
struct ReferenceChunkedDecoder {
    let configuration: HTTPParserConfiguration

    /// How decoding ended.
    enum End {
        /// The last chunk and the trailer section are complete; the message ends before `at`.
        case complete(at: Int)
        /// The input ran out first.
        case incomplete
        /// An error of `kind` at message offset `offset`.
        case failed(HTTPParseError.Kind, Int)
    }

    struct Result {
        var body: [UInt8] = []
        /// Trailer fields, with where each value's last byte ends in the message (for unfolding).
        var trailers: [(name: [UInt8], value: [UInt8], valueEnd: Int)] = []
        var end = End.incomplete

        /// The event lines the harness records for this result after the head.
        func events(closes: Bool, total: Int) -> [String] {
            var lines: [String] = []
            if !body.isEmpty { lines.append("body " + GoldenCase.escape(body)) }
            switch end {
            case .complete(let at):
                for (name, value, _) in trailers {
                    let line = "trailer \(GoldenCase.escape(name)):"
                    lines.append(value.isEmpty ? line : line + " " + GoldenCase.escape(value))
                }
                lines.append("end reusable")
                if closes {
                    lines.append("closed")
                } else if at < total {
                    lines.append("unconsumed \(total - at)")
                }
            case .incomplete:
                lines.append(closes ? "error=unexpectedEOF at=\(total)" : "incomplete")
            case .failed(let kind, let offset):
                lines.append("error=\(kind.rawValue) at=\(offset)")
            }
            return lines
        }
    }

    /// Decodes the chunked body that starts at `start` in `message`.
    func decode(_ message: [UInt8], from start: Int) -> Result {
        var result = Result()
        var index = start
        while true {
            // chunk-size [ chunk-ext ] line-end
            var size: UInt64 = 0
            var digits = 0
            while index < message.count, let digit = hexDigit(message[index]) {
                if digits == configuration.maxChunkSizeDigits {
                    result.end = .failed(.chunkSizeTooLong, index)
                    return result
                }
                let (times16, overflowA) = size.multipliedReportingOverflow(by: 16)
                let (sum, overflowB) = times16.addingReportingOverflow(digit)
                if overflowA || overflowB {
                    result.end = .failed(.chunkSizeOverflow, index)
                    return result
                }
                size = sum
                digits += 1
                index += 1
            }
            guard index < message.count else { return result }
            if digits == 0 {
                result.end = .failed(.invalidChunkSize, index)
                return result
            }
            let byteAfterSize = message[index]
            if byteAfterSize == 0x3B || byteAfterSize == 0x20 || byteAfterSize == 0x09 {
                // The grammar decides where reading stops; the budget fails any byte past it first.
                let scan = scanExtensions(message, from: index)
                let stop: Int
                switch scan {
                case .lineEnd(let end): stop = end
                case .incomplete: stop = message.count
                case .failed(let offset): stop = offset
                }
                if stop - index > configuration.maxChunkExtensionBytes {
                    result.end = .failed(.chunkExtensionTooLong, index + configuration.maxChunkExtensionBytes)
                    return result
                }
                switch scan {
                case .lineEnd(let end): index = end
                case .incomplete: return result
                case .failed(let offset):
                    result.end = .failed(.invalidChunkExtension, offset)
                    return result
                }
            } else if byteAfterSize != 0x0D && byteAfterSize != 0x0A {
                result.end = .failed(.invalidChunkSize, index)
                return result
            }
            switch lineEnd(message, at: &index, lineError: .invalidLineEnding) {
            case .stepped: break
            case .needMore: return result
            case .failed(let failure):
                result.end = failure
                return result
            }

            if size == 0 { break }
            // chunk-data line-end
            let available = UInt64(message.count - index)
            guard size <= available else {
                result.body += message[index...]
                return result
            }
            result.body += message[index..<index + Int(size)]
            index += Int(size)
            guard index < message.count else { return result }
            if message[index] != 0x0D && message[index] != 0x0A {
                result.end = .failed(.missingChunkDataCRLF, index)
                return result
            }
            switch lineEnd(message, at: &index, lineError: .missingChunkDataCRLF) {
            case .stepped: break
            case .needMore: return result
            case .failed(let failure):
                result.end = failure
                return result
            }
        }
        decodeTrailers(message, from: index, into: &result)
        return result
    }

    /// Where `scanExtensions` stopped.
    enum ExtensionScan {
        /// At the line's CR or LF, after well-formed extensions.
        case lineEnd(Int)
        /// The input ran out inside the extensions.
        case incomplete
        /// At the first byte the grammar does not allow.
        case failed(Int)
    }

    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) (RFC 9112
    /// §7.1.1), name a token, value a token or a quoted-string with quoted-pairs (RFC 9110
    /// §5.6.4), read with look-ahead from `start` (the byte after the size).
    private func scanExtensions(_ message: [UInt8], from start: Int) -> ExtensionScan {
        var index = start
        let count = message.count
        func skipWhitespace() {
            while index < count && (message[index] == 0x20 || message[index] == 0x09) { index += 1 }
        }
        func skipToken() {
            while index < count && isTokenCharacter(message[index]) { index += 1 }
        }
        while true {
            guard index < count else { return .incomplete }
            if message[index] == 0x0D || message[index] == 0x0A { return .lineEnd(index) }
            skipWhitespace()
            guard index < count else { return .incomplete }
            guard message[index] == 0x3B else { return .failed(index) }
            index += 1
            skipWhitespace()
            guard index < count else { return .incomplete }
            guard isTokenCharacter(message[index]) else { return .failed(index) }
            skipToken()
            let afterName = index
            skipWhitespace()
            guard index < count else { return .incomplete }
            guard message[index] == 0x3D else {
                // No value: the next extension or the line's end, but never whitespace before it.
                if index > afterName && message[index] != 0x3B { return .failed(index) }
                continue
            }
            index += 1
            skipWhitespace()
            guard index < count else { return .incomplete }
            if message[index] != 0x22 {
                guard isTokenCharacter(message[index]) else { return .failed(index) }
                skipToken()
                continue
            }
            index += 1
            while true {
                guard index < count else { return .incomplete }
                let byte = message[index]
                if byte == 0x22 { break }
                if byte == 0x5C {
                    index += 1
                    guard index < count else { return .incomplete }
                    let escaped = message[index]
                    guard escaped == 0x09 || (escaped >= 0x20 && escaped != 0x7F) else { return .failed(index) }
                } else {
                    let isQuotedText =
                        byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte)
                        || (0x5D...0x7E).contains(byte) || byte >= 0x80
                    guard isQuotedText else { return .failed(index) }
                }
                index += 1
            }
            index += 1
        }
    }

    /// What `lineEnd` found.
    enum LineEnd {
        case stepped
        case needMore
        case failed(End)
    }

    /// Steps over CRLF, or a bare LF when allowed, at `index` (which holds CR or LF); a CR not
    /// followed by LF is `lineError` at the byte after it.
    private func lineEnd(_ message: [UInt8], at index: inout Int, lineError: HTTPParseError.Kind) -> LineEnd {
        if message[index] == 0x0A {
            guard configuration.allowBareLF else { return .failed(.failed(.bareLF, index)) }
            index += 1
            return .stepped
        }
        guard index + 1 < message.count else { return .needMore }
        guard message[index + 1] == 0x0A else { return .failed(.failed(lineError, index + 1)) }
        index += 2
        return .stepped
    }

    /// trailer-section = *( field-line CRLF ), then CRLF (RFC 9112 §7.1.2), every line held to
    /// the field-line limit, the section to the trailer limit, and the lines to the field count;
    /// an obs-fold line continues the previous field (§5.2), and before any field is an error.
    private func decodeTrailers(_ message: [UInt8], from sectionStart: Int, into result: inout Result) {
        var lineStart = sectionStart
        while true {
            let lineAllowance = configuration.maxFieldLineBytes
            let sectionAllowance = configuration.maxTrailerBytes - (lineStart - sectionStart)
            let allowance = min(lineAllowance, sectionAllowance)
            let searchEnd = min(message.count, lineStart + allowance)
            guard let lineFeed = message[lineStart..<searchEnd].firstIndex(of: 0x0A) else {
                if message.count - lineStart >= allowance {
                    result.end =
                        sectionAllowance <= lineAllowance
                        ? .failed(.trailersTooLarge, sectionStart + configuration.maxTrailerBytes)
                        : .failed(.fieldLineTooLong, lineStart + configuration.maxFieldLineBytes)
                }
                return
            }
            let hasCR = lineFeed > lineStart && message[lineFeed - 1] == 0x0D
            guard hasCR || configuration.allowBareLF else {
                result.end = .failed(.bareLF, lineFeed)
                return
            }
            let contentEnd = hasCR ? lineFeed - 1 : lineFeed
            if contentEnd == lineStart {
                result.end = .complete(at: lineFeed + 1)
                return
            }
            let line = message[lineStart..<contentEnd]
            if line.first == 0x20 || line.first == 0x09 {
                // obs-fold (RFC 9112 §5.2): each byte of the fold becomes one SP.
                guard !result.trailers.isEmpty else {
                    result.end = .failed(.whitespaceBeforeFirstField, lineStart)
                    return
                }
                let start = line.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? line.endIndex
                if let bad = line[start...].firstIndex(where: isControlByte) {
                    result.end = .failed(.invalidFieldValue, bad)
                    return
                }
                if let last = line.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) {
                    let previous = result.trailers.count - 1
                    if result.trailers[previous].value.isEmpty {
                        result.trailers[previous].value = Array(line[start...last])
                    } else {
                        let gap = start - result.trailers[previous].valueEnd
                        result.trailers[previous].value += Array(repeating: 0x20, count: gap) + line[start...last]
                    }
                    result.trailers[previous].valueEnd = last + 1
                }
                lineStart = lineFeed + 1
                continue
            }
            if let failure = trailerField(message, lineStart..<contentEnd, count: result.trailers.count) {
                result.end = failure
                return
            }
            let colon = line.firstIndex(of: 0x3A)!
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            result.trailers.append((Array(line[..<colon]), Array(value), value.endIndex))
            lineStart = lineFeed + 1
        }
    }

    /// Checks one trailer field line (without its line end), the `count`-th of its section.
    private func trailerField(_ message: [UInt8], _ line: Range<Int>, count: Int) -> End? {
        if count == configuration.maxFieldCount { return .failed(.tooManyFields, line.lowerBound) }
        var index = line.lowerBound
        while index < line.upperBound && isTokenCharacter(message[index]) { index += 1 }
        guard index < line.upperBound else { return .failed(.missingColon, line.upperBound) }
        switch message[index] {
        case 0x3A where index == line.lowerBound: return .failed(.invalidFieldName, index)
        case 0x3A: break
        case 0x20, 0x09: return .failed(.whitespaceBeforeColon, index)
        default: return .failed(.invalidFieldName, index)
        }
        for position in (index + 1)..<line.upperBound where isControlByte(message[position]) {
            return .failed(.invalidFieldValue, position)
        }
        return nil
    }

    /// A byte a field value may not hold: a control byte other than HTAB, or DEL (RFC 9110 §5.5).
    private func isControlByte(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 || byte == 0x7F
    }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
    ///       / "~" / DIGIT / ALPHA   (RFC 9110 §5.6.2)
    private func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private func hexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
