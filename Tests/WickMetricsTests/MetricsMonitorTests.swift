// MetricsMonitor against httpbin and injected faults, recorded into swift-metrics' TestMetrics.
import CoreMetrics
import Dispatch
import FoundationEssentials
import MetricsTestKit
import Synchronization
import Testing
import Wick
import WickMetrics
import WickTestSupport

@Suite struct MetricsMonitorTests {
    /// A session whose events `monitor` records.
    static func session(_ monitor: MetricsMonitor, interceptor: (any RequestInterceptor)? = nil) -> Session {
        Session(interceptor: interceptor, eventMonitors: [monitor])
    }

    /// Awaits `request`'s response, then every event the monitor has been handed.
    static func finish(_ request: DataRequest, _ monitor: MetricsMonitor) async -> DataResponse<Data, WickError> {
        let response = await withCheckedContinuation { continuation in
            request.responseData { continuation.resume(returning: $0) }
        }
        monitor.queue.sync {}
        return response
    }

    /// The value of dimension `name` in `dimensions`.
    static func value(_ name: String, in dimensions: [(String, String)]) -> String? {
        dimensions.first { $0.0 == name }?.1
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func everyExchangeIsTimedWithItsStatusAndHost() async throws {
        let httpbin = try TestEnvironment.httpbin()
        let metrics = TestMetrics()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: metrics))
        let session = Self.session(monitor)
        defer { Task { await session.shutdown() } }
        let response = await Self.finish(session.request("\(httpbin.base)/redirect/1"), monitor)
        #expect(response.response?.statusCode == 200)

