// One run of wrk, the C load generator: the `requests` suite's ceiling and the `load` suite's
// HTTP/1.1 peer.
import WickTestSupport

/// `wrk -t1 -cN -dSs --latency URL`, run once and parsed.
struct WrkRun {
    let requestsPerSecond: Double
    let p50Microseconds: Double
    let p99Microseconds: Double
    /// The requests wrk completed in its run.
    let requests: Int
    /// Whether wrk counted socket errors (connect, read, write or timeout).
    let hadSocketErrors: Bool
    /// wrk's CPU time (user + system), start-up included, in nanoseconds.
    let cpuNanoseconds: UInt64

    /// Runs wrk for `seconds` with `connections` connections on one thread.
    /// - Throws: `TestSupportError` if wrk fails, `BenchError` if its report has no rate, count
    ///   or latencies, or counts non-2xx responses.
    init(url: String, connections: Int, seconds: Int = 1) throws {
        let cpuBefore = waitedChildrenCPUNanoseconds()
        let output = try runCommand(
            RequestsBenchmark.wrk, ["-t1", "-c\(connections)", "-d\(seconds)s", "--latency", url],
            timeout: .seconds(seconds + 20))
        cpuNanoseconds = waitedChildrenCPUNanoseconds() - cpuBefore
        let lines = output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        func value(_ first: String) -> Substring? { lines.first { $0.first.map(String.init) == first }?.last }
        // "  52334 requests in 1.00s, 62.34MB read"
        let completed = lines.first { $0.count > 2 && $0[1] == "requests" && $0[2] == "in" }.flatMap { Int($0[0]) }
        guard let rate = value("Requests/sec:").flatMap({ Double($0) }), let completed,
            let p50 = value("50%").flatMap(Self.microseconds), let p99 = value("99%").flatMap(Self.microseconds)
        else { throw BenchError("wrk: no rate, count or latency in \(output.prefix(400))") }
        guard !output.contains("Non-2xx") else { throw BenchError("wrk: non-2xx responses") }
        requestsPerSecond = rate
        p50Microseconds = p50
        p99Microseconds = p99
        requests = completed
        hadSocketErrors = output.contains("Socket errors")
    }

    /// wrk's `153.00us`, `1.72ms` or `1.01s`, in microseconds.
    static func microseconds(_ text: Substring) -> Double? {
        for (suffix, scale) in [("us", 1.0), ("ms", 1_000.0), ("s", 1_000_000.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
