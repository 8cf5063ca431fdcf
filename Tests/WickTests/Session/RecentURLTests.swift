// The session's memo of its last URL: requests to one URL string share the transport's reading
// of it, and nothing else does.
import Foundation
import Testing
import WickTransport

@testable import Wick

@Suite struct RecentURLTests {
    /// The reading the session kept in `request`'s initial request.
    private func reading(of request: Request) throws -> TransportDestination {
        let initial = try #require(request.request)
        return try #require(initial.checkedDestination)
    }

    @Test func requestsToOneURLShareOneReadingOfIt() async throws {
        let session = makeSession()
        let first = try reading(of: session.request("http://127.0.0.1:8080/items?page=2"))
        let second = try reading(of: session.request("http://127.0.0.1:8080/items?page=2"))
        #expect(second.isSameReading(as: first))
        #expect((second.host, second.port, second.target) == ("127.0.0.1", 8080, "/items?page=2"))
        #expect(second.scheme == .http && second.unixSocketPath == nil)
        await session.shutdown()
    }

    @Test func anotherURLGetsItsOwnReadingAndReplacesTheMemo() async throws {
        let session = makeSession()
        let first = try reading(of: session.request("http://127.0.0.1:8080/a"))
        let other = try reading(of: session.request("https://example.com/b"))
        #expect(!other.isSameReading(as: first))
        #expect((other.scheme, other.host, other.port, other.target) == (.https, "example.com", nil, "/b"))
        let again = try reading(of: session.request("http://127.0.0.1:8080/a"))
        #expect(!again.isSameReading(as: first))
        #expect((again.host, again.target) == ("127.0.0.1", "/a"))
        await session.shutdown()
    }

    @Test func aRequestOverAUnixSocketReadsTheURLItself() async throws {
        let session = makeSession()
        let plain = try reading(of: session.request("http://localhost/info"))
        let overSocket = try reading(of: session.request("http://localhost/info", unixSocketPath: "/run/app.sock"))
        #expect(!overSocket.isSameReading(as: plain))
        #expect(overSocket.unixSocketPath != nil && plain.unixSocketPath == nil)
        // The socket request did not replace the memo's reading of the plain URL.
        let plainAgain = try reading(of: session.request("http://localhost/info"))
        #expect(plainAgain.isSameReading(as: plain))
        await session.shutdown()
    }

    @Test func aModifierThatChangesTheURLGetsTheReadingOfTheNewOne() async throws {
        let session = makeSession()
        let memoized = try reading(of: session.request("http://127.0.0.1:8080/a"))
        let modified = try reading(
            of: session.request("http://127.0.0.1:8080/a") { $0.url = URL(string: "http://127.0.0.1:9090/b")! })
        #expect(!modified.isSameReading(as: memoized))
        #expect((modified.port, modified.target) == (9090, "/b"))
        await session.shutdown()
    }
}
