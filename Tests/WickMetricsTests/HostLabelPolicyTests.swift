// Host cardinality: the policies bound the distinct server.address values, whatever the traffic.
import FoundationEssentials
import MetricsTestKit
import Testing
import Wick
import WickMetrics
import WickTestSupport

@Suite struct HostLabelPolicyTests {
    /// The `server.address` values recorded for requests to `hosts` under `policy` (each request
    /// fails at once: a `FaultInjector` refuses every dial, so no name is resolved and no socket
    /// opened, and only the labelling is exercised).
    static func labels(for hosts: [String], policy: HostLabelPolicy) async throws -> [String?] {
        let metrics = TestMetrics()
        var settings = MetricsConfiguration(factory: metrics)
        settings.hostLabels = policy
        let monitor = MetricsMonitor(configuration: settings)
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        configuration.faultInjector = FaultInjector(seed: 1, rules: [FaultRule(.connectRefused)])
        let session = Session(configuration: configuration, eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }
        var labels: [String?] = []
        for host in hosts {
            metrics.reset()
            let request = session.request("http://\(host)/")
            _ = await withCheckedContinuation { continuation in
                request.responseData { continuation.resume(returning: $0) }
            }
            monitor.queue.sync {}
            let timer = metrics.timers(label: WickMetricName.requestDuration).first
            labels.append(timer?.dimensions.first { $0.0 == "server.address" }?.1)
        }
        return labels
    }

    @Test func firstSeenHostsKeepTheirLabelAndLaterOnesShareOne() async throws {
        let labels = try await Self.labels(
            for: ["a.example", "b.example", "c.example", "a.example"], policy: .firstSeen(maximumDistinct: 2))
        #expect(labels == ["a.example", "b.example", "_OTHER", "a.example"])
    }

    @Test func anAllowListNamesOnlyItsHosts() async throws {
        let labels = try await Self.labels(for: ["a.example", "b.example"], policy: .allowList(["b.example"]))
        #expect(labels == ["_OTHER", "b.example"])
    }

    @Test func omittedHostsHaveNoDimension() async throws {
        let labels = try await Self.labels(for: ["a.example"], policy: .omitted)
        #expect(labels == [nil])
    }
}
