// Fuzzes HTTPResponseParser over response streams (several responses back to back): never a trap,
// the same events whole and cut, and the parser's promises about ranges, offsets, lengths and EOF.
//
// Input: a 9-byte control header, then the response stream.
//   byte 0   bit 0 rejectObsoleteLineFolding, bit 1 allowBareLF, bit 2 allowInvalidFieldBytes,
//            bit 3 the server closes after the stream (EOF), bits 4-5 limits (`limitPresets`),
//            bits 6-7 how many cut offsets (0-3) the split delivery uses
//   byte 1   the request methods of exchanges 1-4, two bits each (`methodCodes`)
//   byte 2   bits 0-1: number of exchanges the harness expects, minus 1
//   bytes 3-8  three little-endian UInt16 cut offsets, each taken modulo (stream length + 1)
//
// Checks (a failed check traps, which libFuzzer reports):
// - `ResponseParserHarness` records the same events, or the same error kind and offset, for the
//   stream whole and cut at the chosen offsets; a message that ended (or failed) records the same
//   again with another response appended, which stays unconsumed.
// - A checked run over the cut stream (continuing with GET exchanges after the planned ones, to
//   use every byte): `consumed` never exceeds the input and is all of it for `.needMoreData`;
//   body ranges are non-empty and inside the consumed part of the buffer passed; an error's
//   offset is within the bytes fed in its exchange; events come in the documented order; a
//   Content-Length body delivers exactly its length and a bodiless head none; after `.end` the
//   parser accepts the next `expectResponse`; at EOF only a close-delimited body ends well, and
//   a truncated response fails with `unexpectedEOF` at the bytes received.
// - Heads handed out stay unchanged while the parser goes on; after `reset()` the same parser
//   parses a known response exactly like a fresh one.
import CFuzzDriver
import WickCore
import WickHTTP1
import WickTestSupport

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzResponseParser) }
}

/// Bytes before the stream.
let controlByteCount = 9

/// The request method for each two-bit code.
let methodCodes: [HTTPMethod] = [.get, .head, .connect, .post]

/// Harness options for each limits code: the defaults; tight limits that real heads reach;
/// tiny limits at the edge of what a response can be; chunk sizes long enough to overflow.
let limitPresets: [[String: String]] = [
    [:],
    [
        "maxStatusLineBytes": "32", "maxFieldLineBytes": "24", "maxHeadBytes": "96", "maxFieldCount": "3",
        "maxChunkSizeDigits": "4", "maxChunkExtensionBytes": "4", "maxTrailerBytes": "32",
        "initialHeadCapacity": "8",
    ],
    [
        "maxStatusLineBytes": "17", "maxFieldLineBytes": "8", "maxHeadBytes": "40", "maxFieldCount": "1",
        "maxChunkSizeDigits": "1", "maxChunkExtensionBytes": "0", "maxTrailerBytes": "4",
        "initialHeadCapacity": "1",
    ],
    ["maxChunkSizeDigits": "32", "maxChunkExtensionBytes": "16", "initialHeadCapacity": "1"],
]

/// What the control header asks for.
struct Plan {
    /// Options in the golden-case vocabulary, for `ResponseParserHarness`.
    var options: [String: String]
    /// Stream offsets where the split delivery cuts, ascending.
    var cuts: [Int]

    init(control: ArraySlice<UInt8>, streamCount: Int) {
        let bytes = Array(control)
        options = limitPresets[Int(bytes[0] >> 4 & 3)]
        if bytes[0] & 1 != 0 { options["rejectObsoleteLineFolding"] = "true" }
        if bytes[0] & 2 != 0 { options["allowBareLF"] = "true" }
        if bytes[0] & 4 != 0 { options["allowInvalidFieldBytes"] = "true" }
        if bytes[0] & 8 != 0 { options["eof"] = "true" }
        let exchanges = Int(bytes[2] & 3) + 1
        options["methods"] = (0..<exchanges).map { methodCodes[Int(bytes[1] >> (2 * $0) & 3)].rawValue }
            .joined(separator: ",")
        let cutCount = Int(bytes[0] >> 6)
        cuts = (0..<cutCount).map { index in
            let value = Int(bytes[3 + 2 * index]) | Int(bytes[4 + 2 * index]) << 8
            return value % (streamCount + 1)
        }.sorted()
    }

