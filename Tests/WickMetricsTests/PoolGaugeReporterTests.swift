// PoolGaugeReporter: the pools' gauges per origin, and an emptied origin zeroed once.
import MetricsTestKit
import Testing
import Wick
import WickMetrics
import WickTestSupport

@Suite struct PoolGaugeReporterTests {
    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func anIdleConnectionIsReportedForItsOrigin() async throws {
        let nginx = try TestEnvironment.nginx()
        let metrics = TestMetrics()
        let session = Session()
        let reporter = PoolGaugeReporter(session: session, configuration: MetricsConfiguration(factory: metrics))
        // nginx keeps an idle connection open (gunicorn's busy workers may not).
        try session.prewarm(nginx.httpBase, connections: 1)
        let origin = [("wick.pool.origin", "http://127.0.0.1:\(nginx.httpPort)")]
        let idle = origin + [("http.connection.state", "idle")]
        var sampled = false
        for _ in 0..<1_000 where !sampled {
            await reporter.sample()
            sampled = (try? metrics.expectGauge(WickMetricName.openConnections, idle).lastValue) == 1
            if !sampled { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(sampled)
        #expect(try metrics.expectGauge(WickMetricName.openConnections, origin + [("http.connection.state", "active")]).lastValue == 0)
        #expect(try metrics.expectGauge(WickMetricName.waitingRequests, origin).lastValue == 0)

        // Shut down, the pools report nothing: the origin's gauges go to zero once.
        await session.shutdown()
        await reporter.sample()
        #expect(try metrics.expectGauge(WickMetricName.openConnections, idle).lastValue == 0)
    }
}
