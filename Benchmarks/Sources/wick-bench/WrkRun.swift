// One run of wrk, the C load generator used as the `requests` suite's ceiling.
import WickTestSupport

/// `wrk -t1 -cN -d1s --latency URL`, run once and parsed.
struct WrkRun {
    let requestsPerSecond: Double
    let p50Microseconds: Double
    let p99Microseconds: Double

    /// Runs wrk for one second with `connections` connections on one thread.
    /// - Throws: `TestSupportError` if wrk fails, `BenchError` if its report has no rate or latencies.
    init(url: String, connections: Int) throws {
        let output = try runCommand(
            RequestsBenchmark.wrk, ["-t1", "-c\(connections)", "-d1s", "--latency", url], timeout: .seconds(20))
        let lines = output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        func value(_ first: String) -> Substring? { lines.first { $0.first.map(String.init) == first }?.last }
        guard let rate = value("Requests/sec:").flatMap({ Double($0) }),
            let p50 = value("50%").flatMap(Self.microseconds), let p99 = value("99%").flatMap(Self.microseconds)
        else { throw BenchError("wrk: no rate or latency in \(output.prefix(400))") }
        guard !output.contains("Non-2xx") else { throw BenchError("wrk: non-2xx responses") }
        requestsPerSecond = rate
        p50Microseconds = p50
        p99Microseconds = p99
    }

    /// wrk's `153.00us`, `1.72ms` or `1.01s`, in microseconds.
    static func microseconds(_ text: Substring) -> Double? {
        for (suffix, scale) in [("us", 1.0), ("ms", 1_000.0), ("s", 1_000_000.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
