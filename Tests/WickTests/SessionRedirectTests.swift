// Redirects against httpbin: chains, methods per status, limits, Redirector behaviours, origins.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionRedirectTests {
    @Test func aRelativeChainIsFollowedToTheEndWithEveryHopRecorded() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/redirect/3")
        let response = await request.awaitResponseData()
        #expect(response.response?.statusCode == 200)
        #expect(response.request?.url.path == "/get")
        #expect(request.requests.count == 4)
        #expect(response.metrics?.transactions.map(\.statusCode) == [302, 302, 302, 200])
        #expect(response.metrics?.transactions.dropFirst().allSatisfy(\.isReused) == true)
        await session.shutdown()
    }

    @Test(arguments: [(303, "PUT", "GET"), (302, "POST", "GET"), (307, "POST", "POST"), (308, "PUT", "PUT")])
    func theMethodAfterARedirectFollowsTheStatus(status: Int, method: String, expected: String) async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request(
            "\(base)/redirect-to?url=%2Fanything&status_code=\(status)", method: HTTPMethod(rawValue: method),
            headers: ["Content-Type": "text/plain"], body: Data("payload".utf8)
        ).awaitResponseData()
        let json = try httpbinJSON(response.value)
        #expect(json["method"] as? String == expected)
        #expect((json["data"] as? String) == (expected == method ? "payload" : ""))
        await session.shutdown()
    }

    @Test func aChainLongerThanTheLimitFailsNamingIt() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = makeSession { $0.maximumRedirects = 2 }
        let response = await session.request("\(base)/redirect/3").awaitResponseData()
        guard case .sessionTaskFailed(.tooManyRedirects(limit: 2))? = response.error else {
            Issue.record("expected tooManyRedirects, got \(String(describing: response.error))")
            return
        }
        #expect(response.response?.statusCode == 302)
        await session.shutdown()
    }

    @Test func doNotFollowDeliversTheRedirectItself() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session(redirectHandler: Redirector.doNotFollow)
        let response = await session.request("\(base)/redirect/2").awaitResponseData()
        #expect(response.response?.statusCode == 302)
        #expect(response.response?.headers.value(for: "Location") != nil)
        await session.shutdown()
    }

    @Test func aRequestsRedirectorOverridesTheSessionsAndMayModify() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session(redirectHandler: Redirector.doNotFollow)
        let modify = Redirector(
            behavior: .modify { _, next, _ in
                var changed = next
                changed.url = URL(string: "\(base)/headers")!
                changed.headers.update(name: "X-Redirected", value: "yes")
                return changed
            })
        let response = await session.request("\(base)/redirect/1").redirect(using: modify).awaitResponseData()
        let headers = try #require(try httpbinJSON(response.value)["headers"] as? [String: String])
        #expect(headers["X-Redirected"] == "yes")
        let followed = await session.request("\(base)/redirect/1").redirect(using: .follow).awaitResponseData()
        #expect(followed.response?.statusCode == 200)
        await session.shutdown()
    }

    @Test func credentialsAreDroppedOnARedirectToAnotherHost() async throws {
        let server = try TestEnvironment.httpbin()
        let session = Session()
        let other = "http://localhost:\(server.port)/headers"
        let encoded = other.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let response = await session.request(
            "http://127.0.0.1:\(server.port)/redirect-to?url=\(encoded)",
            headers: ["Authorization": "Bearer secret", "Cookie": "a=b", "X-Other": "kept"]
        ).awaitResponseData()
        let headers = try #require(try httpbinJSON(response.value)["headers"] as? [String: String])
        #expect(headers["Authorization"] == nil && headers["Cookie"] == nil)
        #expect(headers["X-Other"] == "kept")
        await session.shutdown()
    }

    @Test func everyHopIsReportedToOnURLRequestCreation() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let seen = Shared<[String]>([])
        let response = await session.request("\(base)/redirect/2")
            .onURLRequestCreation(on: session.responseQueue) { request in seen.withLock { $0.append(request.url.path) } }
            .awaitResponseData()
        #expect(response.response?.statusCode == 200)
        // The handler runs on the response queue before the response handler, which is queued after it.
        #expect(seen.withLock { $0 } == ["/redirect/2", "/relative-redirect/1", "/get"])
        await session.shutdown()
    }
}
