// Unix-socket targets without I/O: URL parsing, path validation at its bounds, the origin key.
import Testing
import WickCore

@testable import WickTransport

struct UnixSocketURLTests {
    @Test func httpUnixURLGivesTheDecodedSocketPathAndTheTarget() throws {
        let request = try TransportRequest(.get, unixURL: "http+unix://%2Fvar%2Frun%2Fx.sock/v1/info?all=1#top")
        #expect(request.scheme == .http && request.unixSocketPath?.path == "/var/run/x.sock")
        #expect(request.target == "/v1/info?all=1")
        #expect(request.host == "localhost" && request.port == 80 && request.hostFieldValue == "localhost")
    }

    @Test(arguments: [
        ("HTTPS+UNIX://%2frun%2Fa.sock", "/"), ("https+unix://%2Frun%2Fa.sock?q=1", "/?q=1"),
        ("https+unix://%2Frun%2Fa.sock#f", "/"),
    ])
    func httpsUnixURLTargets(url: String, target: String) throws {
        let request = try TransportRequest(.get, unixURL: url, host: "api.internal")
        #expect(request.scheme == .https && request.unixSocketPath?.path == "/run/a.sock")
        #expect(request.target == target && request.hostFieldValue == "api.internal")
    }

    @Test func unixURLIsTheSocketAtItsRoot() throws {
        let request = try TransportRequest(.get, unixURL: "unix:///run/my%20app.sock")
        #expect(request.scheme == .http && request.unixSocketPath?.path == "/run/my app.sock")
        #expect(request.target == "/")
        let relative = try TransportRequest(.get, unixURL: "unix://app.sock")
        #expect(relative.unixSocketPath?.path == "app.sock")
    }

    @Test(arguments: [
        ("http+unix:///path", UnixSocketError.emptyPath),
        ("unix://", .emptyPath),
        ("http+unix://%2Frun%2/x", .invalidPercentEncoding("%2Frun%2", offset: 6)),
        ("http+unix://%zz/x", .invalidPercentEncoding("%zz", offset: 0)),
        ("http+unix://a%", .invalidPercentEncoding("a%", offset: 1)),
        ("http+unix://%FF/x", .pathNotUTF8("%FF")),
        ("http+unix://a%00b/x", .pathContainsNUL("a\u{0}b")),
        ("http://%2Frun%2Fa.sock/x", .unsupportedURL("http://%2Frun%2Fa.sock/x")),
        ("%2Frun%2Fa.sock", .unsupportedURL("%2Frun%2Fa.sock")),
        ("unix:///run/a.sock?x", .queryInUnixURL("unix:///run/a.sock?x")),
    ])
    func badURLsAreRefusedWithTheirReason(url: String, error: UnixSocketError) {
        #expect(throws: error) { try TransportRequest(.get, unixURL: url) }
    }

    @Test func pathLengthIsBoundedBySunPath() throws {
        #expect(UnixSocketPath.maximumLength == 107)
        let longest = "/" + String(repeating: "a", count: 106)
        #expect(try UnixSocketPath(longest).path == longest)
        #expect(throws: UnixSocketError.pathTooLong(longest + "a", length: 108, limit: 107)) {
            try UnixSocketPath(longest + "a")
        }
        let encoded = "http+unix://" + String(repeating: "%2F", count: 108) + "/x"
        #expect(throws: UnixSocketError.pathTooLong(String(repeating: "/", count: 108), length: 108, limit: 107)) {
            try TransportRequest(.get, unixURL: encoded)
        }
        #expect(throws: UnixSocketError.emptyPath) { try UnixSocketPath("") }
    }

    @Test func theSocketPathIsPartOfTheOriginKey() throws {
        let a = try UnixSocketPath("/run/a.sock")
        let b = try UnixSocketPath("/run/b.sock")
        let tcp = TransportRequest(.get, .http, host: "localhost")
        let onA = TransportRequest(.get, .http, host: "localhost", unixSocketPath: a)
        let onB = TransportRequest(.get, .http, host: "localhost", unixSocketPath: b)
        let onAAgain = try TransportRequest(.get, unixURL: "http+unix://%2Frun%2Fa.sock/other")
        #expect(onA.origin == onAAgain.origin)
        #expect(onA.origin != onB.origin && onA.origin != tcp.origin)
        #expect(onA.origin.description == "http://localhost:80 via unix:/run/a.sock")
    }
}
