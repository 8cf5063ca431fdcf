// Fuzzes HTTPRequestEncoder: arbitrary methods, targets, hosts, header names and values are either
// refused (with an error that points at a byte that really is bad) or produce a head that an
// independent reader splits into exactly the expected lines, with the same bytes.
//
// Input: byte 0 picks the target form (bits 0-1), framing (bits 2-3), whether a Host field is
// added (bit 4) and whether the fields are also encoded as trailers of a last chunk (bit 5); then
// length-prefixed fields: method, target, host, then name/value pairs.
import CFuzzDriver
import WickCore
import WickHTTP1

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRequestEncoder) }
}

private let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

/// Reads length-prefixed fields: one length byte, then that many bytes (fewer at the end).
private struct FieldReader {
    var rest: ArraySlice<UInt8>
    mutating func next() -> String? {
        guard let length = rest.popFirst() else { return nil }
        let field = rest.prefix(Int(length))
        rest = rest.dropFirst(Int(length))
        return String(decoding: field, as: UTF8.self)
    }
}

private func lower(_ text: String) -> String { String(decoding: text.utf8.map(\.asciiLowercased), as: UTF8.self) }

/// Splits `wire` at CRLF; traps on a CR or LF that is not part of a CRLF.
private func lines(of wire: [UInt8]) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var line: [UInt8] = []
    var index = 0
    while index < wire.count {
        let byte = wire[index]
        if byte == 0x0D {
            precondition(index + 1 < wire.count && wire[index + 1] == 0x0A, "bare CR at \(index)")
            result.append(line)
            line = []
            index += 2
            continue
        }
        precondition(byte != 0x0A, "bare LF at \(index)")
        line.append(byte)
        index += 1
    }
    precondition(line.isEmpty, "head does not end with CRLF")
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestEncoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    var reader = FieldReader(rest: input.dropFirst())
    let method = reader.next() ?? "GET"
    let targetText = reader.next() ?? "/"
    let host = reader.next() ?? "h"
    let target: HTTPRequestTarget =
        switch selector & 3 {
        case 0: .origin(targetText)
        case 1: .absolute(targetText)
        case 2: .authority(targetText)
        default: .asterisk
        }
    let framing: HTTPRequestFraming =
        switch selector >> 2 & 3 {
        case 0: .none
        case 1: .contentLength(targetText.utf8.count)
        case 2: .chunked
        default: .contentLength(0)
        }
    var headers = HTTPHeaders()
    if selector & 0x10 != 0 { headers.add(name: "Host", value: host) }
    while headers.count < 16, let name = reader.next() {
        headers.add(name: name, value: reader.next() ?? "")
    }
    let head = HTTPRequestHead(method: HTTPMethod(rawValue: method), target: target, host: host, headers: headers, framing: framing)
    if selector & 0x20 != 0 { checkTrailers(headers) }

    var wire: [UInt8] = []
    do {
        try HTTPRequestEncoder.encodeHead(head, into: &wire)
    } catch {
        checkRefusal(error, head: head, targetText: target == .asterisk ? "*" : targetText)
        precondition(wire.isEmpty, "a refused head wrote \(wire.count) bytes")
        return 0
    }

    var expected: [[UInt8]] = [Array("\(method) \(target == .asterisk ? "*" : targetText) HTTP/1.1".utf8)]
    let userHost = headers.first { lower($0.name) == "host" }
    expected.append(Array("Host: \(userHost?.value ?? host)".utf8))
    for header in headers where !["host", "content-length", "transfer-encoding"].contains(lower(header.name)) {
        expected.append(Array("\(header.name): \(header.value)".utf8))
    }
    switch framing {
    case .none: break
    case .contentLength(let length): expected.append(Array("Content-Length: \(length)".utf8))
    case .chunked: expected.append(Array("Transfer-Encoding: chunked".utf8))
    }
    expected.append([])
    let actual = lines(of: wire)
    precondition(actual == expected, "encoded head differs from the expected lines")
    for line in actual.dropFirst().dropLast() {
        let colon = line.firstIndex(of: UInt8(ascii: ":"))!
        precondition(colon > 0 && line[..<colon].allSatisfy(tchars.contains), "bad name bytes on the wire")
        precondition(line[(colon + 1)...].allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }, "control byte in a value")
    }
    precondition(!actual[0].contains(0) && actual[0].filter { $0 == 0x20 }.count == 2, "request line is not three parts")
    return 0
}

/// A refusal must point at a byte that is really there and really bad.
private func checkRefusal(_ error: HTTPRequestEncodingError, head: HTTPRequestHead, targetText: String) {
    guard case .invalidByte(let byte, let field, let offset) = error else { return }
    let text: String
    let isBad: Bool
    switch field {
    case .method:
        (text, isBad) = (head.method.rawValue, !tchars.contains(byte))
    case .target:
        (text, isBad) = (targetText, byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#"))
    case .host:
        (text, isBad) = (head.host, byte != 0x09 && (byte < 0x20 || byte == 0x7F))
    case .headerName(let index):
        (text, isBad) = (head.headers[index].name, !tchars.contains(byte))
    case .headerValue(let index):
        (text, isBad) = (head.headers[index].value, byte != 0x09 && (byte < 0x20 || byte == 0x7F))
    case .trailerName, .trailerValue:
        preconditionFailure("a head refused for a trailer field")
    }
    let bytes = Array(text.utf8)
    precondition(offset < bytes.count && bytes[offset] == byte && isBad, "refusal points at a good or absent byte")
}

/// The fields as trailers: refused for a really bad byte or a forbidden name, or written as
/// `0 CRLF`, one line per field, CRLF.
private func checkTrailers(_ trailers: HTTPHeaders) {
    var wire: [UInt8] = []
    do {
        try HTTPRequestEncoder.encodeLastChunk(trailers: trailers, into: &wire)
    } catch {
        precondition(wire.isEmpty, "refused trailers wrote \(wire.count) bytes")
        switch error {
        case .invalidByte(let byte, .trailerName(let index), let offset):
            let name = Array(trailers[index].name.utf8)
            precondition(offset < name.count && name[offset] == byte && !tchars.contains(byte), "bad trailer name refusal")
        case .invalidByte(let byte, .trailerValue(let index), let offset):
            let value = Array(trailers[index].value.utf8)
            precondition(offset < value.count && value[offset] == byte && byte != 0x09 && (byte < 0x20 || byte == 0x7F), "bad trailer value refusal")
        case .empty(.trailerName(let index)):
            precondition(trailers[index].name.isEmpty, "non-empty trailer name refused as empty")
        case .forbiddenTrailer(let index):
            precondition(["host", "content-length", "transfer-encoding", "trailer"].contains(lower(trailers[index].name)), "allowed trailer refused")
        default:
            preconditionFailure("unexpected trailer refusal \(error)")
        }
        return
    }
    let expected: [[UInt8]] = [Array("0".utf8)] + trailers.map { Array("\($0.name): \($0.value)".utf8) } + [[]]
    precondition(lines(of: wire) == expected, "encoded trailers differ from the expected lines")
}
