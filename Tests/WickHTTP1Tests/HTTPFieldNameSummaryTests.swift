// The field-name summary: a name it rules out is never in the section, whatever its case, so
// lookups through a field list and through the block `HTTPHeaders` reads agree with a plain walk.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct HTTPFieldNameSummaryTests {
    static let tokenBytes = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#$%&'*+.^`|~".utf8)

    static func randomName(using generator: inout SeededRandom) -> String {
        let count = Int.random(in: 1...24, using: &generator)
        return String(decoding: (0..<count).map { _ in tokenBytes.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// `name` with each ASCII letter's case flipped at random.
    static func recased(_ name: String, using generator: inout SeededRandom) -> String {
        String(
            decoding: name.utf8.map { byte in
                let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                return isLetter && Bool.random(using: &generator) ? byte ^ 0x20 : byte
            }, as: UTF8.self)
    }

    @Test func aNameInTheSummaryIsFoundInAnyCase() {
        var generator = SeededRandom(seed: 0x5EED_0A11)
        for _ in 0..<2_000 {
            let name = Self.randomName(using: &generator)
            var summary = HTTPFieldNameSummary()
            let bytes = Array(name.utf8)
            summary.insert(count: bytes.count, first: bytes.first!, last: bytes.last!)
            var asked = Array(Self.recased(name, using: &generator).utf8)
            #expect(asked.withUnsafeMutableBufferPointer { summary.mayContain(UnsafeBufferPointer($0)) }, "\(name)")
        }
    }

    @Test func anEmptySummaryRulesOutEveryNameButTheEmptyOne() {
        let summary = HTTPFieldNameSummary()
        #expect(!summary.mayContain(count: 10, first: UInt8(ascii: "S"), last: UInt8(ascii: "e")))
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { summary.mayContain($0) })
    }

    @Test func aTypicalResponseRulesOutTheNamesEachRequestAsksFor() throws {
        var parser = HTTPResponseParser()
        let bytes = Array(
            ("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sun, 29 Nov 2026 04:00:00 GMT\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: 0\r\n"
                + "Last-Modified: Sun, 29 Nov 2026 03:00:00 GMT\r\nConnection: keep-alive\r\n"
                + "ETag: \"1-2\"\r\nAccept-Ranges: bytes\r\n\r\n").utf8)
        let head = try #require(try ResponseParserTests.parseHead(&parser, bytes))
        for absent in ["Keep-Alive", "Set-Cookie", "Content-Encoding"] {
            var name = Array(absent.utf8)
            #expect(!name.withUnsafeMutableBufferPointer { head.fields.nameSummary.mayContain(UnsafeBufferPointer($0)) }, "\(absent)")
        }
        #expect(head.fields.firstValue(forName: "CONNECTION") == "keep-alive")
    }

    @Test func lookupsAgreeWithAWalkOverEveryField() throws {
        var generator = SeededRandom(seed: 0x5EED_0A12)
        var parser = HTTPResponseParser()
        for round in 0..<300 {
            let names = (0..<Int.random(in: 1...12, using: &generator)).map { _ in Self.randomName(using: &generator) }
            let fields = names.enumerated().map { "\($1): v\($0)\r\n" }.joined()
            let bytes = Array("HTTP/1.1 200 OK\r\n\(fields)Content-Length: 0\r\n\r\n".utf8)
            let head = try #require(try ResponseParserTests.parseHead(&parser, bytes), "round \(round)")
            let headers = head.fields.headers
            let asked = names.map { Self.recased($0, using: &generator) }
                + (0..<12).map { _ in Self.randomName(using: &generator) }
            for name in asked {
                let walked = (0..<head.fields.count).first { head.fields.name(at: $0).lowercased() == name.lowercased() }
                let expected = walked.map { head.fields.value(at: $0) }
                #expect(head.fields.firstValue(forName: name) == expected, "round \(round): \(name) in \(names)")
                #expect(headers.value(for: name) == expected, "round \(round): \(name) in \(names)")
                #expect(headers.contains(name: name) == (walked != nil), "round \(round): \(name) in \(names)")
            }
        }
    }
}
