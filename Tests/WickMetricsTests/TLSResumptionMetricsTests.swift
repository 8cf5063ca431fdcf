// TLS handshakes counted by resumption: a second new connection to nginx resumes the first's session.
import FoundationEssentials
import MetricsTestKit
import Testing
import Wick
import WickMetrics
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct TLSResumptionMetricsTests {
    @Test func aFullHandshakeThenAResumedOne() async throws {
        let nginx = try TestEnvironment.nginx()
        let root = try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        let metrics = TestMetrics()
        let monitor = MetricsMonitor(configuration: MetricsConfiguration(factory: metrics))
        var configuration = Session.Configuration()
        configuration.trustRoots = .certificates([root])
        configuration.maximumRequestsPerConnection = 1  // every request on a new connection
        let session = Session(configuration: configuration, eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }
        for _ in 0..<2 {
            let response = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
            #expect(response.response?.statusCode == 200)
            #expect(response.metrics?.connection?.isTLSSessionResumed != nil)
        }
        monitor.queue.sync {}

        let handshakes = metrics.counters(label: WickMetricName.tlsHandshakes)
        func count(resumed: String) -> Int64 {
            handshakes.filter { $0.dimensions.contains { $0 == ("wick.tls.resumed", resumed) } }.map(\.totalValue).reduce(0, +)
        }
        #expect(count(resumed: "false") == 1)
        #expect(count(resumed: "true") == 1)
        #expect(metrics.timers(label: WickMetricName.tlsHandshakeDuration).flatMap(\.values).count == 2)
    }
}
