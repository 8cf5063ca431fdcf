// ClosureEventMonitor: each event calls its closure, in the documented order, on the queue set.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite struct ClosureEventMonitorTests {
    struct Refused: Error {}

    /// A monitor whose every closure records the event's name.
    static func recording(_ events: Shared<[String]>, queue: DispatchQueue? = nil) -> ClosureEventMonitor {
        let monitor = ClosureEventMonitor(queue: queue)
        @Sendable func record(_ name: String) { events.withLock { $0.append(name) } }
        monitor.requestDidCreateInitialRequest = { _, _ in record("created") }
        monitor.requestDidFailToCreateRequestWithError = { _, _ in record("not created") }
        monitor.requestDidAdaptInitialRequestToAdaptedRequest = { _, _, _ in record("adapted") }
        monitor.requestDidFailToAdaptRequestWithError = { _, _, _ in record("not adapted") }
        monitor.requestWillSend = { _, request in record("send \(request.url.path)") }
        monitor.requestDidAcquireConnection = { _, connection in
            record("connection \(connection.remoteAddress.hasPrefix("127.0.0.1:"))")
        }
        monitor.requestDidReceiveResponse = { _, response, _ in record("response \(response.statusCode)") }
        monitor.requestDidGatherMetrics = { _, metrics in record("metrics \(metrics.transactions.count)") }
        monitor.requestWillRedirect = { _, _, _ in record("redirect") }
        monitor.requestDidValidateRequestResponseWithResult = { _, _, _, _ in record("validated") }
        monitor.requestDidDecideRetry = { _, decision, _ in record("retry \(decision.retryRequired)") }
        monitor.requestIsRetrying = { _ in record("retrying") }
        monitor.requestDidResume = { _ in record("resumed") }
        monitor.requestDidSuspend = { _ in record("suspended") }
        monitor.requestDidCancel = { _ in record("cancelled") }
        monitor.requestDidFinish = { _ in record("finished") }
        monitor.requestDidParseResponse = { _, response in record("parsed \(response.value is Data)") }
        return monitor
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func everyExchangeEventArrivesInOrder() async throws {
        let base = try TestEnvironment.httpbin().base
        let events = Shared<[String]>([])
        let monitor = Self.recording(events)
        let session = Session(
            interceptor: Interceptor(
                adaptHandler: { request, _, completion in completion(.success(request)) },
                retryHandler: { request, _, _, completion in completion(request.retryCount < 1 ? .retry : .doNotRetry) }
            ),
            eventMonitors: [monitor])
        _ = await session.request("\(base)/redirect/1")
            .validate { _, _, _ in
                .failure(WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 200)))
            }
            .awaitResponseData()
        monitor.queue.sync {}
        func attempt(_ first: Int) -> [String] {
            [
                "adapted", "send /redirect/1", "connection true", "response 302", "metrics \(first)", "redirect",
                "send /get", "connection true", "response 200", "metrics \(first + 1)", "validated",
            ]
        }
        let expected =
            ["created", "resumed"] + attempt(1) + ["retry true", "retrying"] + attempt(3)
            + ["retry false", "finished", "parsed false"]
        #expect(events.withLock { $0 } == expected)
        // A success reaches the parse closure with its value, type-erased.
        _ = await session.request("\(base)/get").awaitResponseData()
        monitor.queue.sync {}
        #expect(events.withLock { $0.last } == "parsed true")
        await session.shutdown()
    }

    @Test func failuresSuspensionAndCancellationCallTheirClosures() async throws {
        let events = Shared<[String]>([])
        let monitor = Self.recording(events)
        let session = Session(
            interceptor: Interceptor(
                adaptHandler: { _, _, completion in completion(.failure(Refused())) },
                retryHandler: { _, _, _, completion in completion(.doNotRetry) }),
            eventMonitors: [monitor])
        // Port 9 is never contacted: the adapter fails first.
        _ = await session.request("http://127.0.0.1:9/x").awaitResponseData()
        monitor.queue.sync {}
        #expect(
            events.withLock { $0 } == ["created", "resumed", "not adapted", "retry false", "finished", "parsed false"])

        events.withLock { $0 = [] }
        _ = await session.request("http+unix:///x").awaitResponseData()
        monitor.queue.sync {}
        #expect(events.withLock { $0 }.first == "not created")
        #expect(events.withLock { $0 }.last == "parsed false")

        events.withLock { $0 = [] }
        let held = session.request("http://127.0.0.1:9/x").suspend().cancel()
        _ = await held.awaitResponseData()
        monitor.queue.sync {}
        #expect(events.withLock { $0 } == ["created", "suspended", "cancelled", "finished", "parsed false"])
        await session.shutdown()
    }

    /// The connection is reported when the pool leases it, so an exchange that then fails
    /// without a response still reports the connection it was on.
    @Test func aConnectionIsReportedAtTheLeaseEvenWhenNoResponseFollows() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .reset])
        defer { server.stop() }
        let events = Shared<[String]>([])
        let monitor = Self.recording(events)
        let session = Session(eventMonitors: [monitor])
        let result = await session.request("http://127.0.0.1:\(server.port)/reset", method: .post).awaitResponseData()
        #expect(result.error != nil)
        monitor.queue.sync {}
        #expect(
            events.withLock { $0 } == [
                "created", "resumed", "send /reset", "connection true", "finished", "parsed false",
            ])
        await session.shutdown()
    }

    @Test func eventsRunOnTheQueueSetAndANilClosureIgnoresItsEvent() async throws {
        let first = DispatchQueue(label: "test.closure-monitor.first")
        let second = DispatchQueue(label: "test.closure-monitor.second")
        let events = Shared<[String]>([])
        let monitor = ClosureEventMonitor(queue: first)
        #expect(monitor.queue === first)
        monitor.requestDidFinish = { _ in
            dispatchPrecondition(condition: .onQueue(second))
            events.withLock { $0.append("finished") }
        }
        monitor.queue = second
        #expect(monitor.queue === second && monitor.requestDidCancel == nil)
        let session = Session(eventMonitors: [monitor])
        _ = await session.request("http+unix:///x").awaitResponseData()
        second.sync {}
        #expect(events.withLock { $0 } == ["finished"])
        monitor.requestDidFinish = nil
        _ = await session.request("http+unix:///x").awaitResponseData()
        second.sync {}
        #expect(events.withLock { $0 } == ["finished"])
        await session.shutdown()
    }
}
