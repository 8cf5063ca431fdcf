// Adapters and retriers against httpbin: order, per-attempt adaptation, retry decisions, failures.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionInterceptorTests {
    struct Refused: Error {}

    /// An adapter that adds `X-Trace` with its name appended.
    static func tracing(_ name: String) -> Adapter {
        Adapter { request, _, completion in
            var adapted = request
            let trace = adapted.headers.value(for: "X-Trace").map { "\($0),\(name)" } ?? name
            adapted.headers.update(name: "X-Trace", value: trace)
            completion(.success(adapted))
        }
    }

    /// Alamofire's order (`Session.adapter(for:)`): the request's adapter, then the session's.
    @Test func theRequestsOwnAdapterRunsBeforeTheSessions() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session(interceptor: Interceptor(adapters: [Self.tracing("session")]))
        let data = try await session.request("\(base)/headers", interceptor: Interceptor(adapters: [Self.tracing("own")]))
            .serializingData().value
        let headers = try #require(try httpbinJSON(data)["headers"] as? [String: String])
        #expect(headers["X-Trace"] == "own,session")
        await session.shutdown()
    }

    @Test func aFailedValidationIsRetriedUntilTheRetrierStopsEachAttemptAdaptedAfresh() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let adaptations = Shared(0)
        let retrier = Interceptor(
            adaptHandler: { request, _, completion in
                adaptations.withLock { $0 += 1 }
                completion(.success(request))
            },
            retryHandler: { request, _, _, completion in
                completion(request.retryCount < 2 ? .retryWithDelay(.milliseconds(10)) : .doNotRetry)
            })
        let request = session.request("\(base)/status/503", interceptor: retrier)
            .validate { _, response, _ in
                response.statusCode < 500 ? .success(()) : .failure(Refused())
            }
        let response = await request.awaitResponseData()
        #expect(request.retryCount == 2)
        #expect(adaptations.withLock { $0 } == 3)
        #expect(response.response?.statusCode == 503)
        #expect(response.metrics?.transactions.count == 3)
        guard case .responseValidationFailed(.customValidationFailed(let error))? = response.error else {
            Issue.record("expected the validation's error, got \(String(describing: response.error))")
            return
        }
        #expect(error is Refused)
        await session.shutdown()
    }

    @Test func aRetrierErrorFailsTheRequestWithBothErrors() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let retrier = Retrier { _, _, _, completion in completion(.doNotRetryWithError(Refused())) }
        let response = await session.request("\(base)/status/500", interceptor: retrier)
            .validate { _, response, _ in response.statusCode < 500 ? .success(()) : .failure(Refused()) }
            .awaitResponseData()
        guard case .requestRetryFailed(let retryError, .responseValidationFailed)? = response.error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: response.error))")
            return
        }
        #expect(retryError is Refused)
        await session.shutdown()
    }

    @Test func anAdapterFailureSendsNothingAndAsksTheRetrier() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let attempts = Shared(0)
        let interceptor = Interceptor(
            adaptHandler: { request, _, completion in
                let attempt = attempts.withLock { value -> Int in
                    value += 1
                    return value
                }
                completion(attempt == 1 ? .failure(Refused()) : .success(request))
            },
            retryHandler: { _, _, error, completion in
                guard case .requestAdaptationFailed? = error as? WickError else { return completion(.doNotRetry) }
                completion(.retry)
            })
        let request = session.request("\(base)/get", interceptor: interceptor)
        let response = await request.awaitResponseData()
        #expect(response.response?.statusCode == 200)
        #expect(request.retryCount == 1 && request.requests.count == 1)

        let failing = await session.request("\(base)/get", interceptor: Adapter { _, _, completion in
            completion(.failure(Refused()))
        }).awaitResponseData()
        guard case .requestAdaptationFailed(let error)? = failing.error else {
            Issue.record("expected requestAdaptationFailed, got \(String(describing: failing.error))")
            return
        }
        #expect(error is Refused && failing.response == nil)
        await session.shutdown()
    }

    @Test func aRetryDelayPastTheDeadlineEndsTheRequestWithItsError() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = makeSession { $0.requestTimeout = .seconds(5) }
        let retrier = Retrier { _, _, _, completion in completion(.retryWithDelay(.seconds(60))) }
        let started = ContinuousClock.now
        let response = await session.request("\(base)/status/500", interceptor: retrier)
            .validate { _, response, _ in response.statusCode < 500 ? .success(()) : .failure(Refused()) }
            .awaitResponseData()
        // Only a hang guard: the delay alone would take 60 s.
        #expect(ContinuousClock.now - started < .seconds(30))
        guard case .responseValidationFailed? = response.error else {
            Issue.record("expected the attempt's error, got \(String(describing: response.error))")
            return
        }
        await session.shutdown()
    }

    @Test func theRequestModifierChangesTheRequestAsCreated() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request("\(base)/headers") { $0.headers.update(name: "X-Modified", value: "1") }
            .serializingData().value
        let headers = try #require(try httpbinJSON(data)["headers"] as? [String: String])
        #expect(headers["X-Modified"] == "1")
        await session.shutdown()
    }
}