    /// The stream cut at `cuts` (empty pieces included: the parser must accept them).
    func pieces(of stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for cut in cuts {
            pieces.append(stream[start..<cut])
            start = cut
        }
        pieces.append(stream[start...])
        return pieces
    }
}

/// A head as bytes that change if its storage is overwritten: status, version, framing, reason
/// phrase, every field name and value.
func snapshot(_ head: HTTPResponseHead) -> [UInt8] {
    var bytes = Array("\(head.status.rawValue) \(head.version) \(head.framing)|".utf8)
    head.withReasonPhraseBytes { bytes += $0 }
    for position in head.fields.indices {
        head.fields.withBytes(at: position) { name, value in
            bytes += [0] + name + [0] + value
        }
    }
    return bytes
}

/// `bytes` with ASCII capitals made small, every other byte unchanged (HTTP names and tokens
/// compare ASCII-case-insensitively, never by Unicode rules).
func asciiLowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
}

/// The comma-separated elements of every field named `name` (lowercase; matched ASCII
/// case-insensitively), without surrounding SP and HTAB, empty ones included (RFC 9110 §5.6.1).
func listElements(_ fields: HTTPFieldList, named name: String) -> [[UInt8]] {
    var elements: [[UInt8]] = []
    for position in fields.indices {
        fields.withBytes(at: position) { fieldName, value in
            guard asciiLowercased(fieldName) == Array(name.utf8) else { return }
            for element in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                var trimmed = element[...]
                while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
                while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
                elements.append(Array(trimmed))
            }
        }
    }
    return elements
}

/// RFC 9112 §6.3 for an accepted final head that may have a body, computed from its fields alone:
/// Transfer-Encoding (only as exactly `chunked`, never with Content-Length or in HTTP/1.0) is
/// chunked; otherwise equal, all-digit Content-Length elements give the length; otherwise the body
/// runs until close. A head the parser should have refused traps here.
func expectedFraming(_ head: HTTPResponseHead) -> HTTPBodyFraming {
    let codings = listElements(head.fields, named: "transfer-encoding")
    let lengths = listElements(head.fields, named: "content-length")
    // Every field line gives at least one (possibly empty) element, so empty means absent.
    if !codings.isEmpty {
        precondition(lengths.isEmpty, "accepted Transfer-Encoding with Content-Length")
        precondition(head.version.minor >= 1, "accepted Transfer-Encoding in HTTP/1.0")
        let nonEmpty = codings.filter { !$0.isEmpty }
        precondition(
            nonEmpty.count == 1 && asciiLowercased(nonEmpty[0]) == Array("chunked".utf8),
            "accepted transfer codings \(nonEmpty.map { String(decoding: $0, as: UTF8.self) })")
        return .chunked
    }
    guard !lengths.isEmpty else { return .untilClose }
    let values = lengths.map { element -> UInt64 in
        precondition(
            !element.isEmpty && element.allSatisfy { $0 >= 0x30 && $0 <= 0x39 },
            "accepted Content-Length element \(String(decoding: element, as: UTF8.self))")
        var value: UInt64 = 0
        for digit in element {
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit - 0x30))
            precondition(!overflowA && !overflowB, "accepted a Content-Length past 64 bits")
            value = sum
        }
        return value
    }
    precondition(values.allSatisfy { $0 == values[0] }, "accepted differing Content-Length values \(values)")
    return .contentLength(values[0])
}

/// Whether `byte` may appear in a field value or reason phrase (VCHAR, obs-text, SP, HTAB).
func isValueByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || (byte > 0x20 && byte != 0x7F)
}

/// tchar (RFC 9110 §5.6.2).
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

