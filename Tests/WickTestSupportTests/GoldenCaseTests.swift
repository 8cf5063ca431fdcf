// The golden-case format: cases, options, escapes, and the errors a broken file gets.
import Testing
import WickTestSupport

@Suite struct GoldenCaseTests {
    @Test func parsesCasesOptionsInputAndExpectations() throws {
        let text = """
            # A comment before the first case.
            ### first
            options: method=HEAD allowBareLF maxFieldCount=2
            input:
            HTTP/1.1 200 OK\\r\\n
              \\x20folded\\t\\0\\\\\\x7f\\xFF   
            expect:
            # a comment among expectations
            head 200 HTTP/1.1 none OK

            end reusable
            ### second
            input:
            expect:
            error=unexpectedEOF at=0
            """
        let cases = try GoldenCase.parse(text, file: "sample.txt")
        #expect(cases.count == 2)
        let first = try #require(cases.first)
        #expect(first.name == "first")
        #expect(first.description == "sample.txt: first")
        #expect(first.options == ["method": "HEAD", "allowBareLF": "true", "maxFieldCount": "2"])
        #expect(first.input == Array("HTTP/1.1 200 OK\r\n   folded\t\0\\".utf8) + [0x7F, 0xFF])
        #expect(first.expected == ["head 200 HTTP/1.1 none OK", "end reusable"])
        #expect(cases[1].input.isEmpty)
        #expect(cases[1].options.isEmpty)
        #expect(cases[1].expected == ["error=unexpectedEOF at=0"])
    }

    @Test func escapeIsTheInverseOfUnescape() throws {
        let bytes: [UInt8] = Array(0...255)
        #expect(try GoldenCase.unescape(GoldenCase.escape(bytes)) == bytes)
        #expect(GoldenCase.escape(Array("a\r\n\t\0\\\u{7F}".utf8)) == "a\\r\\n\\t\\0\\\\\\x7F")
    }

    @Test(arguments: ["\\q", "\\x4", "\\xZZ", "trailing\\"])
    func rejectsBadEscapes(_ input: String) {
        #expect(throws: GoldenCase.FormatError.self) { try GoldenCase.unescape(input) }
    }

    @Test(arguments: [
        "text before any case\n### a\ninput:\nexpect:\n",
        "### no blocks\n",
        "### no expect\ninput:\nabc\n",
        "### stray line\nsomething else\ninput:\nexpect:\n",
    ])
    func rejectsMalformedFiles(_ text: String) {
        #expect(throws: GoldenCase.FormatError.self) { try GoldenCase.parse(text, file: "bad.txt") }
    }
}
