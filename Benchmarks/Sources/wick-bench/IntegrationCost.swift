// What each integration costs a request, enabled and disabled: allocations and CPU per request.
import CoreMetrics
import Logging
import Tracing
import Wick
import WickMetrics
import WickTracing

/// Sequential keep-alive GETs through a `Session` against the in-process server, once per
/// integration setting: the plain path (logging off, the default), swift-log at `debug` and at
/// `trace` into a handler that drops every line, `MetricsMonitor` into swift-metrics' no-op
/// factory, tracing (`TracingInterceptor` and `TracingMonitor`) with the no-op tracer, and
/// metrics and tracing together. The backends are no-ops on purpose: the figures are Wick's own
/// cost of producing the data, not a particular exporter's.
enum IntegrationCost {
    /// Requests measured per setting (over all rounds), after a warm-up.
    static let requests = 10_500

    /// One setting: how the session is made and what each request is given.
    struct Setting {
        let name: String
        let configure: (inout Session.Configuration) -> Void
        let monitors: [any EventMonitor]
        let tracesRequests: Bool
    }

    /// The settings measured, the plain path first.
    static var settings: [Setting] {
        [
            Setting(name: "plain (logging off)", configure: { _ in }, monitors: [], tracesRequests: false),
            Setting(
                name: "swift-log at debug", configure: { $0.logger = droppingLogger(.debug) }, monitors: [],
                tracesRequests: false),
            Setting(
                name: "swift-log at trace", configure: { $0.logger = droppingLogger(.trace) }, monitors: [],
                tracesRequests: false),
            Setting(
                name: "metrics", configure: { _ in },
                monitors: [MetricsMonitor(configuration: MetricsConfiguration(factory: NOOPMetricsHandler.instance))],
                tracesRequests: false),
            Setting(name: "tracing", configure: { _ in }, monitors: [TracingMonitor()], tracesRequests: true),
            Setting(
                name: "metrics + tracing", configure: { _ in },
                monitors: [
                    MetricsMonitor(configuration: MetricsConfiguration(factory: NOOPMetricsHandler.instance)),
                    TracingMonitor(),
                ],
                tracesRequests: true),
        ]
    }

    /// A logger at `level` whose handler drops every line after swift-log built it.
    static func droppingLogger(_ level: Logger.Level) -> Logger {
        var logger = Logger(label: "bench", factory: { _ in DroppingLogHandler() })
        logger.logLevel = level
        return logger
    }

    /// Rounds over the settings. Two figures come from them: each setting's best round (on a
    /// shared machine other work only ever adds to a round), and the median over rounds of its
    /// CPU against the plain path's in the same round (the settings run one after another, so
    /// a round's load burst hits a pair alike, and the median drops the rounds it did not).
    static let rounds = 21

    /// Measures every setting and prints allocations and CPU per request, with the CPU beside
    /// the plain path's. The settings take turns, round after round, so a burst of load on the
    /// machine hits them all alike.
    /// - Throws: `SocketError` if the server cannot listen, `BenchError` or `WickError` if a request fails.
    static func run() throws {
        let perRound = requests / rounds
        print(
            "integration cost: \(rounds) rounds of \(perRound) sequential GETs of 1 KiB per setting, async, keep-alive")
        let (sessions, servers) = try warmSessions()
        let opened = sessions.map(\.1)
        defer { try? blocking { for session in opened { await session.shutdown() } } }
        var cpuByRound = [[UInt64]](repeating: [], count: sessions.count)
        var allocations = [UInt64](repeating: 0, count: sessions.count)
        for _ in 0..<rounds {
            for (index, (setting, session, url)) in sessions.enumerated() {
                let (allocated, cpu) = try measure(session, url: url, count: perRound, traced: setting.tracesRequests)
                cpuByRound[index].append(cpu)
                allocations[index] = allocated
            }
        }
        withExtendedLifetime(servers) {}
        let plainCPU = Double(cpuByRound[0].min() ?? 0) / Double(perRound) / 1_000
        for (index, (setting, _, _)) in sessions.enumerated() {
            let perRequest = Double(allocations[index]) / Double(perRound)
            let cpuMicroseconds = Double(cpuByRound[index].min() ?? 0) / Double(perRound) / 1_000
            var relative = ""
            if index > 0 {
                let paired = median(zip(cpuByRound[index], cpuByRound[0]).map { Double($0) / Double($1) })
                relative =
                    " (best rounds \(Format.fixed((cpuMicroseconds / plainCPU - 1) * 100, 1))%,"
                    + " median of paired rounds \(Format.fixed((paired - 1) * 100, 1))% CPU)"
            }
            print(
                "  \(setting.name): \(Format.fixed(perRequest, 2)) allocations, best round \(Format.fixed(cpuMicroseconds, 1)) µs CPU per request\(relative)"
            )
        }
        guard InstructionCounter.isAvailable, let counts = InstructionCounter.measure(suite: "integrations") else {
            return print("  (no instruction counts: valgrind or objcopy missing, or callgrind failed)")
        }
        print(
            "user-space instructions per request under callgrind (\(probedRequests) requests per setting; repeatable):")
        let plain = counts[probeName(0)] ?? .nan
        for (index, setting) in settings.enumerated() {
            let count = counts[probeName(index)] ?? .nan
            let relative = index == 0 ? "" : " (+\(Format.fixed((count / plain - 1) * 100, 1))%)"
            print("  \(setting.name): \(Format.grouped(Int(count.isNaN ? 0 : count)))\(relative)")
        }
    }