/// An accepted head is what a plain reading of its raw bytes (`raw`: from its status line to its
/// empty line, as the parser consumed them) gives: RFC 9112 §4 status line and §5 field lines,
/// values without surrounding whitespace, obs-fold replaced by spaces (unless rejected), under the
/// configuration's leniencies. Traps when the parser accepted bytes it should have refused or reports other ones.
func checkHeadBytes(_ head: HTTPResponseHead, raw: ArraySlice<UInt8>, configuration: HTTPParserConfiguration) {
    func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }
    var lines: [ArraySlice<UInt8>] = []
    var index = raw.startIndex
    while true {
        guard let lineFeed = raw[index...].firstIndex(of: 0x0A) else {
            preconditionFailure("a head without its empty line")
        }
        let hasCR = lineFeed > index && raw[lineFeed - 1] == 0x0D
        precondition(hasCR || configuration.allowBareLF, "accepted a bare LF")
        let line = raw[index..<(hasCR ? lineFeed - 1 : lineFeed)]
        index = lineFeed + 1
        if line.isEmpty { break }
        lines.append(line)
    }
    precondition(index == raw.endIndex, "the head's empty line is not where the parser stopped")

    // status-line = "HTTP/1." DIGIT SP 3DIGIT [ SP reason-phrase ]
    let status = Array(lines[0])
    precondition(
        status.count >= 12 && status[..<7].elementsEqual("HTTP/1.".utf8) && status[7] >= 0x30
            && status[7] <= 0x39 && status[8] == 0x20,
        "accepted status line \(String(decoding: status, as: UTF8.self))")
    precondition(head.version.minor == Int(status[7] &- 0x30), "version \(head.version) for \(status[7])")
    let code = status[9..<12].reduce(0) { $0 * 10 + Int($1 &- 0x30) }
    precondition(
        status[9..<12].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && status[9] != 0x30 && head.status.rawValue == code,
        "status \(head.status.rawValue) for \(String(decoding: status[9..<12], as: UTF8.self))")
    precondition(status.count == 12 || status[12] == 0x20, "accepted a status code followed by \(status[12])")
    let reason = status.count > 12 ? status[13...] : []
    precondition(
        configuration.allowInvalidFieldBytes || reason.allSatisfy(isValueByte), "accepted a control byte in the reason")
    head.withReasonPhraseBytes { precondition($0.elementsEqual(reason), "reason phrase differs from its bytes") }

    // field-line = field-name ":" OWS field-value OWS, or obs-fold continuing the previous value.
    var fields: [(name: [UInt8], value: [UInt8], valueEnd: Int)] = []
    for line in lines.dropFirst() {
        if line.first == 0x20 || line.first == 0x09 {
            precondition(!configuration.rejectObsoleteLineFolding && !fields.isEmpty, "accepted obs-fold")
            let continuation = trimmed(line)
            precondition(
                configuration.allowInvalidFieldBytes || continuation.allSatisfy(isValueByte),
                "accepted a control byte in a folded value")
            guard !continuation.isEmpty else { continue }
            let gap = continuation.startIndex - fields[fields.count - 1].valueEnd
            if fields[fields.count - 1].value.isEmpty {
                fields[fields.count - 1].value = Array(continuation)
            } else {
                fields[fields.count - 1].value += Array(repeating: 0x20, count: gap) + continuation
            }
            fields[fields.count - 1].valueEnd = continuation.endIndex
            continue
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            preconditionFailure("accepted a field line without a colon")
        }
        let name = line[..<colon]
        precondition(
            !name.isEmpty && !name.contains(0x20) && !name.contains(0x09), "accepted an empty or spaced field name")
        precondition(
            configuration.allowInvalidFieldBytes || name.allSatisfy(isTokenByte), "accepted a non-token field name")
        let value = trimmed(line[(colon + 1)...])
        precondition(
            configuration.allowInvalidFieldBytes || value.allSatisfy(isValueByte), "accepted a control byte in a value")
        fields.append((Array(name), Array(value), value.isEmpty ? line.endIndex : value.endIndex))
    }
    precondition(fields.count <= configuration.maxFieldCount, "accepted \(fields.count) fields")
    precondition(
        head.fields.count == fields.count, "\(head.fields.count) fields reported, \(fields.count) in the bytes")
    for (position, field) in zip(head.fields.indices, fields) {
        head.fields.withBytes(at: position) { name, value in
            precondition(
                name.elementsEqual(field.name) && value.elementsEqual(field.value),
                "field \(position) reported as \(GoldenCase.escape(name)): \(GoldenCase.escape(value)), "
                    + "the bytes say \(GoldenCase.escape(field.name)): \(GoldenCase.escape(field.value))")
        }
    }
}

