// Session over Unix domain sockets: http+unix and https+unix URLs, a per-request socket path, bad URLs.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SessionUnixSocketTests {
    /// `scheme://` with `path` percent-encoded as the authority, then `target`.
    static func url(_ scheme: String = "http+unix", socket path: String, _ target: String) -> String {
        "\(scheme)://\(path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F"))\(target)"
    }

    @Test(arguments: [
        ("http+unix:///bytes/1k", "empty"),
        ("http+unix://%2Frun%FF.sock/x", "does not decode to UTF-8"),
        ("http+unix://%2Frun%00.sock/x", "NUL"),
        ("https+unix://\(String(repeating: "a", count: 200))/x", "more than the limit"),
        ("gopher://host/x", "the scheme must be"),
    ])
    func aBadSocketURLIsAnInvalidURLWithTheReason(url: String, reason: String) async throws {
        let session = Session()
        let result = await session.request(url).serializingData().result
        guard case .failure(.invalidURL(_, let given)) = result else {
            Issue.record("expected invalidURL for \(url), got \(result)")
            return
        }
        #expect(given.contains(reason), "\(given)")
        await session.shutdown()
    }

    @Test func aBadPerRequestSocketPathIsAnInvalidURL() async throws {
        let session = Session()
        let long = "/tmp/" + String(repeating: "s", count: 120)
        for path in ["", long, "/tmp/a\u{0}b"] {
            let result = await session.request("http://localhost/x", unixSocketPath: path).serializingData().result
            guard case .failure(.invalidURL(_, let reason)) = result else {
                Issue.record("expected invalidURL for \(path.debugDescription), got \(result)")
                continue
            }
            #expect(reason.contains("Unix socket path"))
        }
        let both = await session.request("http+unix://%2Ftmp%2Fa.sock/", unixSocketPath: "/tmp/b.sock")
            .serializingData().result
        guard case .failure(.invalidURL) = both else {
            Issue.record("expected invalidURL for a socket URL with a socket path, got \(both)")
            return
        }
        await session.shutdown()
    }

    @Test func aMissingSocketFailsToConnect() async throws {
        // The pool retries a refused connect until the deadline, then names the last failure.
        let session = makeSession { $0.requestTimeout = .seconds(2) }
        let result = await session.request(Self.url(socket: "/tmp/wick-no-such-\(getpid()).sock", "/"))
            .serializingData().result
        switch result {
        case .failure(.sessionTaskFailed(.connectionFailed)), .failure(.sessionTaskFailed(.timedOut(.waitingForConnection, _?))):
            break
        default:
            Issue.record("expected a connect failure, got \(result)")
        }
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func httpUnixURLsReachNginxAndReuseTheConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        for index in 0..<3 {
            let response = await session.request(Self.url(socket: nginx.unixSocket, "/bytes/1k")).serializingData()
                .response
            #expect(response.value == Data(TestPayload.bytes(count: 1_024)))
            #expect(response.metrics?.isReused == (index > 0))
        }
        let decoded = try await session.request(Self.url("HTTP+UNIX", socket: nginx.unixSocket, "/text/1m.txt"))
            .serializingData().value
        #expect(decoded == Data(TestPayload.text(count: 1 << 20)))
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func httpsUnixURLsUseTLSOverTheSocket() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        let response = await session.request(Self.url("https+unix", socket: nginx.tlsUnixSocket, "/bytes/1k"))
            .serializingData().response
        #expect(response.value == Data(TestPayload.bytes(count: 1_024)))
        #expect(response.metrics?.tlsHandshake != nil)
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func anOrdinaryURLGoesOverTheGivenSocket() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        // Port 9 (discard) is never contacted: only the socket is.
        let plain = try await session.request("http://localhost:9/bytes/1k", unixSocketPath: nginx.unixSocket)
            .serializingData().value
        #expect(plain == Data(TestPayload.bytes(count: 1_024)))
        let secure = await session.request("https://localhost/bytes/1k", unixSocketPath: nginx.tlsUnixSocket)
            .serializingData().response
        #expect(secure.value == Data(TestPayload.bytes(count: 1_024)))
        #expect(secure.request?.unixSocketPath == nginx.tlsUnixSocket)
        await session.shutdown()
    }
}
