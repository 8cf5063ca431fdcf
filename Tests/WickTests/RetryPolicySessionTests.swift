// RetryPolicy on real requests: 503s a FaultInjector answers with, a connection the fault server
// closes before any response byte (a FIN, which the injector's reset is not).
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

    /// A session whose every exchange a `FaultInjector` answers `503`, and a backend that only
    /// holds the connection (it never reads: the injector answers in its place).
    static func unavailableEverywhere(
        interceptor: (any RequestInterceptor)? = nil
    ) throws -> (Session, FaultInjector, FaultServer) {
        let backend = try FaultServer(steps: [.waitForClientClose(limit: .seconds(30))])
        let injector = FaultInjector(seed: 1, rules: [FaultRule(.serviceUnavailable())])
        var configuration = Session.Configuration()
        configuration.faultInjector = injector
        return (Session(configuration: configuration, interceptor: interceptor), injector, backend)
    }

    @Test func a503IsRetriedUpToTheLimit() async throws {
        let (session, injector, backend) = try Self.unavailableEverywhere(interceptor: Self.fastPolicy)
        defer { backend.stop() }
        let request = session.request("http://127.0.0.1:\(backend.port)/").validate(failUnlessSuccessful)
        let response = await request.serializingData().response
        #expect(request.retryCount == 2)
        #expect(request.requests.count == 3)
        #expect(injector.injectedFaultCount == 3)
        #expect(response.response?.statusCode == 503)
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(503))) = response.result else {
            Issue.record("expected the validation failure, got \(response.result)")
            return
        }
        await session.shutdown()
    }

    @Test func aPOSTAnswered503IsNotRetried() async throws {
        let (session, injector, backend) = try Self.unavailableEverywhere()
        defer { backend.stop() }
        let request = session.request("http://127.0.0.1:\(backend.port)/", method: .post, interceptor: .retryPolicy)
            .validate(failUnlessSuccessful)
        #expect(await request.serializingData().response.response?.statusCode == 503)
        #expect(request.retryCount == 0)
        #expect(injector.injectedFaultCount == 1)
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
