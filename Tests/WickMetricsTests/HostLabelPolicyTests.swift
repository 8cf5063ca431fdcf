// Host cardinality: the policies bound the distinct server.address values, whatever the traffic.
import FoundationEssentials
import MetricsTestKit
import Testing
import Wick
import WickMetrics
import WickTestSupport

@Suite struct HostLabelPolicyTests {
    /// The `server.address` values recorded for requests to `hosts` under `policy` (each request
    /// fails at once: the hosts are unresolvable names, so only the labelling is exercised).
    static func labels(for hosts: [String], policy: HostLabelPolicy) async throws -> [String?] {
        let metrics = TestMetrics()
        var settings = MetricsConfiguration(factory: metrics)
        settings.hostLabels = policy
        let monitor = MetricsMonitor(configuration: settings)
        let refusing = try RefusingPort()
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        let session = Session(configuration: configuration, eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }
        var labels: [String?] = []
        for host in hosts {
            metrics.reset()
            // Every host is 127.0.0.1 under another spelling, so nothing leaves the machine.
            let request = session.request("http://\(host):\(refusing.port)/")
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
            for: ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.1"], policy: .firstSeen(maximumDistinct: 2))
        #expect(labels == ["127.0.0.1", "127.0.0.2", "_OTHER", "127.0.0.1"])
    }

    @Test func anAllowListNamesOnlyItsHosts() async throws {
        let labels = try await Self.labels(for: ["127.0.0.1", "127.0.0.2"], policy: .allowList(["127.0.0.2"]))
        #expect(labels == ["_OTHER", "127.0.0.2"])
    }

    @Test func omittedHostsHaveNoDimension() async throws {
        let labels = try await Self.labels(for: ["127.0.0.1"], policy: .omitted)
        #expect(labels == [nil])
    }
}
