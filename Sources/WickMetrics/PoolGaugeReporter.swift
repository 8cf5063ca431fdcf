// The pools' gauges (idle, active, connecting, waiting per origin) sampled into swift-metrics.
import CoreMetrics
import Synchronization
public import Wick

/// Samples a session's connection pools (`Session.poolStatistics()`) into gauges:
/// `http.client.open_connections` by `http.connection.state` (`idle`, `active`: leased),
/// `wick.client.pool.connecting` and `wick.client.pool.waiting`, each per origin
/// (`wick.pool.origin`, `https://example.com:443`). Origins follow the configuration's host
/// policy; those past it are summed under `_OTHER`. An origin that emptied is reported once
/// at zero and then forgotten, so a dashboard never shows a stale value and memory stays
/// bounded.
public final class PoolGaugeReporter: Sendable {
    /// The settings it was made with.
    public let configuration: MetricsConfiguration
    private let session: Session
    private let hosts: HostLabeller
    /// The origin labels reported at the last sample, to zero those that emptied.
    private let reported = Mutex<Set<String>>([])

    /// A reporter for `session`'s pools, into `configuration.factory` (nil: the global one).
    public init(session: Session, configuration: MetricsConfiguration = MetricsConfiguration()) {
        self.session = session
        self.configuration = configuration
        hosts = HostLabeller(policy: configuration.hostLabels)
    }

    /// Samples the pools once and records the gauges.
    public func sample() async {
        record(await session.poolStatistics())
    }

    /// Samples every `interval` until the calling task is cancelled (run it in a task group,
    /// or as part of `SessionService`). Returns when cancelled; throws nothing.
    public func run(every interval: Duration = .seconds(10)) async {
        while !Task.isCancelled {
            await sample()
            try? await Task.sleep(for: interval)
        }
    }

    /// Records `statistics`, with origins labelled under the host policy.
    func record(_ statistics: ConnectionPoolStatistics) {
        var byLabel: [String: OriginGauges] = [:]
        for (origin, counts) in statistics.origins {
            let label = hosts.label(for: origin) ?? "all"
            byLabel[label, default: OriginGauges()].add(counts)
        }
        let emptied = reported.withLock { previous in
            let emptied = previous.subtracting(byLabel.keys)
            previous = Set(byLabel.keys)
            return emptied
        }
        for label in emptied { byLabel[label] = OriginGauges() }
        let factory = configuration.factory ?? MetricsSystem.factory
        for (label, gauges) in byLabel {
            let origin = [("wick.pool.origin", label)]
            Gauge(
                label: WickMetricName.openConnections, dimensions: origin + [("http.connection.state", "idle")],
                factory: factory
            )
            .record(gauges.idle)
            Gauge(
                label: WickMetricName.openConnections, dimensions: origin + [("http.connection.state", "active")],
                factory: factory
            )
            .record(gauges.active)
            Gauge(label: WickMetricName.connectingConnections, dimensions: origin, factory: factory)
                .record(gauges.connecting)
            Gauge(label: WickMetricName.waitingRequests, dimensions: origin, factory: factory)
                .record(gauges.waiting)
        }
    }
}

/// The gauges of one origin label: the sum of the origins the host policy put under it.
private struct OriginGauges {
    var idle = 0
    var active = 0
    var connecting = 0
    var waiting = 0

    /// Adds one origin's counts.
    mutating func add(_ counts: ConnectionPoolStatistics.Counts) {
        idle += counts.idle
        active += counts.leased
        connecting += counts.connecting
        waiting += counts.waiting
    }
}
