// One run of `wick bench` (the `wick` command's load generator, on Session) for the `load`
// suite, its JSON report checked.
import Foundation
import WickTestSupport

/// `wick bench -c IN_FLIGHT -d SECONDS --json [ARGUMENTS...] URL`, run once as a process of its
/// own, like wrk and h2load. Its report is checked: every request was answered with a 2xx over
/// the expected protocol, with bodies of the expected size, on the expected number of
/// connections.
struct WickBenchRun {
    /// Requests per second over the run, as `wick bench` reports it.
    let requestsPerSecond: Double
    /// The requests sent (each answered).
    let requests: Int
    let p50Microseconds: Double
    let p99Microseconds: Double
    /// The connections its pool opened.
    let connectionsOpened: Int
    /// The process's CPU time (user + system), start-up included, in nanoseconds.
    let cpuNanoseconds: UInt64

    /// Runs `executable bench` for `seconds` with `inFlight` requests at once.
    /// - Throws: `TestSupportError` if it cannot run, `BenchError` if it exits non-zero (a
    ///   request failed), its report does not parse, a response was not a 2xx, came over
    ///   another protocol than `expectedProtocol` (`HTTP/1.1`, `HTTP/2`), had a body of another
    ///   size than `bodyBytes`, or the pool opened other than `expectedConnections`.
    init(
        executable: String, url: String, inFlight: Int, seconds: Int, arguments: [String], expectedProtocol: String,
        bodyBytes: Int, expectedConnections: Int
    ) throws {
        let command = ["bench", "-c", String(inFlight), "-d", "\(seconds)s", "--json"] + arguments + [url]
        let cpuBefore = waitedChildrenCPUNanoseconds()
        let (output, status) = try runCommandCapturingStatus(
            executable, command, discardingStandardError: true, timeout: .seconds(seconds + 30))
        cpuNanoseconds = waitedChildrenCPUNanoseconds() - cpuBefore
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0 else { throw BenchError("wick bench exited \(status): \(text.prefix(600))") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let report = try? decoder.decode(Report.self, from: Data(output)), report.requests > 0,
            let p50 = report.latencyUs["p50"], let p99 = report.latencyUs["p99"]
        else { throw BenchError("wick bench: a report without its figures: \(text.prefix(600))") }
        let requests = report.requests
        guard report.errors.isEmpty, report.statuses == ["2xx": requests] else {
            throw BenchError("wick bench: not every request was answered with a 2xx: \(text.prefix(600))")
        }
        guard report.protocols == [expectedProtocol: requests] else {
            throw BenchError("wick bench: not every response came over \(expectedProtocol): \(text.prefix(600))")
        }
        guard report.bodyBytes == requests * bodyBytes else {
            throw BenchError("wick bench: \(report.bodyBytes) body bytes for \(requests) bodies of \(bodyBytes)")
        }
        guard report.connectionsCreated == expectedConnections else {
            throw BenchError("wick bench: \(report.connectionsCreated) connections opened, not \(expectedConnections)")
        }
        requestsPerSecond = report.throughput
        self.requests = requests
        p50Microseconds = p50
        p99Microseconds = p99
        connectionsOpened = report.connectionsCreated
    }

    /// The fields of `wick bench --json` that are checked and reported.
    private struct Report: Decodable {
        let requests: Int
        let throughput: Double
        let latencyUs: [String: Double]
        let statuses: [String: Int]
        let protocols: [String: Int]
        let errors: [String: Int]
        let bodyBytes: Int
        let connectionsCreated: Int
    }
}
