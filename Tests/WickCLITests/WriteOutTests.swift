// The `-w` template: variables, headers, escapes, streams, unknown names, and value formats.
import Testing
import Wick
import WickCLI

struct WriteOutTests {
    let variables: [String: WriteOutValue] = [
        "http_code": .statusCode(200), "time_total": .seconds(1.5), "size_download": .integer(42),
        "content_type": .text(nil), "url": .text("http://h/\"q\""),
    ]

    private func render(_ template: String, headers: HTTPHeaders? = nil) -> (text: String, warnings: [String]) {
        let (pieces, warnings) = WriteOut(template).render(variables: variables, headers: headers)
        return (pieces.map { ($0.stream == .output ? "" : "[err]") + $0.text }.joined(), warnings)
    }

    @Test func variablesEscapesAndPercent() {
        #expect(render("%{http_code} %{time_total} %{size_download}\\n100%%\\t\\r\\\\").text == "200 1.500000 42\n100%\t\r\\")
        #expect(render("[%{content_type}]").text == "[]")
        #expect(render("\\q %q %{").text == "\\q %q %{")
    }

    @Test func headersByNameAnyCase() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(render("%header{content-type}|%header{x-missing}|", headers: headers).text == "text/plain||")
    }

    @Test func unknownVariablesWriteNothingAndWarn() {
        let (text, warnings) = render("a%{nope}b")
        #expect(text == "ab")
        #expect(warnings == ["unknown --write-out variable: 'nope'"])
    }

    @Test func streamsSwitch() {
        #expect(render("a%{stderr}b%{stdout}c").text == "a[err]bc")
    }

    @Test func jsonHoldsEveryVariableSorted() {
        #expect(
            render("%{json}").text
                == #"{"content_type":null,"http_code":200,"size_download":42,"time_total":1.500000,"url":"http://h/\"q\""}"#)
    }

    @Test func formats() {
        #expect(WriteOutValue.statusCode(0).formatted == "000")
        #expect(WriteOutValue.statusCode(404).formatted == "404")
        #expect(WriteOutValue.seconds(0.0000004).formatted == "0.000000")
        #expect(WriteOutValue.seconds(12.3456789).formatted == "12.345679")
        #expect(WriteOutValue.text("a\u{1}\n").json == #""a\u0001\n""#)
    }
}
