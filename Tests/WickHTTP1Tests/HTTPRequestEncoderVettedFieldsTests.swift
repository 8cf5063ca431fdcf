// Request encoder: a vetted field list (a session's default fields, checked once) is written as
// a checked one is, only lists that pass every check are marked, and any change clears the mark.
import Testing
import WickCore

@testable import WickHTTP1

@Suite struct HTTPRequestEncoderVettedFieldsTests {
    static let sessionFields: HTTPHeaders = [
        "Accept-Encoding": "br;q=1.0, gzip;q=0.9, deflate;q=0.8", "Accept-Language": "en;q=1.0",
        "User-Agent": "Wick/1.0 (Linux)",
    ]

    @Test func aVettedListIsWrittenAsTheSameListChecked() throws {
        let vetted = HTTPRequestEncoder.vetted(Self.sessionFields)
        #expect(vetted.isVetted && !Self.sessionFields.isVetted)
        var checked: [UInt8] = []
        var marked: [UInt8] = []
        for framing in [HTTPRequestFraming.none, .contentLength(5), .chunked] {
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(
                    method: .post, target: .origin("/a?b"), host: "h:8080", headers: Self.sessionFields,
                    framing: framing), into: &checked)
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(
                    method: .post, target: .origin("/a?b"), host: "h:8080", headers: vetted,
                    framing: framing), into: &marked)
        }
        #expect(marked == checked)
        #expect(vetted == Self.sessionFields)
    }

    @Test(arguments: [
        ("Host", "other"), ("Content-Length", "5"), ("Transfer-Encoding", "chunked"), ("Bad Name", "v"),
        ("X-Evil", "a\r\nInjected: 1"), ("X-Nul", "a\u{0}b"),
    ])
    func aListWithAFieldTheEncoderChecksPerRequestIsNotMarked(name: String, value: String) {
        var fields = Self.sessionFields
        fields.add(name: name, value: value)
        #expect(!HTTPRequestEncoder.vetted(fields).isVetted)
    }

    @Test func anyChangeClearsTheMark() throws {
        let vetted = HTTPRequestEncoder.vetted(Self.sessionFields)
        var added = vetted
        added.add(name: "X-Evil", value: "a\r\nInjected: 1")
        var updated = vetted
        updated.update(name: "User-Agent", value: "b\nc")
        var removed = vetted
        removed.remove(name: "Accept-Language")
        var sorted = vetted
        sorted.sort()
        for changed in [added, updated, removed, sorted] { #expect(!changed.isVetted) }
        // And the change is checked again when it is sent.
        var buffer: [UInt8] = []
        #expect(throws: HTTPRequestEncodingError.invalidByte(0x0D, field: .headerValue(index: 3), offset: 1)) {
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(method: .get, target: .origin("/"), host: "h", headers: added, framing: .none),
                into: &buffer)
        }
        #expect(buffer.isEmpty)
    }
}