    /// Each setting's session, on a server of its own (each answers one connection), after 100
    /// requests of warm-up.
    private static func warmSessions() throws -> ([(Setting, Session, String)], [FixedResponseServer]) {
        var sessions: [(Setting, Session, String)] = []
        var servers: [FixedResponseServer] = []
        for setting in settings {
            let server = try FixedResponseServer()
            servers.append(server)
            var configuration = Session.Configuration()
            configuration.maximumConnectionsPerHost = 1
            setting.configure(&configuration)
            let session = Session(configuration: configuration, eventMonitors: setting.monitors)
            let url = "http://127.0.0.1:\(server.port)/bytes/1k"
            _ = try measure(session, url: url, count: 100, traced: setting.tracesRequests)
            sessions.append((setting, session, url))
        }
        return (sessions, servers)
    }

    /// Requests per setting under callgrind.
    static let probedRequests = 300

    /// The callgrind probe's name for the setting at `index`.
    private static func probeName(_ index: Int) -> String { "integrations.\(index)" }

    /// The callgrind probe's workloads (`wick-bench callgrind-probe integrations`): each setting's
    /// sequential requests on its warmed session (the sessions and servers live until exit).
    /// - Throws: as `run`.
    static func probeWorkloads() throws -> [Workload] {
        let (sessions, servers) = try warmSessions()
        // Under callgrind the first workload measured also paid one-time costs (380k
        // instructions per request for the plain path, measured first, against 120-160k for
        // the others): a workload of every session's requests goes first, and is not read.
        let warmUp = Workload(name: "integrations.warm-up") { count in
            for (setting, session, url) in sessions {
                _ = try? measure(session, url: url, count: count, traced: setting.tracesRequests)
            }
            return count
        }
        return [warmUp]
            + sessions.enumerated().map { index, entry in
                let (setting, session, url) = entry
                return Workload(name: probeName(index)) { count in
                    withExtendedLifetime(servers) {
                        (try? measure(session, url: url, count: count, traced: setting.tracesRequests)).map { _ in count
                        } ?? 0
                    }
                }
            }
    }

    /// Runs `count` sequential requests; returns the allocations and the process CPU nanoseconds.
    static func measure(_ session: Session, url: String, count: Int, traced: Bool) throws -> (UInt64, UInt64) {
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        try blocking {
            for _ in 0..<count {
                let request =
                    traced
                    ? session.request(url, interceptor: TracingInterceptor(tracer: NoOpTracer())) : session.request(url)
                let data = try await request.serializingData().value
                guard data.count == 1_024 else { throw BenchError("Wick GET: \(data.count) body bytes") }
            }
        }
        return (AllocationCounter.allocations - allocations, processCPUNanoseconds() - cpu)
    }
}

/// A log handler that drops every line: what remains is the cost of producing it.
struct DroppingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Drops the line.
    func log(event: LogEvent) {}
}
