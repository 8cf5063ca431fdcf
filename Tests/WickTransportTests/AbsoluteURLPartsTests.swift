// AbsoluteURLParts gives what Foundation's component getters give, for every URL shape the
// transport accepts (and a few it refuses later).
import FoundationEssentials
import Testing
@testable import WickTransport

@Suite struct AbsoluteURLPartsTests {
    static let urls = [
        "http://example.com", "http://example.com/", "HTTP://Example.COM:8080/a/b?c=d#frag", "https://h/p?",
        "https://h/p?#f", "http://h?q=1", "http://h#f", "http://user:pw@h:81/x", "http://user@h/x",
        "http://us%40er:p%3Aw@h:82/x", "http://[::1]/", "http://[::1]:8443/x?y", "http://[fe80::1%25eth0]:80/",
        "http://127.0.0.1:49152/bytes/1k", "http://h:/empty-port", "http://h:65536/too-big",
        "http://h/%7Euser/a%20b?q=%26&r=s%3D", "https://xn--nxasmq6b.example/", "http://h/a:b/c@d",
        "http://h/path;params?x", "https://h:443", "http://h/?a=b?c", "wss://h/ws", "http+unix://%2Ftmp%2Fs/p",
    ]

    @Test(arguments: urls) func partsAreFoundationsComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        let parts = AbsoluteURLParts(url)
        #expect(parts.scheme == url.scheme)
        let host = url.host(percentEncoded: true) ?? ""
        #expect(parts.host == TransportOrigin.unbracketed(host))
        #expect(parts.port == url.port)
        #expect(parts.path == url.path(percentEncoded: true))
        #expect(parts.query == url.query(percentEncoded: true))
        let path = url.path(percentEncoded: true)
        #expect(parts.target == (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? ""))
    }

    @Test(arguments: [
        ("http://h", TransportOrigin.Scheme.http), ("HTTPS://h", .https), ("HtTp://h", .http), ("ftp://h", nil),
        ("httpx://h", nil), ("http+unix://%2Fs", nil), ("hxxp://h", nil), ("shttp://h", nil),
    ])
    func webSchemesAreReadWithoutMakingAString(_ text: String, _ scheme: TransportOrigin.Scheme?) {
        #expect(AbsoluteURLParts(absoluteString: text).webScheme == scheme)
    }

    @Test func aURLWithABaseIsReadAsItsAbsoluteText() throws {
        let base = try #require(URL(string: "http://h:8080/dir/"))
        let url = try #require(URL(string: "file?x=1", relativeTo: base))
        let parts = AbsoluteURLParts(url)
        #expect(parts.host == "h")
        #expect(parts.port == 8080)
        #expect(parts.target == "/dir/file?x=1")
    }

    @Test func theTargetIsSlashForAnEmptyPathAndKeepsAnEmptyQuery() throws {
        #expect(AbsoluteURLParts(absoluteString: "http://h").target == "/")
        #expect(AbsoluteURLParts(absoluteString: "http://h?q").target == "/?q")
        #expect(AbsoluteURLParts(absoluteString: "http://h/p?").target == "/p?")
        #expect(AbsoluteURLParts(absoluteString: "http://h/p#f").target == "/p")
    }
}
