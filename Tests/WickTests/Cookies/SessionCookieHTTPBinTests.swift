// A Session's cookies against httpbin: set by a redirect and sent on the hop it leads to, sent
// again later, deleted, kept to their host, and never touched when a request or the session
// opts out.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionCookieHTTPBinTests {
    /// The cookies httpbin's `/cookies` (or a redirect that ends there) says it received.
    private static func receivedCookies(_ request: DataRequest) async throws -> [String: String] {
        let data = try await request.validate().serializingData().value
        return try #require(try httpbinJSON(data)["cookies"] as? [String: String])
    }

    @Test func aCookieSetByARedirectIsSentOnTheHopAndLater() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        // /cookies/set answers 302 to /cookies with the Set-Cookie fields: the hop must carry them.
        let request = session.request("\(base)/cookies/set?session=abc&theme=dark")
        #expect(try await Self.receivedCookies(request) == ["session": "abc", "theme": "dark"])
        #expect(request.requests.count == 2)
        #expect(try await Self.receivedCookies(session.request("\(base)/cookies")) == ["session": "abc", "theme": "dark"])
        let stored = try #require(session.configuration.cookieStorage).cookies(for: URL(string: "\(base)/")!)
        #expect(stored.map(\.name).sorted() == ["session", "theme"])
        #expect(stored.allSatisfy { $0.domain == "127.0.0.1" && $0.isHostOnly && $0.path == "/" && !$0.isSecure })
        await session.shutdown()
    }

    @Test func deletingACookie() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        _ = try await Self.receivedCookies(session.request("\(base)/cookies/set?a=1&b=2"))
        #expect(try await Self.receivedCookies(session.request("\(base)/cookies/delete?a")) == ["b": "2"])
        #expect(try #require(session.configuration.cookieStorage).cookies(for: URL(string: base)!).map(\.name) == ["b"])
        await session.shutdown()
    }

    @Test func cookiesStayWithTheirHost() async throws {
        let httpbin = try TestEnvironment.httpbin()
        let session = Session()
        _ = try await Self.receivedCookies(session.request("\(httpbin.base)/cookies/set?a=1"))
        // A host-only cookie of 127.0.0.1 is not sent to localhost, the same server by another name.
        #expect(try await Self.receivedCookies(session.request("http://localhost:\(httpbin.port)/cookies")) == [:])
        // Nor after a redirect there: the hop is rebuilt with the new URL's cookies.
        let redirected = session.request(
            "\(httpbin.base)/redirect-to", parameters: ["url": "http://localhost:\(httpbin.port)/cookies"])
        #expect(try await Self.receivedCookies(redirected) == [:])
        await session.shutdown()
    }

    @Test func aCookieFieldOfTheCallersWins() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        _ = try await Self.receivedCookies(session.request("\(base)/cookies/set?stored=1"))
        let own = session.request("\(base)/cookies", headers: ["Cookie": "mine=2"])
        #expect(try await Self.receivedCookies(own) == ["mine": "2"])
        await session.shutdown()
    }

    @Test func aRequestThatOptsOutNeitherSendsNorStores() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let storage = try #require(session.configuration.cookieStorage)
        let optedOut = session.request("\(base)/cookies/set?a=1") { $0.httpShouldHandleCookies = false }
        #expect(try await Self.receivedCookies(optedOut) == [:])  // the hop had nothing to send
        #expect(storage.cookies(for: URL(string: base)!).isEmpty)
        _ = try await Self.receivedCookies(session.request("\(base)/cookies/set?b=2"))
        let quiet = session.request("\(base)/cookies") { $0.httpShouldHandleCookies = false }
        #expect(try await Self.receivedCookies(quiet) == [:])
        await session.shutdown()
    }

    @Test func aSessionWithoutStorageHasNoCookies() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = makeSession { $0.cookieStorage = nil }
        #expect(try await Self.receivedCookies(session.request("\(base)/cookies/set?a=1")) == [:])
        #expect(try await Self.receivedCookies(session.request("\(base)/cookies")) == [:])
        await session.shutdown()
    }

    @Test func sessionsShareAStoreOnlyWhenGivenOne() async throws {
        let base = try TestEnvironment.httpbin().base
        let (first, second) = (Session(), Session())
        #expect(first.configuration.cookieStorage !== second.configuration.cookieStorage)
        _ = try await Self.receivedCookies(first.request("\(base)/cookies/set?a=1"))
        #expect(try await Self.receivedCookies(second.request("\(base)/cookies")) == [:])
        let shared = InMemoryCookieStorage()
        let (third, fourth) = (makeSession { $0.cookieStorage = shared }, makeSession { $0.cookieStorage = shared })
        _ = try await Self.receivedCookies(third.request("\(base)/cookies/set?s=1"))
        #expect(try await Self.receivedCookies(fourth.request("\(base)/cookies")) == ["s": "1"])
        for session in [first, second, third, fourth] { await session.shutdown() }
    }
}
