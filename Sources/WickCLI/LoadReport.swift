// What a `wick bench` run measured: throughput, latency percentiles, errors by kind, protocols,
// pool and CPU.
import FoundationEssentials

/// The figures of one `wick bench` run, and their text and JSON forms.
public struct LoadReport: Sendable {
    /// Requests that got a response (any status), and how long each took, in nanoseconds:
    /// from its intended start with `--rate`, else from its start.
    public var latencies: [UInt64] = []
    /// Requests that failed, by kind (`timedOut`, `connectionFailed(refused)`, ...).
    public var errors: [String: Int] = [:]
    /// Responses by status class (`2xx`, `4xx`, ...).
    public var statuses: [String: Int] = [:]
    /// Responses by the protocol their exchange ran over, from their metrics (`HTTP/1.1`,
    /// `HTTP/2`).
    public var protocols: [String: Int] = [:]
    /// The run's wall time.
    public var elapsed: Duration = .zero
    /// The process's CPU time (user and system) during the run, in nanoseconds.
    public var cpuNanoseconds: UInt64 = 0
    /// The pool's connections created.
    public var connectionsCreated = 0
    /// The pool's leases that reused a connection.
    public var connectionsReused = 0
    /// Response body bytes received.
    public var bodyBytes = 0

    /// An empty report.
    public init() {}

    /// Every request sent: answered or failed.
    public var requests: Int { latencies.count + errors.values.reduce(0, +) }

    /// Requests per second over the run.
    public var throughput: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return seconds > 0 ? Double(requests) / seconds : 0
    }

    /// The latency below which `fraction` of the answered requests fall, in microseconds
    /// (nearest rank on the sorted latencies); nil when none was answered.
    public func percentile(_ fraction: Double, sorted: [UInt64]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1_000
    }

    /// The percentiles reported: p50, p90, p99, p99.9, max.
    static let fractions: [(name: String, value: Double)] = [
        ("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999), ("max", 1),
    ]

    /// The report as text for people.
    public func text(url: String, options: LoadOptions) -> String {
        let sorted = latencies.sorted()
        var lines: [String] = []
        let model =
            options.rate.map { "open model at \(Self.number($0)) /s (latency from each request's intended start)" }
            ?? "closed model (each of the \(options.concurrency) sends when its last answer came)"
        lines.append("wick bench \(url): \(requests) requests, \(options.concurrency) in flight, \(model)")
        lines.append("  throughput  \(Self.number(throughput)) requests/s over \(Self.seconds(elapsed)) s")
        let percentiles = Self.fractions.compactMap { name, value in
            percentile(value, sorted: sorted).map { "\(name) \(Self.number($0))" }
        }
        lines.append("  latency µs  " + (percentiles.isEmpty ? "none answered" : percentiles.joined(separator: "  ")))
        lines.append("  statuses    " + Self.counts(statuses))
        lines.append("  protocols   " + (protocols.isEmpty ? "none answered" : Self.counts(protocols)))
        lines.append("  errors      " + (errors.isEmpty ? "none" : Self.counts(errors)))
        let perRequest = requests > 0 ? Double(cpuNanoseconds) / Double(requests) / 1_000 : 0
        lines.append("  client CPU  \(Self.number(perRequest)) µs per request (user + system, the whole process)")
        lines.append(
            "  connections \(connectionsCreated) opened (at most \(options.connectionLimit)), "
                + "\(connectionsReused) leases reused one")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as one JSON object.
    public func json(url: String, options: LoadOptions) -> String {
        let sorted = latencies.sorted()
        var fields: [String] = [
            "\"url\":\(WriteOutValue.quoted(url))", "\"requests\":\(requests)",
            "\"concurrency\":\(options.concurrency)",
            "\"rate\":\(options.rate.map { Self.number($0) } ?? "null")", "\"seconds\":\(Self.seconds(elapsed))",
            "\"throughput\":\(Self.number(throughput))", "\"body_bytes\":\(bodyBytes)",
        ]
        let latencyFields = Self.fractions.compactMap { name, value in
            percentile(value, sorted: sorted).map { "\(WriteOutValue.quoted(name)):\(Self.number($0))" }
        }
        fields.append("\"latency_us\":{\(latencyFields.joined(separator: ","))}")
        fields.append("\"statuses\":\(Self.jsonCounts(statuses))")
        fields.append("\"protocols\":\(Self.jsonCounts(protocols))")
        fields.append("\"errors\":\(Self.jsonCounts(errors))")
        let perRequest = requests > 0 ? Double(cpuNanoseconds) / Double(requests) / 1_000 : 0
        fields.append("\"cpu_us_per_request\":\(Self.number(perRequest))")
        fields.append("\"connections_created\":\(connectionsCreated)")
        fields.append("\"connections_limit\":\(options.connectionLimit)")
        fields.append("\"connections_reused\":\(connectionsReused)")
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    private static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    private static func jsonCounts(_ counts: [String: Int]) -> String {
        "{"
            + counts.sorted { $0.key < $1.key }.map { "\(WriteOutValue.quoted($0.key)):\($0.value)" }.joined(
                separator: ",") + "}"
    }

    /// A number with at most one decimal.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    private static func seconds(_ duration: Duration) -> String {
        number(Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18)
    }
}
