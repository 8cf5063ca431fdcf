// RFC 6797 §8.3: the http URL of a known host becomes https before anything is sent, in a
// request and in a redirect's Location.
import Foundation
import Testing
@testable import Wick

struct HSTSUpgradeTests {
    static func store(_ hosts: [String: Bool]) -> InMemoryHSTSStorage {
        let store = InMemoryHSTSStorage()
        for (host, subdomains) in hosts {
            store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: subdomains), forHost: host, now: Date())
        }
        return store
    }

    @Test func portsQueryAndFragmentFollowTheRule() {
        // §8.3 step 5: an explicit port 80 becomes 443; any other explicit port is kept.
        let store = Self.store(["example.com": true])
        func upgraded(_ text: String) -> String? {
            HSTSUpgrade.upgraded(URL(string: text)!, storage: store, now: Date())?.absoluteString
        }
        #expect(upgraded("http://example.com/a?b=1#c") == "https://example.com/a?b=1#c")
        #expect(upgraded("http://example.com:80/a") == "https://example.com:443/a")
        #expect(upgraded("http://api.example.com:8080/a") == "https://api.example.com:8080/a")
        #expect(upgraded("HTTP://EXAMPLE.COM/") == "https://EXAMPLE.COM/")
        #expect(upgraded("https://example.com/") == nil)
        #expect(upgraded("http://example.org/") == nil)
    }

    @Test func anEmptyStoreUpgradesNothing() {
        #expect(HSTSUpgrade.upgraded(URL(string: "http://example.com/")!, storage: InMemoryHSTSStorage(), now: Date()) == nil)
    }

    @Test func aRedirectToAKnownHostOverHTTPIsUpgradedNotRefused() {
        // Without HSTS an https → http redirect is refused; with the host known, §8.3 makes the
        // Location https first, so it is followed securely.
        let request = HTTPRequest(method: .get, url: URL(string: "https://example.com/start")!, headers: [:], body: nil)
        let response = HTTPResponse(status: HTTPStatus(rawValue: 302), headers: ["Location": "http://example.com/next"], version: .http1_1)
        guard case .refused = RedirectRules.nextRequest(after: request, response: response, allowsInsecureRedirects: false) else {
            Issue.record("an insecure redirect must be refused without HSTS")
            return
        }
        let step = RedirectRules.nextRequest(
            after: request, response: response, allowsInsecureRedirects: false, hsts: Self.store(["example.com": false]))
        guard case .follow(let next) = step else {
            Issue.record("expected the upgraded redirect to be followed, got \(step)")
            return
        }
        #expect(next.url.absoluteString == "https://example.com/next")
    }

    @Test func theSessionUpgradesBeforeSending() async {
        var configuration = Session.Configuration()
        configuration.hstsStorage = Self.store(["example.com": true])
        let session = Session(configuration: configuration)
        let upgraded = session.upgradedForHSTS(HTTPRequest(method: .get, url: URL(string: "http://www.example.com/x")!, headers: [:], body: nil))
        #expect(upgraded.url.absoluteString == "https://www.example.com/x")
        let socket = HTTPRequest(method: .get, url: URL(string: "http://example.com/x")!, headers: [:], body: nil, unixSocketPath: "/tmp/s")
        #expect(session.upgradedForHSTS(socket).url.absoluteString == "http://example.com/x")
        await session.shutdown()
    }
}
