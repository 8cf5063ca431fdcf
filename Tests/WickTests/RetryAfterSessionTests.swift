// Retry-After and the retry budget on real requests, against the fault server.
import Foundation
import Synchronization
import Testing
import Wick
import WickTestSupport

struct RetryAfterSessionTests {
    static func response(_ status: String, _ extra: String = "") -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\n\(extra)Content-Length: 2\r\nConnection: close\r\n\r\nno".utf8)
    }
    static let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)

    /// A server answering the first `failures` connections with `failure`, then 200.
    static func server(failing failures: Int, with failure: [UInt8]) throws -> FaultServer {
        try FaultServer { index in index < failures ? [.readRequest, .send(failure), .close] : [.readRequest, .send(ok), .close] }
    }

    @Test func a503IsRetriedNoSoonerThanItsRetryAfter() async throws {
        let server = try Self.server(failing: 1, with: Self.response("503 Service Unavailable", "Retry-After: 1\r\n"))
        defer { server.stop() }
        let session = Session(interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        let started = ContinuousClock.now
        let request = session.request("http://127.0.0.1:\(server.port)/").validate(failUnlessSuccessful)
        #expect(try await request.serializingData().value == Data("ok".utf8))
        #expect(request.retryCount == 1)
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        await session.shutdown()
    }

    @Test func a429WithRetryAfterIsRetried() async throws {
        let server = try Self.server(failing: 1, with: Self.response("429 Too Many Requests", "Retry-After: 0\r\n"))
        defer { server.stop() }
        let session = Session(interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        let request = session.request("http://127.0.0.1:\(server.port)/").validate(failUnlessSuccessful)
        #expect(try await request.serializingData().value == Data("ok".utf8))
        #expect(request.retryCount == 1)
        await session.shutdown()
    }

    @Test func aRetryAfterLongerThanTheMaximumIsNotRetried() async throws {
        let server = try Self.server(failing: 1, with: Self.response("503 Service Unavailable", "Retry-After: 3600\r\n"))
        defer { server.stop() }
        let session = Session(interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        let started = ContinuousClock.now
        let request = session.request("http://127.0.0.1:\(server.port)/").validate(failUnlessSuccessful)
        let response = await request.serializingData().response
        #expect(request.retryCount == 0)
        #expect(response.response?.statusCode == 503)
        #expect(ContinuousClock.now - started < .seconds(60), "far below the 3,600 s asked for")
        await session.shutdown()
    }

    @Test func theBudgetRefusesRetriesPastItsShareAndMonitorsHearIt() async throws {
        let server = try Self.server(failing: .max, with: Self.response("503 Service Unavailable"))
        defer { server.stop() }
        let refusals = Mutex(0)
        let monitor = ClosureEventMonitor()
        monitor.requestRetryWasRefusedByBudget = { _ in refusals.withLock { $0 += 1 } }
        var configuration = Session.Configuration()
        // No share of traffic, a reserve of one retry in the window.
        let budget = RetryBudget(ratio: 0, minimumRetriesPerSecond: 0.1, window: .seconds(10))
        configuration.retryBudget = budget
        let session = Session(
            configuration: configuration, interceptor: RetryPolicy(exponentialBackoffScale: 0.001),
            eventMonitors: [monitor])
        let url = "http://127.0.0.1:\(server.port)/"
        let first = session.request(url).validate(failUnlessSuccessful)
        #expect(await first.serializingData().response.response?.statusCode == 503)
        #expect(first.retryCount == 1)
        let second = session.request(url).validate(failUnlessSuccessful)
        #expect(await second.serializingData().response.response?.statusCode == 503)
        #expect(second.retryCount == 0)
        #expect(budget.statistics == RetryBudget.Statistics(requests: 2, retriesAllowed: 1, retriesRefused: 2))
        await session.shutdown()
        // Monitors run on their own queue: give it a moment.
        for _ in 0..<200 where refusals.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let refused = refusals.withLock { $0 }
        #expect(refused == 2)
        #expect(server.acceptedConnections == 3)
    }
}
