// A request's life against httpbin: starting, suspending, cancelling, the session's registry, events.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionLifecycleTests {
    @Test func withoutStartRequestsImmediatelyOnlyResumeStartsARequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session(startRequestsImmediately: false)
        let request = session.request("\(base)/get")
        let finished = Shared(false)
        request.responseData { _ in finished.withLock { $0 = true } }
        try await Task.sleep(for: .milliseconds(200))
        #expect(request.state == .initialized && !finished.withLock { $0 })
        let response = await request.resume().awaitResponseData()
        #expect(response.response?.statusCode == 200 && request.state == .finished)
        await session.shutdown()
    }

    @Test func aSuspendedRequestWaitsForResume() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/get").suspend()
        #expect(request.state == .suspended)
        let finished = Shared(false)
        request.responseData { _ in finished.withLock { $0 = true } }
        try await Task.sleep(for: .milliseconds(200))
        #expect(!finished.withLock { $0 } && request.requests.isEmpty)
        request.resume()
        let response = await request.awaitResponseData()
        #expect(response.response?.statusCode == 200)
        await session.shutdown()
    }

    @Test func cancellingARunningRequestEndsItAtOnce() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/delay/10")
        async let response = request.awaitResponseData()
        try await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        request.cancel()
        let error = await response.error
        // A success here would mean the cancel came after the whole 10 s response.
        guard case .explicitlyCancelled? = error else {
            Issue.record("expected explicitlyCancelled, got \(String(describing: error))")
            return
        }
        // Measured from the cancel, not the start: a loaded machine may start the test late. Well
        // under the server's 10 s, with room for a test run that starves the cooperative pool.
        #expect(ContinuousClock.now - cancelled < .seconds(9))
        #expect(request.state == .cancelled && request.isCancelled)
        await session.shutdown()
    }

    @Test func cancelAllRequestsCancelsEveryUnfinishedOne() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let requests = (0..<3).map { _ in session.request("\(base)/delay/5") }
        for request in requests { request.resume() }
        var count = 0
        session.withAllRequests { count = $0.count }
        #expect(count == 3)
        session.cancelAllRequests()
        for request in requests {
            guard case .explicitlyCancelled? = await request.awaitResponseData().error else {
                Issue.record("expected explicitlyCancelled for \(request)")
                continue
            }
        }
        session.withAllRequests { count = $0.count }
        #expect(count == 0)
        await session.shutdown()
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequestWhenAskedTo() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/delay/5")
        let waiting = Task { await request.serializingData(automaticallyCancelling: true).result }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        guard case .failure(.explicitlyCancelled) = await waiting.value else {
            Issue.record("expected explicitlyCancelled")
            return
        }
        #expect(request.isCancelled)
        await session.shutdown()
    }

    @Test func theDescriptionNamesMethodURLAndStatus() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/status/201", method: .post)
        #expect(request.description == "POST \(base)/status/201")
        _ = await request.awaitResponseData()
        #expect(request.description == "POST \(base)/status/201 (201)")
        await session.shutdown()
    }

    /// Records every event's name in order.
    final class Recorder: EventMonitor {
        let events = Shared<[String]>([])
        let queue = DispatchQueue(label: "recorder")

        private func record(_ name: String) { events.withLock { $0.append(name) } }

        func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) { record("created") }
        func requestDidResume(_ request: Request) { record("resumed") }
        func request(_ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adapted: HTTPRequest) {
            record("adapted")
        }
        func request(_ request: Request, willSend httpRequest: HTTPRequest) { record("send \(httpRequest.url.path)") }
        func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
            record("response \(response.statusCode)")
        }
        func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
            record("metrics \(metrics.transactions.count)")
        }
        func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
            record("redirect")
        }
        func request(
            _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
            withResult result: Result<Void, WickError>
        ) { record("validated") }
        func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
            record("retry \(decision.retryRequired)")
        }
        func requestIsRetrying(_ request: Request) { record("retrying") }
        func requestDidFinish(_ request: Request) { record("finished") }
        func request<Value: Sendable>(_ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>) {
            record("parsed")
        }
    }

    @Test func eventsArriveInTheDocumentedOrder() async throws {
        let base = try TestEnvironment.httpbin().base
        let recorder = Recorder()
        let session = Session(
            interceptor: Interceptor(
                adaptHandler: { request, _, completion in completion(.success(request)) },
                retryHandler: { request, _, _, completion in completion(request.retryCount < 1 ? .retry : .doNotRetry) }),
            eventMonitors: [recorder])
        _ = await session.request("\(base)/redirect/1")
            .validate { _, _, _ in .failure(WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 200))) }
            .awaitResponseData()
        recorder.queue.sync {}
        let attempt = [
            "adapted", "send /redirect/1", "response 302", "metrics 1", "redirect", "send /get", "response 200",
            "metrics 2", "validated",
        ]
        let retried = [
            "adapted", "send /redirect/1", "response 302", "metrics 3", "redirect", "send /get", "response 200",
            "metrics 4", "validated",
        ]
        let expected =
            ["created", "resumed"] + attempt + ["retry true", "retrying"] + retried + ["retry false", "finished", "parsed"]
        #expect(recorder.events.withLock { $0 } == expected)
        await session.shutdown()
    }
}
