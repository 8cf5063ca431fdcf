// Parameters through Session against httpbin: query and body encodings, as Alamofire's tests do.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionParameterTests {
    struct Search: Encodable, Sendable {
        var q: String
        var tags: [String]
        var exact: Bool
    }

    @Test(arguments: [HTTPMethod.get, .head, .delete])
    func formParametersGoInTheQueryForMethodsWithoutBody(method: HTTPMethod) async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request(
            "\(base)/anything", method: method, parameters: Search(q: "a b&c", tags: ["x", "y"], exact: true))
        let response = await request.awaitResponseData()
        #expect(response.response?.statusCode == 200)
        #expect(request.request?.url.query() == "exact=1&q=a%20b%26c&tags%5B%5D=x&tags%5B%5D=y")
        if method != .head {
            let json = try httpbinJSON(response.value)
            let args = try #require(json["args"] as? [String: Any])
            #expect(args["q"] as? String == "a b&c")
            #expect(args["tags[]"] as? [String] == ["x", "y"])
        }
        await session.shutdown()
    }

    @Test func formParametersGoInTheBodyForPost() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request(
            "\(base)/post", method: .post, parameters: Search(q: "wick", tags: ["1"], exact: false)
        ).serializingData().value
        let json = try httpbinJSON(data)
        let form = try #require(json["form"] as? [String: String])
        #expect(form == ["q": "wick", "tags[]": "1", "exact": "0"])
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        await session.shutdown()
    }

    @Test func jsonParametersAreSentAsJSON() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request(
            "\(base)/put", method: .put, parameters: Search(q: "wick", tags: ["a"], exact: true),
            encoder: JSONParameterEncoder.sortedKeys
        ).serializingData().value
        let json = try httpbinJSON(data)
        #expect(json["data"] as? String == #"{"exact":true,"q":"wick","tags":["a"]}"#)
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["Content-Type"] == "application/json")
        await session.shutdown()
    }

    @Test func theOlderDictionaryFormsEncodeToo() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let query = try await session.request("\(base)/get", parameters: ["page": 2, "q": "w"]).serializingData().value
        #expect((try httpbinJSON(query)["args"] as? [String: String]) == ["page": "2", "q": "w"])
        let body = try await session.request(
            "\(base)/post", method: .post, parameters: ["nested": ["a": 1]], encoding: JSONEncoding.default
        ).serializingData().value
        #expect((try httpbinJSON(body)["json"] as? [String: [String: Int]]) == ["nested": ["a": 1]])
        await session.shutdown()
    }

    @Test func anEncodingFailureSendsNothing() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request("\(base)/get", parameters: ["a", "b"]).awaitResponseData()
        guard case .parameterEncoderFailed? = response.error else {
            Issue.record("expected parameterEncoderFailed, got \(String(describing: response.error))")
            return
        }
        #expect(response.request == nil && response.response == nil)
        await session.shutdown()
    }
}