/// The field list's accessors agree with its bytes: `name(at:)`, `value(at:)`, `contains(name:)`,
/// `firstValue(forName:equals:)`, `withFirstValueBytes`, and `headers` (for ASCII names, where
/// case-insensitive matching is defined).
func checkFieldAccessors(_ fields: HTTPFieldList) {
    var firstValues: [String: [UInt8]] = [:]
    for position in fields.indices {
        fields.withBytes(at: position) { name, value in
            let nameBytes = Array(name)
            let valueBytes = Array(value)
            if nameBytes.allSatisfy({ $0 < 0x80 }) && valueBytes.allSatisfy({ $0 < 0x80 }) {
                precondition(Array(fields.name(at: position).utf8) == nameBytes, "name(at:) differs from its bytes")
                precondition(Array(fields.value(at: position).utf8) == valueBytes, "value(at:) differs from its bytes")
            }
            guard nameBytes.allSatisfy({ $0 < 0x80 && $0 != 0 }) else { return }
            let key = String(decoding: asciiLowercased(nameBytes), as: UTF8.self)
            if firstValues[key] == nil { firstValues[key] = valueBytes }
        }
    }
    for (name, value) in firstValues {
        let upper = name.uppercased()
        precondition(fields.contains(name: upper), "contains(name:) misses \(name)")
        let seen = fields.withFirstValueBytes(forName: upper) { Array($0) }
        precondition(seen == value, "withFirstValueBytes(forName: \(name)) is not the first value")
        if value.allSatisfy({ $0 < 0x80 }) {
            precondition(
                fields.firstValue(forName: name, equals: String(decoding: value, as: UTF8.self).uppercased()),
                "firstValue(forName: \(name), equals:) refuses the first value")
        }
    }
    precondition(fields.headers.count == fields.count, "headers has \(fields.headers.count) of \(fields.count) fields")
}

/// RFC 9112 §9.3: HTTP/1.1 persists unless `Connection: close`; HTTP/1.0 only with
/// `Connection: keep-alive` (and no `close`). Read from the head's fields independently of the
/// parser's own framing code.
func expectsReuse(_ head: HTTPResponseHead) -> Bool {
    let options = listElements(head.fields, named: "connection").map(asciiLowercased)
    let close = options.contains(Array("close".utf8))
    let keepAlive = options.contains(Array("keep-alive".utf8))
    return head.version.minor >= 1 ? !close : keepAlive && !close
}

/// The exchange the checked run is in.
struct Exchange {
    let method: HTTPMethod
    /// Stream offset of the exchange's first byte.
    let start: Int
    var finalHead: HTTPResponseHead?
    var bodyBytes: UInt64 = 0
    var sawTrailers = false
}

/// How the checked run stopped.
enum Stop {
    case running, failed, switched
}

