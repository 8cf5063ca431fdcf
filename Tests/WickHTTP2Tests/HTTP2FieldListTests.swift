// A response head's fields read through HTTP2FieldList: names without case, order, byte count.
import Testing
import WickCore

@testable import WickHTTP2

extension [UInt8] {
    fileprivate var string: String { String(decoding: self, as: UTF8.self) }
}

/// `fields` as the connection hands them to the validation: encoded, then decoded into a block.
private func block(_ fields: [HPACKHeaderField]) throws -> HPACKFieldBlock {
    var encoded: [UInt8] = []
    var encoder = HPACKEncoder()
    encoder.encode(fields, into: &encoded)
    var decoder = HPACKDecoder()
    return try decoder.decode(encoded[...])
}

@Suite struct HTTP2FieldListTests {
    private let fields = [
        HPACKHeaderField(":status", "200"), HPACKHeaderField("content-type", "application/octet-stream"),
        HPACKHeaderField("date", "Fri, 27 Nov 2026 11:00:00 GMT"), HPACKHeaderField("x-twice", "one"),
        HPACKHeaderField("x-twice", "two"),
    ]

    @Test func theRegularFieldsReadAsHeadersInOrder() throws {
        let head = try HTTP2FieldValidation.responseHead(block(fields))
        #expect(head.status == .ok)
        #expect(head.headers.count == 4)
        #expect(head.headers["Content-Type"] == "application/octet-stream")
        #expect(head.headers["DATE"] == "Fri, 27 Nov 2026 11:00:00 GMT")
        #expect(head.headers.values(for: "x-twice") == ["one", "two"])
        #expect(head.headers.contains(name: "X-Twice") && !head.headers.contains(name: "x-twic"))
        #expect(Array(head.headers).map(\.name) == ["content-type", "date", "x-twice", "x-twice"])
        // Equal to the same list built from strings.
        var built = HTTPHeaders()
        for field in fields.dropFirst() { built.add(name: field.name.string, value: field.value.string) }
        #expect(head.headers == built)
    }

    @Test func fieldBytesCountNamesAndValuesWithoutPseudoHeaders() throws {
        let head = try HTTP2FieldValidation.responseHead(block(fields))
        #expect(head.fieldBytes == fields.dropFirst().reduce(0) { $0 + $1.name.count + $1.value.count })
        #expect(head.fieldBytes == HTTP2ResponseHead(status: .ok, headers: head.headers).fieldBytes)
    }

    @Test func aHeadWithOnlyAStatusHasNoHeaders() throws {
        let head = try HTTP2FieldValidation.responseHead(block([HPACKHeaderField(":status", "204")]))
        #expect(head.status == .noContent && head.headers.isEmpty && head.fieldBytes == 0)
    }
}
