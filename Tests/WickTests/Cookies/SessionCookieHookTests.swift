// The Session's two cookie hooks without a server: the Cookie field added to what the transport
// sends (a caller's field wins, an opt-out or a nil storage adds nothing), Set-Cookie stored
// from a response's fields, and the curl description showing the field.
import Foundation
import Testing
@testable import Wick

struct SessionCookieHookTests {
    private static func session(_ storage: (any CookieStorage)?) -> Session {
        var configuration = Session.Configuration()
        configuration.cookieStorage = storage
        return Session(configuration: configuration)
    }

    private static func request(_ url: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: url)!, headers: headers, body: nil)
    }

    @Test func theStoredCookiesJoinTheSentFieldsUnlessTheCallerSetOne() async {
        let storage = InMemoryCookieStorage()
        storage.storeCookies(from: ["a=1", "b=2; Path=/x"], for: URL(string: "http://h.test/")!)
        let session = Self.session(storage)
        // The session's own fields come first, as when sending.
        var withCookie = session.mergedHeaders(["Accept": "*/*"])
        withCookie.add(name: "Cookie", value: "b=2; a=1")
        #expect(session.headersAsSent(Self.request("http://h.test/x/y", headers: ["Accept": "*/*"])) == withCookie)
        #expect(
            session.headersAsSent(Self.request("http://h.test/", headers: ["cookie": "mine=1"]))
                == session.mergedHeaders(["cookie": "mine=1"]))
        #expect(session.headersAsSent(Self.request("http://other.test/")) == session.defaultRequestHeaders)
        var optedOut = Self.request("http://h.test/")
        optedOut.httpShouldHandleCookies = false
        #expect(session.headersAsSent(optedOut) == session.defaultRequestHeaders)
        await session.shutdown()
    }

    @Test func aResponsesSetCookieFieldsAreStoredForItsRequest() async {
        let storage = InMemoryCookieStorage()
        let session = Self.session(storage)
        var headers = HTTPHeaders()  // added, not updated: the name repeats
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Content-Type", value: "text/plain")
        headers.add(name: "set-cookie", value: "b=2; Secure")
        session.storeCookies(from: headers, for: Self.request("https://h.test/"))
        var optedOut = Self.request("https://o.test/")
        optedOut.httpShouldHandleCookies = false
        session.storeCookies(from: headers, for: optedOut)
        #expect(storage.allCookies().map(\.name) == ["a", "b"])
        await session.shutdown()
    }

    @Test func aSessionWithoutStorageAddsAndStoresNothing() async {
        let session = Self.session(nil)
        session.storeCookies(from: [HTTPHeader(name: "Set-Cookie", value: "a=1")], for: Self.request("http://h.test/"))
        #expect(session.headersAsSent(Self.request("http://h.test/")) == session.defaultRequestHeaders)
        await session.shutdown()
    }

    @Test func theCurlDescriptionShowsTheCookieField() async {
        let storage = InMemoryCookieStorage()
        storage.storeCookies(from: ["sid=abc"], for: URL(string: "http://h.test/")!)
        let session = Self.session(storage)
        #expect(session.request("http://h.test/x").cURLCommand().contains("-H 'Cookie: sid=abc'"))
        #expect(session.request("http://h.test/x").cURLDescription().contains(#"-b "sid=abc""#))
        #expect(!session.request("http://elsewhere.test/").cURLCommand().contains("Cookie"))
        #expect(!session.request("http://elsewhere.test/").cURLDescription().contains("-b"))
        await session.shutdown()
    }
}