/// Feeds `pieces` to `parser` as a connection driver would, checking every step; returns heads it
/// kept (with their snapshots) so the caller can check they never change.
func checkedRun(
    _ parser: inout HTTPResponseParser,
    stream: [UInt8],
    pieces: [ArraySlice<UInt8>],
    methods: [HTTPMethod],
    closes: Bool
) -> [(HTTPResponseHead, [UInt8])] {
    var kept: [(HTTPResponseHead, [UInt8])] = []
    var exchangeCount = 1
    var exchange = Exchange(method: methods[0], start: 0)
    parser.expectResponse(to: exchange.method)
    var fed = 0
    var position = 0
    /// Stream offset of the status line of the head being read.
    var headStart = 0
    var stop = Stop.running
    let configuration = parser.configuration

    for piece in pieces where stop == .running {
        fed += piece.count
        piece.withUnsafeBytes { raw in
            var used = 0
            while true {
                let input = UnsafeRawBufferPointer(rebasing: raw[used...])
                let step: HTTPParseStep
                do throws(HTTPParseError) {
                    step = try parser.parse(input)
                } catch {
                    precondition(
                        error.offset >= 0 && exchange.start + error.offset <= fed,
                        "error \(error) points past the \(fed - exchange.start) bytes fed in its exchange")
                    stop = .failed
                    return
                }
                precondition(
                    step.consumed >= 0 && step.consumed <= input.count,
                    "consumed \(step.consumed) of \(input.count) bytes")
                used += step.consumed
                position += step.consumed
                switch step.event {
                case .needMoreData:
                    precondition(step.consumed == input.count, "needMoreData left \(input.count - step.consumed) bytes")
                    return
                case .informationalHead(let head):
                    precondition(exchange.finalHead == nil, "an interim head after the final head")
                    precondition(
                        head.status.kind == .informational && head.status.rawValue != 101,
                        "informational head with status \(head.status.rawValue)")
                    checkHeadBytes(head, raw: stream[headStart..<position], configuration: configuration)
                    headStart = position
                    if kept.count < 8 { kept.append((head, snapshot(head))) }
                case .switchingProtocols(let head):
                    precondition(exchange.finalHead == nil, "switchingProtocols after the final head")
                    precondition(
                        head.status.rawValue == 101
                            || (exchange.method == .connect && head.status.kind == .successful),
                        "switchingProtocols with status \(head.status.rawValue) for \(exchange.method)")
                    checkHeadBytes(head, raw: stream[headStart..<position], configuration: configuration)
                    stop = .switched
                    return
                case .head(let head):
                    precondition(exchange.finalHead == nil, "a second final head in one exchange")
                    if exchange.method == .head || head.status.rawValue == 204 || head.status.rawValue == 304 {
                        precondition(
                            head.framing == .none,
                            "\(head.status.rawValue) to \(exchange.method) framed as \(head.framing)")
                    }
                    exchange.finalHead = head
                    checkHeadBytes(head, raw: stream[headStart..<position], configuration: configuration)
                    checkFieldAccessors(head.fields)
                    if exchange.method != .head && head.status.rawValue != 204 && head.status.rawValue != 304 {
                        precondition(
                            head.framing == expectedFraming(head),
                            "framed as \(head.framing), RFC 9112 §6.3 says \(expectedFraming(head)): \(snapshot(head))")
                    }
                    if kept.count < 8 { kept.append((head, snapshot(head))) }
                case .body(let range):
                    precondition(
                        !range.isEmpty && range.lowerBound >= 0 && range.upperBound <= step.consumed,
                        "body range \(range) outside the \(step.consumed) bytes consumed")
                    guard let head = exchange.finalHead else { preconditionFailure("body before the head") }
                    precondition(!exchange.sawTrailers, "body after the trailers")
                    exchange.bodyBytes += UInt64(range.count)
                    switch head.framing {
                    case .none:
                        preconditionFailure("body bytes for a response framed as none")
                    case .contentLength(let length):
                        precondition(exchange.bodyBytes <= length, "\(exchange.bodyBytes) body bytes of \(length)")
                    case .chunked, .untilClose:
                        break
                    }
                case .trailers(let trailers):
                    precondition(exchange.finalHead?.framing == .chunked, "trailers for a body that is not chunked")
                    precondition(!trailers.isEmpty && !exchange.sawTrailers, "empty or repeated trailers")
                    exchange.sawTrailers = true
                case .end(let reusable):
                    guard let head = exchange.finalHead else { preconditionFailure("end before the final head") }
                    precondition(reusable == expectsReuse(head), "end reusable: \(reusable) for \(snapshot(head))")
                    switch head.framing {
                    case .none:
                        precondition(exchange.bodyBytes == 0, "a bodiless response delivered body bytes")
                    case .contentLength(let length):
                        precondition(
                            exchange.bodyBytes == length,
                            "Content-Length \(length) ended after \(exchange.bodyBytes) bytes")
                    case .chunked:
                        break
                    case .untilClose:
                        preconditionFailure("a close-delimited body ended before EOF")
                    }
                    // The planned methods, then GET until the stream runs out.
                    let method = exchangeCount < methods.count ? methods[exchangeCount] : .get
                    exchangeCount += 1
                    exchange = Exchange(method: method, start: position)
                    headStart = position
                    parser.expectResponse(to: method)
                }
            }
        }
    }

    guard stop == .running, closes else { return kept }
    precondition(position == fed, "the run ended with \(fed - position) bytes unconsumed")
    do throws(HTTPParseError) {
        guard let event = try parser.eofReceived() else {
            preconditionFailure("eofReceived() reported no exchange while one was in progress")
        }
        guard case .end(let reusable) = event else { preconditionFailure("eofReceived() returned \(event)") }
        precondition(!reusable, "a connection the server closed is reusable")
        guard exchange.finalHead?.framing == .untilClose else {
            preconditionFailure("EOF ended a response framed as \(String(describing: exchange.finalHead?.framing))")
        }
    } catch {
        precondition(
            error.kind == .unexpectedEOF && error.offset == position - exchange.start,
            "EOF error \(error), expected unexpectedEOF at \(position - exchange.start)")
        if let head = exchange.finalHead, case .contentLength(let length) = head.framing {
            precondition(exchange.bodyBytes < length, "a complete Content-Length body failed at EOF")
        }
    }
    return kept
}