        let durations = metrics.timers(label: WickMetricName.requestDuration)
        let statuses = durations.compactMap { Self.value("http.response.status_code", in: $0.dimensions) }.sorted()
        #expect(statuses == ["200", "302"])
        for timer in durations {
            #expect(timer.values.count == 1)
            #expect(timer.values.allSatisfy { $0 > 0 })
            #expect(Self.value("http.request.method", in: timer.dimensions) == "GET")
            #expect(Self.value("server.address", in: timer.dimensions) == "127.0.0.1")
            #expect(Self.value("server.port", in: timer.dimensions) == String(httpbin.port))
            #expect(Self.value("url.scheme", in: timer.dimensions) == "http")
        }
        #expect(metrics.counterTotal(label: WickMetricName.redirects) == 1)
        #expect(metrics.counterTotal(label: WickMetricName.connectionLeases) == 2)
        #expect(metrics.timers(label: WickMetricName.timeInQueue).flatMap(\.values).count == 2)
        #expect(metrics.timers(label: WickMetricName.connectDuration).flatMap(\.values).count >= 1)
        #expect(metrics.counterTotal(label: WickMetricName.bytesSent) > 0)
        #expect(metrics.counterTotal(label: WickMetricName.bytesReceived) > 0)
        let active = try metrics.expectMeter(WickMetricName.activeRequests)
        #expect(active.values == [1, 0])
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func requestsWithTheSameDimensionsRecordIntoHandlesMadeOnce() async throws {
        let httpbin = try TestEnvironment.httpbin()
        let factory = CountingMetricsFactory()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: factory))
        let session = Self.session(monitor)
        defer { Task { await session.shutdown() } }
        _ = await Self.finish(session.request("\(httpbin.base)/get"), monitor)
        let afterFirst = factory.handlesMade
        for path in ["/get?a=1", "/status/200", "/anything/else"] {
            _ = await Self.finish(session.request("\(httpbin.base)\(path)"), monitor)
        }
        // Other paths, the same method, scheme, host, port and status: the first request's
        // handles, nothing new asked of the factory.
        #expect(factory.handlesMade == afterFirst, "\(factory.handlesMade) against \(afterFirst)")
        let durations = factory.base.timers(label: WickMetricName.requestDuration)
        #expect(durations.count == 1 && durations.first?.values.count == 4)
        #expect(factory.base.counterTotal(label: WickMetricName.connectionLeases) == 4)
    }

    /// A session whose events `monitor` records and whose transport `injector` fails.
    static func session(
        _ monitor: MetricsMonitor, injecting injector: FaultInjector, interceptor: (any RequestInterceptor)? = nil
    ) -> Session {
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        configuration.faultInjector = injector
        return Session(configuration: configuration, interceptor: interceptor, eventMonitors: [monitor])
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func exchangesShareHandlesByOriginAsWrittenNotByPath() async throws {
        let nginx = try TestEnvironment.nginx()
        let factory = CountingMetricsFactory()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: factory))
        let session = Self.session(monitor)
        defer { Task { await session.shutdown() } }
        // Two paths and a query on one origin, then the same server written another way, then
        // the first origin again (a key the last-used set does not match).
        let urls = [
            "\(nginx.httpBase)/bytes/1k", "\(nginx.httpBase)/bytes/0?x=1",
            "http://localhost:\(nginx.httpPort)/bytes/1k",
            "http://user@127.0.0.1:\(nginx.httpPort)/bytes/0", "\(nginx.httpBase)/bytes/1k",
        ]
        for url in urls {
            let response = await Self.finish(session.request(url), monitor)
            #expect(response.response?.statusCode == 200)
        }
        let durations = factory.base.timers(label: WickMetricName.requestDuration)
        let countsByHost = Dictionary(
            durations.map { (Self.value("server.address", in: $0.dimensions) ?? "", $0.values.count) },
            uniquingKeysWith: +)
        #expect(countsByHost == ["127.0.0.1": 4, "localhost": 1])
        #expect(durations.allSatisfy { Self.value("server.port", in: $0.dimensions) == String(nginx.httpPort) })
        // One handle set per origin as written: 127.0.0.1, localhost, and user@127.0.0.1 (its
        // labels equal the first's, its key does not): 3 sets of 14 handles.
        #expect(factory.handlesMade == 3 * 14)
    }

    @Test func retriesAreCountedAndStatusClassesGroup() async throws {
        // Every exchange is answered 503 by the injector: the backend only holds the connection.
        let backend = try FaultServer(steps: [.waitForClientClose(limit: .seconds(30))])
        defer { backend.stop() }
        let metrics = TestMetrics()
        var configuration = MetricsConfiguration(factory: metrics)
        configuration.statusLabel = .statusClass
        let monitor = MetricsMonitor(configuration: configuration)
        let retryOnce = Interceptor(
            adaptHandler: { request, _, completion in completion(.success(request)) },
            retryHandler: { request, _, _, completion in completion(request.retryCount < 1 ? .retry : .doNotRetry) })
        let injector = FaultInjector(seed: 1, rules: [FaultRule(.serviceUnavailable())])
        let session = Self.session(monitor, injecting: injector, interceptor: retryOnce)
        defer { Task { await session.shutdown() } }
        _ = await Self.finish(session.request("http://127.0.0.1:\(backend.port)/").validate(), monitor)
        #expect(injector.injectedFaultCount == 2)

        #expect(metrics.counterTotal(label: WickMetricName.retries) == 1)
        let timer = try #require(metrics.timers(label: WickMetricName.requestDuration).first)
        #expect(Self.value("http.response.status_class", in: timer.dimensions) == "5xx")
        #expect(timer.values.count == 2)
    }

    /// Refuses every dial, with no socket and no name resolved.
    static func refusingEveryConnect() -> FaultInjector {
        FaultInjector(seed: 1, rules: [FaultRule(.connectRefused)])
    }

    @Test func aFailureWithoutAResponseIsTimedWithItsErrorType() async throws {
        let metrics = TestMetrics()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: metrics))
        let session = Self.session(monitor, injecting: Self.refusingEveryConnect())
        defer { Task { await session.shutdown() } }
        let response = await Self.finish(session.request("http://service.example/"), monitor)
        #expect(response.error != nil)

        let timer = try #require(metrics.timers(label: WickMetricName.requestDuration).first)
        #expect(Self.value("error.type", in: timer.dimensions) == "cannotConnectToHost")
        #expect(Self.value("http.response.status_code", in: timer.dimensions) == nil)
        #expect(timer.values.count == 1)
        #expect(try metrics.expectMeter(WickMetricName.activeRequests).values == [1, 0])
    }

    @Test func customMethodsShareOneLabel() async throws {
        let metrics = TestMetrics()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: metrics))
        let session = Self.session(monitor, injecting: Self.refusingEveryConnect())
        defer { Task { await session.shutdown() } }
        _ = await Self.finish(session.request("http://service.example/", method: "BREW"), monitor)
        let timer = try #require(metrics.timers(label: WickMetricName.requestDuration).first)
        #expect(Self.value("http.request.method", in: timer.dimensions) == "_OTHER")
    }
}

/// TestMetrics that counts the counters, recorders and timers asked of it.
final class CountingMetricsFactory: MetricsFactory, Sendable {
    let base = TestMetrics()
    private let made = Mutex(0)

    /// Counters, recorders and timers made so far.
    var handlesMade: Int { made.withLock { $0 } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        made.withLock { $0 += 1 }
        return base.makeCounter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        made.withLock { $0 += 1 }
        return base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        made.withLock { $0 += 1 }
        return base.makeTimer(label: label, dimensions: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        base.makeMeter(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
}
