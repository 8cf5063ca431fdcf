// HTTPHeaders: order, case-insensitive lookup, add versus update, removal.
import Testing
import WickCore

@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresASCIICaseAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "set-cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.map(\.name) == ["Content-Type", "set-cookie", "Set-Cookie"])
    }

    @Test func updateReplacesTheFirstFieldInPlace() {
        var headers = HTTPHeaders([HTTPHeader(name: "A", value: "1"), HTTPHeader(name: "B", value: "2")])
        headers.update(name: "a", value: "3")
        #expect(headers.map(\.description) == ["a: 3", "B: 2"])
    }

    @Test func initialiserFromArrayDeduplicatesLikeAlamofire() {
        let headers = HTTPHeaders([HTTPHeader(name: "X", value: "1"), HTTPHeader(name: "x", value: "2")])
        #expect(headers.count == 1)
        #expect(headers["X"] == "2")
    }

    @Test func settingNilRemovesEveryFieldWithTheName() {
        var headers = HTTPHeaders()
        headers.add(name: "Via", value: "a")
        headers.add(name: "via", value: "b")
        headers["VIA"] = nil
        #expect(headers.isEmpty)
    }

    @Test func sortedIsStableByLowercasedName() {
        var headers = HTTPHeaders()
        headers.add(name: "b", value: "1")
        headers.add(name: "A", value: "2")
        headers.add(name: "a", value: "3")
        #expect(headers.sorted().map(\.value) == ["2", "3", "1"])
    }

    @Test func dictionaryKeepsTheLastValue() {
        var headers = HTTPHeaders()
        headers.add(name: "K", value: "1")
        headers.add(name: "K", value: "2")
        #expect(headers.dictionary == ["K": "2"])
    }

    @Test func caseInsensitiveComparisonIsASCIIOnly() {
        #expect("Content-Length".equalsIgnoringASCIICase("content-length"))
        #expect(!"Content-Length".equalsIgnoringASCIICase("content-lengt"))
        #expect(!"É".equalsIgnoringASCIICase("é"))
    }
}
