// How a request is created, as in Alamofire: the RequestModifier before parameter encoding, its
// errors as createURLRequestFailed, a GET with a body refused, adapters in Alamofire's order.
import Foundation
import Testing
import Wick
import WickTestSupport

struct RequestCreationTests {
    struct Refusal: Error, Equatable {}

    /// Alamofire's `RequestEncodableConvertible` runs the modifier on the plain request, then
    /// encodes the parameters into what it made: a method changed to POST moves them to the body.
    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func theModifierRunsBeforeTheParametersAreEncoded() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request("\(base)/anything", parameters: ["q": "wick"]) { $0.method = .post }
            .serializingData().value
        let json = try httpbinJSON(data)
        #expect(json["method"] as? String == "POST")
        #expect((json["form"] as? [String: String]) == ["q": "wick"])
        #expect((json["args"] as? [String: String]) == [:])
        await session.shutdown()
    }

    @Test func aModifiersErrorIsCreateURLRequestFailedWithTheErrorKept() async {
        let session = Session()
        let response = await session.request("http://127.0.0.1:1/") { _ in throw Refusal() }.serializingData().response
        guard case .failure(.createURLRequestFailed(let error)) = response.result else {
            Issue.record("expected createURLRequestFailed, got \(response.result)")
            return
        }
        #expect(error as? Refusal == Refusal())
        #expect(response.error?.isCreateURLRequestError == true)
        await session.shutdown()
    }

    @Test func aModifiersWickErrorIsKeptAsItIs() async {
        let session = Session()
        let result = await session.request("http://127.0.0.1:1/") { _ in throw WickError.explicitlyCancelled }
            .serializingData().result
        #expect(result.error?.isExplicitlyCancelledError == true)
        await session.shutdown()
    }

    @Test func aGETWithABodyIsRefusedBeforeSending() async {
        let session = Session()
        let result = await session.request("http://127.0.0.1:1/", body: Data("x".utf8)).serializingData().result
        guard case .failure(.urlRequestValidationFailed(.bodyDataInGETRequest(let body))) = result else {
            Issue.record("expected urlRequestValidationFailed, got \(result)")
            return
        }
        #expect(body == Data("x".utf8))
        await session.shutdown()
    }

    @Test func anAdapterThatAddsABodyToAGETIsRefusedToo() async {
        let session = Session(
            interceptor: Adapter { request, _, completion in
                var adapted = request
                adapted.body = Data("x".utf8)
                completion(.success(adapted))
            })
        let result = await session.request("http://127.0.0.1:1/").serializingData().result
        #expect(result.error?.isURLRequestValidationError == true)
        await session.shutdown()
    }
}

extension Result {
    /// The failure, if this is one.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

struct HTTPRequestEquatableTests {
    @Test func requestsAreEqualWhenTheyWouldSendTheSameThing() {
        let url = URL(string: "http://example.com/a")!
        let first = HTTPRequest(method: .post, url: url, headers: ["A": "1"], body: Data("x".utf8))
        var second = HTTPRequest(method: .post, url: url, headers: ["A": "1"], body: Data("x".utf8))
        #expect(first == second && first == first)
        second.headers.add(name: "B", value: "2")
        #expect(first != second)
        var third = first
        third.timeoutInterval = 1
        #expect(first != third)
    }
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct HTTPResponseURLTests {
    /// Alamofire code reads `response.response?.url` for where the body came from.
    @Test func theResponseNamesTheURLItAnswersAfterRedirects() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request("\(base)/redirect-to?url=%2Fget%3Fhop%3D2").serializingData().response
        #expect(response.response?.statusCode == 200)
        #expect(response.response?.url?.absoluteString == "\(base)/get?hop=2")
        let download = await session.download("\(base)/get?d=1").serializingDownloadedFileURL().response
        #expect(download.response?.url?.absoluteString == "\(base)/get?d=1")
        let stream = session.streamRequest("\(base)/bytes/10")
        for try await _ in stream.streamingData() {}
        #expect(stream.response?.url?.absoluteString == "\(base)/bytes/10")
        await session.shutdown()
    }
}
