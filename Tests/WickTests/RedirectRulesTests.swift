// RFC 9110's redirect rules, one table row per rule: method changes, body and credential fields.
import Foundation
import Testing
@testable import Wick

struct RedirectRulesTests {
    private static func request(_ method: HTTPMethod, _ url: String = "https://a.example/x?q=1#frag") -> HTTPRequest {
        HTTPRequest(
            method: method, url: URL(string: url)!,
            headers: [
                "Authorization": "Bearer t", "Cookie": "c=1", "Proxy-Authorization": "Basic p",
                "Content-Type": "text/plain", "X-Keep": "yes",
            ],
            body: Data("body".utf8))
    }

    private static func redirect(_ status: Int, to location: String?) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(rawValue: status), headers: location.map { ["Location": $0] } ?? [:], version: .http1_1)
    }

    private static func follow(
        _ request: HTTPRequest, _ response: HTTPResponse, insecure: Bool = false
    ) throws -> HTTPRequest {
        guard case .follow(let next) = RedirectRules.nextRequest(
            after: request, response: response, allowsInsecureRedirects: insecure)
        else { throw RuleError.notFollowed }
        return next
    }

    enum RuleError: Error { case notFollowed }

    @Test(arguments: [
        // status, method, expected method, body kept
        (301, HTTPMethod.post, HTTPMethod.get, false), (302, .post, .get, false), (303, .post, .get, false),
        (303, .put, .get, false), (303, .head, .head, true), (301, .put, .put, true), (302, .delete, .delete, true),
        (307, .post, .post, true), (308, .post, .post, true), (301, .get, .get, true),
    ])
    func theMethodAndBodyFollowTheStatus(status: Int, method: HTTPMethod, expected: HTTPMethod, bodyKept: Bool) throws {
        let next = try Self.follow(Self.request(method), Self.redirect(status, to: "/y"))
        #expect(next.method == expected)
        #expect((next.body != nil) == bodyKept)
        #expect(next.headers.contains(name: "Content-Type") == bodyKept)
        #expect(next.headers.value(for: "X-Keep") == "yes")
    }

    @Test func aRelativeLocationResolvesAgainstTheRequestAndKeepsItsFragment() throws {
        let next = try Self.follow(Self.request(.get), Self.redirect(302, to: "../z/w?k=2"))
        #expect(next.url.absoluteString == "https://a.example/z/w?k=2#frag")
        let own = try Self.follow(Self.request(.get), Self.redirect(302, to: "/z#mine"))
        #expect(own.url.absoluteString == "https://a.example/z#mine")
    }

    @Test func credentialsStayWithinTheOriginAndAreDroppedAcrossIt() throws {
        let same = try Self.follow(Self.request(.get), Self.redirect(302, to: "https://A.example:443/other"))
        #expect(same.headers.value(for: "Authorization") == "Bearer t")
        #expect(same.headers.value(for: "Cookie") == "c=1")
        for other in ["https://b.example/x", "https://a.example:8443/x", "http://a.example/x"] {
            let next = try Self.follow(Self.request(.get), Self.redirect(307, to: other), insecure: true)
            #expect(!next.headers.contains(name: "Authorization"), "\(other)")
            #expect(!next.headers.contains(name: "Cookie"), "\(other)")
            #expect(!next.headers.contains(name: "Proxy-Authorization"), "\(other)")
            #expect(next.headers.value(for: "X-Keep") == "yes")
        }
    }

    @Test func httpsToHTTPIsRefusedUnlessAllowed() throws {
        let step = RedirectRules.nextRequest(
            after: Self.request(.get), response: Self.redirect(302, to: "http://a.example/"),
            allowsInsecureRedirects: false)
        guard case .refused(.invalidRedirect(let location, _)) = step else {
            Issue.record("expected a refusal, got \(step)")
            return
        }
        #expect(location == "http://a.example/")
        _ = try Self.follow(Self.request(.get), Self.redirect(302, to: "http://a.example/"), insecure: true)
    }

    @Test(arguments: ["ftp://a.example/file", "mailto:x@a.example", "http://"])
    func unusableLocationsAreRefused(location: String) {
        let step = RedirectRules.nextRequest(
            after: Self.request(.get, "http://a.example/"), response: Self.redirect(302, to: location),
            allowsInsecureRedirects: true)
        guard case .refused(.invalidRedirect) = step else {
            Issue.record("\(location): expected a refusal, got \(step)")
            return
        }
    }

    @Test(arguments: [(300, "/y" as String?), (304, "/y"), (200, "/y"), (302, nil), (201, "/created")])
    func otherStatusesOrNoLocationAreNotRedirects(status: Int, location: String?) {
        let step = RedirectRules.nextRequest(
            after: Self.request(.get), response: Self.redirect(status, to: location), allowsInsecureRedirects: false)
        guard case .notARedirect = step else {
            Issue.record("\(status): expected no redirect, got \(step)")
            return
        }
    }

    @Test func aUnixSocketOverrideDoesNotFollowToAnotherOrigin() throws {
        var request = Self.request(.get, "http://localhost/a")
        request.unixSocketPath = "/run/app.sock"
        let same = try Self.follow(request, Self.redirect(302, to: "/b"))
        #expect(same.unixSocketPath == "/run/app.sock")
        let other = try Self.follow(request, Self.redirect(302, to: "http://elsewhere.example/b"))
        #expect(other.unixSocketPath == nil)
    }
}