/// A small close-delimited response that every limit preset accepts.
let knownResponse = Array("HTTP/1.1 200 OK\r\nA: b\r\n\r\nxyz".utf8)

/// The events of `knownResponse` as text, closed by EOF.
func knownResponseEvents(_ parser: inout HTTPResponseParser) -> [String] {
    parser.expectResponse(to: .get)
    var events: [String] = []
    knownResponse.withUnsafeBytes { raw in
        var used = 0
        while true {
            let input = UnsafeRawBufferPointer(rebasing: raw[used...])
            do throws(HTTPParseError) {
                let step = try parser.parse(input)
                used += step.consumed
                switch step.event {
                case .needMoreData:
                    return
                case .head(let head):
                    events.append("head \(snapshot(head))")
                case .body(let range):
                    events.append("body \(Array(input[range]))")
                default:
                    events.append("\(step.event)")
                }
            } catch {
                events.append("error \(error)")
                return
            }
        }
    }
    if events.last?.hasPrefix("error") != true {
        do throws(HTTPParseError) {
            events.append("eof \(String(describing: try parser.eofReceived()))")
        } catch {
            events.append("eof error \(error)")
        }
    }
    return events
}

/// Bytes appended to a stream whose last expected response ended: the parser must not read them.
let trailingResponse = Array("HTTP/1.1 200 OK\r\nX: trailing\r\n\r\n".utf8)

/// A stream whose outcome is final (the last response ended, switched protocols, or failed)
/// records the same events with `trailingResponse` behind it, except that the bytes left over
/// grow by its length.
func checkIgnoresTrailingBytes(
    _ stream: [UInt8], outcome: ResponseParserHarness.Outcome, harness: ResponseParserHarness
) {
    guard let last = outcome.events.last, last != "incomplete" else { return }
    var expected = outcome
    if !last.hasPrefix("error=") {
        if last.hasPrefix("unconsumed "), let count = Int(last.dropFirst("unconsumed ".count)) {
            expected.events[expected.events.count - 1] = "unconsumed \(count + trailingResponse.count)"
        } else {
            expected.events.append("unconsumed \(trailingResponse.count)")
        }
    }
    let extended = harness.run([(stream + trailingResponse)[...]])
    precondition(extended == expected, "with a response appended \(extended), expected \(expected)")
}

/// libFuzzer's entry: runs one input, the control header and the response stream (see the top of this file); traps when a check fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= controlByteCount else { return 0 }
    let stream = Array(input[controlByteCount...])
    let plan = Plan(control: input[..<controlByteCount], streamCount: stream.count)
    let harness: ResponseParserHarness
    do {
        harness = try ResponseParserHarness(options: plan.options)
    } catch {
        preconditionFailure("the fuzz plan built bad harness options: \(error)")
    }
    let pieces = plan.pieces(of: stream)

    let whole = harness.run([stream[...]])
    let split = harness.run(pieces)
    precondition(whole == split, "whole \(whole) and cut at \(plan.cuts) \(split) disagree")

    if !harness.closesAfterInput { checkIgnoresTrailingBytes(stream, outcome: whole, harness: harness) }

    var parser = HTTPResponseParser(configuration: harness.configuration)
    let kept = checkedRun(
        &parser, stream: stream, pieces: pieces, methods: harness.methods, closes: harness.closesAfterInput)

    parser.reset()
    var fresh = HTTPResponseParser(configuration: harness.configuration)
    let reused = knownResponseEvents(&parser)
    precondition(reused == knownResponseEvents(&fresh), "a parser reused after reset() parses differently")
    for (head, bytes) in kept {
        precondition(snapshot(head) == bytes, "a head changed after the parser went on")
    }
    return 0
}
