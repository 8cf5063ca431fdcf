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
    /// Requests measured per setting, after a warm-up.
    static let requests = 2_000

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
            Setting(name: "swift-log at debug", configure: { $0.logger = droppingLogger(.debug) }, monitors: [], tracesRequests: false),
            Setting(name: "swift-log at trace", configure: { $0.logger = droppingLogger(.trace) }, monitors: [], tracesRequests: false),
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

    /// Measures every setting and prints allocations and CPU per request, with the CPU beside
    /// the plain path's.
    /// - Throws: `SocketError` if the server cannot listen, `BenchError` or `WickError` if a request fails.
    static func run() throws {
        let server = try FixedResponseServer()
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        var plainCPU: Double?
        print("integration cost: \(requests) sequential GETs of 1 KiB per setting, async, keep-alive")
        for setting in settings {
            var configuration = Session.Configuration()
            configuration.maximumConnectionsPerHost = 1
            setting.configure(&configuration)
            let session = Session(configuration: configuration, eventMonitors: setting.monitors)
            defer { try? blocking { await session.shutdown() } }
            _ = try measure(session, url: url, count: 100, traced: setting.tracesRequests)
            let (allocations, cpu) = try measure(session, url: url, count: requests, traced: setting.tracesRequests)
            let perRequest = Double(allocations) / Double(requests)
            let cpuMicroseconds = Double(cpu) / Double(requests) / 1_000
            let relative = plainCPU.map { " (\($0 > 0 ? Format.fixed((cpuMicroseconds / $0 - 1) * 100, 1) : "?")% CPU)" } ?? ""
            if plainCPU == nil { plainCPU = cpuMicroseconds }
            print("  \(setting.name): \(Format.fixed(perRequest, 2)) allocations, \(Format.fixed(cpuMicroseconds, 1)) µs CPU per request\(relative)")
        }
    }

    /// Runs `count` sequential requests; returns the allocations and the process CPU nanoseconds.
    private static func measure(_ session: Session, url: String, count: Int, traced: Bool) throws -> (UInt64, UInt64) {
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        try blocking {
            for _ in 0..<count {
                let request =
                    traced ? session.request(url, interceptor: TracingInterceptor(tracer: NoOpTracer())) : session.request(url)
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
