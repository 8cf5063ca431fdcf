// Request encoder: every injection vector and framing conflict is refused, leaving the buffer as it was.
import Testing
import WickCore

@testable import WickHTTP1

@Suite struct HTTPRequestEncoderValidationTests {
    struct Refusal: CustomStringConvertible, Sendable {
        let name: String
        let head: HTTPRequestHead
        let error: HTTPRequestEncodingError
        var description: String { name }
    }

    static func head(
        method: HTTPMethod = .get,
        target: HTTPRequestTarget = .origin("/"),
        host: String = "h",
        headers: [(String, String)] = [],
        framing: HTTPRequestFraming = .none
    ) -> HTTPRequestHead {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name: name, value: value) }
        return HTTPRequestHead(method: method, target: target, host: host, headers: fields, framing: framing)
    }

    static var valueInjections: [Refusal] {
        // Every control byte but HTAB, at offset 3 of a value, in the second field.
        let controls = Array(UInt8(0)..<0x20).filter { $0 != 0x09 } + [0x7F]
        return controls.map { byte in
            Refusal(
                name: "value with 0x\(String(byte, radix: 16))",
                head: head(headers: [
                    ("Accept", "*/*"), ("X-Evil", "abc" + String(UnicodeScalar(byte)) + "Injected: 1"),
                ]),
                error: .invalidByte(byte, field: .headerValue(index: 1), offset: 3)
            )
        }
    }

    static var nameInjections: [Refusal] {
        let bad: [UInt8] = Array(UInt8(0)...0x20) + Array("\"(),/:;<=>?@[\\]{}".utf8) + [0x7F, 0x80, 0xC3, 0xFF]
        return bad.map { byte in
            Refusal(
                name: "name with 0x\(String(byte, radix: 16))",
                head: head(headers: [("X" + String(decoding: [byte], as: UTF8.self) + "Y", "v")]),
                // A byte above 0x7F is not valid UTF-8 alone: it becomes U+FFFD (EF BF BD).
                error: .invalidByte(byte >= 0x80 ? 0xEF : byte, field: .headerName(index: 0), offset: 1)
            )
        }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "empty method", head: head(method: ""), error: .empty(.method)),
        Refusal(
            name: "space in method", head: head(method: "GET /admin"),
            error: .invalidByte(0x20, field: .method, offset: 3)),
        Refusal(
            name: "CR in method", head: head(method: "GE\rT"), error: .invalidByte(0x0D, field: .method, offset: 2)),
        Refusal(
            name: "LF in method", head: head(method: "\nGET"), error: .invalidByte(0x0A, field: .method, offset: 0)),
        Refusal(
            name: "NUL in method", head: head(method: "GET\0"), error: .invalidByte(0x00, field: .method, offset: 3)),
        Refusal(
            name: "space in target", head: head(target: .origin("/a b")),
            error: .invalidByte(0x20, field: .target, offset: 2)),
        Refusal(
            name: "CRLF in target",
            head: head(target: .origin("/a\r\nHost: evil")),
            error: .invalidByte(0x0D, field: .target, offset: 2)
        ),
        Refusal(
            name: "LF in target", head: head(target: .origin("/\n")),
            error: .invalidByte(0x0A, field: .target, offset: 1)),
        Refusal(
            name: "NUL in target", head: head(target: .origin("/\0")),
            error: .invalidByte(0x00, field: .target, offset: 1)),
        Refusal(
            name: "tab in target", head: head(target: .origin("/\t")),
            error: .invalidByte(0x09, field: .target, offset: 1)),
        Refusal(
            name: "DEL in target", head: head(target: .origin("/\u{7F}")),
            error: .invalidByte(0x7F, field: .target, offset: 1)),
        Refusal(
            name: "non-ASCII in target", head: head(target: .origin("/é")),
            error: .invalidByte(0xC3, field: .target, offset: 1)),
        Refusal(
            name: "fragment in target", head: head(target: .origin("/a#b")),
            error: .invalidByte(0x23, field: .target, offset: 2)),
        Refusal(
            name: "space in absolute target", head: head(target: .absolute("http://a/ b")),
            error: .invalidByte(0x20, field: .target, offset: 9)),
        Refusal(name: "empty origin", head: head(target: .origin("")), error: .malformedTarget(offset: 0)),
        Refusal(
            name: "origin without slash", head: head(target: .origin("index.html")), error: .malformedTarget(offset: 0)),
        Refusal(
            name: "absolute without scheme", head: head(target: .absolute("//example.com/")),
            error: .malformedTarget(offset: 0)),
        Refusal(
            name: "absolute scheme starting with a digit", head: head(target: .absolute("1http://a/")),
            error: .malformedTarget(offset: 0)),
        Refusal(
            name: "absolute without colon", head: head(target: .absolute("http")), error: .malformedTarget(offset: 4)),
        Refusal(
            name: "absolute with a bad scheme byte", head: head(target: .absolute("ht_tp://a/")),
            error: .malformedTarget(offset: 2)),
        Refusal(
            name: "authority without port", head: head(method: .connect, target: .authority("example.com")),
            error: .malformedTarget(offset: 11)),
        Refusal(
            name: "authority with empty port", head: head(method: .connect, target: .authority("example.com:")),
            error: .malformedTarget(offset: 12)),
        Refusal(
            name: "authority with a letter in the port", head: head(method: .connect, target: .authority("h:8o")),
            error: .malformedTarget(offset: 3)),
        Refusal(
            name: "authority with userinfo", head: head(method: .connect, target: .authority("u@h:1")),
            error: .malformedTarget(offset: 1)),
        Refusal(
            name: "authority with a path", head: head(method: .connect, target: .authority("h:1/x")),
            error: .malformedTarget(offset: 3)),
        Refusal(
            name: "authority without host", head: head(method: .connect, target: .authority(":443")),
            error: .malformedTarget(offset: 4)),
        Refusal(
            name: "CONNECT with origin-form", head: head(method: .connect, target: .origin("/")),
            error: .targetFormMismatch(method: .connect)),
        Refusal(
            name: "GET with authority-form", head: head(target: .authority("h:1")),
            error: .targetFormMismatch(method: .get)),
        Refusal(
            name: "GET with asterisk-form", head: head(target: .asterisk), error: .targetFormMismatch(method: .get)),
        Refusal(
            name: "CRLF in host", head: head(host: "h\r\nX-Evil: 1"), error: .invalidByte(0x0D, field: .host, offset: 1)
        ),
        Refusal(name: "NUL in host", head: head(host: "h\0"), error: .invalidByte(0x00, field: .host, offset: 1)),
        Refusal(
            name: "CR in caller's Host", head: head(headers: [("Host", "h\r")]),
            error: .invalidByte(0x0D, field: .headerValue(index: 0), offset: 1)),
        // RFC 9112 §5.2: "A sender MUST NOT generate a message that includes line folding (i.e.,
        // that has any field line value that contains a match to the obs-fold rule) unless the
        // message is intended for packaging within the message/http media type." Wick never
        // packages requests that way, so a fold is refused at its line break.
        Refusal(
            name: "obs-fold in a header value", head: head(headers: [("X-A", "one\r\n two")]),
            error: .invalidByte(0x0D, field: .headerValue(index: 0), offset: 3)),
        Refusal(
            name: "obs-fold with a bare LF in a header value", head: head(headers: [("X-A", "one\n\ttwo")]),
            error: .invalidByte(0x0A, field: .headerValue(index: 0), offset: 3)),
        Refusal(
            name: "empty header name", head: head(headers: [("A", "1"), ("", "v")]),
            error: .empty(.headerName(index: 1))),
        Refusal(
            name: "colon in header name", head: head(headers: [("X-A: b", "v")]),
            error: .invalidByte(0x3A, field: .headerName(index: 0), offset: 3)),
        Refusal(
            name: "two Host fields", head: head(headers: [("Host", "a"), ("X", "1"), ("HOST", "b")]),
            error: .duplicateHost(index: 2)),
        Refusal(
            name: "Content-Length without a body", head: head(headers: [("Content-Length", "0")]),
            error: .framingConflict(index: 0, framing: .none)),
        Refusal(
            name: "Transfer-Encoding without a body", head: head(headers: [("Transfer-Encoding", "chunked")]),
            error: .framingConflict(index: 0, framing: .none)),
        Refusal(
            name: "Content-Length disagreeing",
            head: head(headers: [("Content-Length", "6")], framing: .contentLength(5)),
            error: .framingConflict(index: 0, framing: .contentLength(5))
        ),
        Refusal(
            name: "Content-Length with a sign",
            head: head(headers: [("Content-Length", "+5")], framing: .contentLength(5)),
            error: .framingConflict(index: 0, framing: .contentLength(5))
        ),
        Refusal(
            name: "Content-Length list",
            head: head(headers: [("Content-Length", "5, 5")], framing: .contentLength(5)),
            error: .framingConflict(index: 0, framing: .contentLength(5))
        ),
        Refusal(
            name: "Content-Length overflowing",
            head: head(headers: [("Content-Length", "99999999999999999999")], framing: .contentLength(5)),
            error: .framingConflict(index: 0, framing: .contentLength(5))
        ),
        Refusal(
            name: "Transfer-Encoding with Content-Length framing",
            head: head(headers: [("Transfer-Encoding", "chunked")], framing: .contentLength(5)),
            error: .framingConflict(index: 0, framing: .contentLength(5))
        ),
        Refusal(
            name: "Content-Length with chunked framing",
            head: head(headers: [("Content-Length", "5")], framing: .chunked),
            error: .framingConflict(index: 0, framing: .chunked)
        ),
        Refusal(
            name: "another transfer coding",
            head: head(headers: [("Transfer-Encoding", "gzip, chunked")], framing: .chunked),
            error: .framingConflict(index: 0, framing: .chunked)
        ),
    ]

    /// Values are checked eight bytes at a time where no byte of a word is a control byte or
    /// DEL: every ASCII byte at every offset of values 1 to 19 bytes long (the first word, a
    /// later one, the tail), among valid fillers of each class (HTAB, SP, `~` beside DEL, obs-text),
    /// gives the refusal the byte rule gives, at its offset, or none.
    @Test func theWordAtATimeValueCheckFindsEveryBadByteWhereItIs() throws {
        let fillers = Array("a\t ~é".utf8)
        var mismatches: [String] = []
        for length in 1...19 {
            for offset in 0..<length {
                for byte in UInt8(0)..<0x80 {
                    var bytes = (0..<length).map { fillers[($0 + Int(byte)) % fillers.count] }
                    bytes[offset] = byte
                    // Splitting é (C3 A9) can leave invalid UTF-8: String keeps its own decoding.
                    let value = Array(String(decoding: bytes, as: UTF8.self).utf8)
                    let expected = value.firstIndex { !HeaderValidation.isFieldValueByte($0) }
                    var buffer: [UInt8] = []
                    let head = Self.head(headers: [("X-Value", String(decoding: value, as: UTF8.self))])
                    do {
                        try HTTPRequestEncoder.encodeHead(head, into: &buffer)
                        if let expected { mismatches.append("\(value): accepted, bad byte at \(expected)") }
                    } catch {
                        let want = expected.map {
                            HTTPRequestEncodingError.invalidByte(value[$0], field: .headerValue(index: 0), offset: $0)
                        }
                        if error != want {
                            mismatches.append("\(value): \(error), expected \(String(describing: want))")
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: refusals + valueInjections + nameInjections)
    func refusesAndLeavesTheBufferUnchanged(_ refusal: Refusal) {
        var buffer = Array("kept".utf8)
        #expect(throws: refusal.error) { try HTTPRequestEncoder.encodeHead(refusal.head, into: &buffer) }
        #expect(buffer == Array("kept".utf8))
    }

    @Test(arguments: [
        (
            [HTTPHeader(name: "X-A", value: "1\r\n0\r\n")],
            HTTPRequestEncodingError.invalidByte(0x0D, field: .trailerValue(index: 0), offset: 1)
        ),
        // RFC 9112 §5.2 (a sender MUST NOT generate obs-fold) holds for trailer fields too.
        (
            [HTTPHeader(name: "X-A", value: "1\r\n\t2")],
            .invalidByte(0x0D, field: .trailerValue(index: 0), offset: 1)
        ),
        (
            [HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "X B", value: "1")],
            .invalidByte(0x20, field: .trailerName(index: 1), offset: 1)
        ),
        ([HTTPHeader(name: "", value: "1")], .empty(.trailerName(index: 0))),
        ([HTTPHeader(name: "content-length", value: "1")], .forbiddenTrailer(index: 0)),
        (
            [HTTPHeader(name: "X", value: "1"), HTTPHeader(name: "Transfer-Encoding", value: "chunked")],
            .forbiddenTrailer(index: 1)
        ),
        ([HTTPHeader(name: "Host", value: "h")], .forbiddenTrailer(index: 0)),
        ([HTTPHeader(name: "Trailer", value: "X")], .forbiddenTrailer(index: 0)),
    ])
    func refusesBadTrailers(_ trailers: [HTTPHeader], error: HTTPRequestEncodingError) {
        var buffer = Array("kept".utf8)
        #expect(throws: error) {
            try HTTPRequestEncoder.encodeLastChunk(trailers: HTTPHeaders(trailers), into: &buffer)
        }
        #expect(buffer == Array("kept".utf8))
    }
}
