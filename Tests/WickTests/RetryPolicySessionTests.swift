// RetryPolicy on real requests: httpbin's 503s, a refused port, a connection the fault server drops.
import Foundation
import Testing
import Wick
import WickTestSupport

/// Fails the attempt on any status outside 200..<300, as `validate()` does.
@Sendable func failUnlessSuccessful(_: HTTPRequest?, response: HTTPResponse, _: Data?) -> Result<Void, any Error> {
    (200..<300).contains(response.statusCode)
        ? .success(())
        : .failure(WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: response.statusCode)))
}

struct RetryPolicySessionTests {
    /// Fast backoff: 10 ms, 20 ms.
    static let fastPolicy = RetryPolicy(exponentialBackoffScale: 0.01)

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func a503IsRetriedUpToTheLimit() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session(interceptor: Self.fastPolicy)
        let request = session.request("\(base)/status/503").validate(failUnlessSuccessful)
        let response = await request.serializingData().response
        #expect(request.retryCount == 2)
        #expect(request.requests.count == 3)
        #expect(response.response?.statusCode == 503)
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(503))) = response.result else {
            Issue.record("expected the validation failure, got \(response.result)")
            return
        }
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aPOSTThatReachedTheServerIsNotRetried() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/status/503", method: .post, interceptor: .retryPolicy)
            .validate(failUnlessSuccessful)
        _ = await request.serializingData().response
        #expect(request.retryCount == 0)
        await session.shutdown()
    }

    @Test func aLostConnectionIsRetriedForGETButNotForPOST() async throws {
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let flaky = try FaultServer { index in index == 0 ? [.readRequest, .close] : [.readRequest, .send(ok)] }
        let dropping = try FaultServer(steps: [.readRequest, .close])
        defer {
            flaky.stop()
            dropping.stop()
        }
        let session = Session()
        let policy = ConnectionLostRetryPolicy(exponentialBackoffScale: 0.01)
        let get = session.request("http://127.0.0.1:\(flaky.port)/", interceptor: policy)
        #expect(try await get.serializingData().value == Data("ok".utf8))
        #expect(get.retryCount == 1)
        let post = session.request(
            "http://127.0.0.1:\(dropping.port)/", method: .post, body: Data("x".utf8), interceptor: policy)
        let result = await post.serializingData().result
        #expect(post.retryCount == 0)
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result, loss.requestMayHaveBeenProcessed,
            loss.cause == .closedBeforeResponse
        else {
            Issue.record("expected a lost connection, got \(result)")
            return
        }
        await session.shutdown()
    }
}
