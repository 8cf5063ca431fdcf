// One run of h2load (nghttp2's HTTP/2 load generator): the `http2` suite's ceiling and the
// `load` suite's HTTP/2 peer.
import WickTestSupport

/// `h2load -D SECONDS [--warm-up-time 200ms] -c1 -m STREAMS -t1 URL`, run once and parsed: one
/// connection; with the warm-up, its handshakes and first 200 ms are left out of the rate, as
/// the `http2` suite's clients have their connections open before their rounds. Its own report
/// is checked: every request succeeded with a 2xx, the protocol was `h2`, and the DATA bytes
/// are whole bodies.
struct H2LoadRun {
    /// Debian's h2load (package nghttp2-client).
    static let executable = "/usr/bin/h2load"

    /// Requests per second over the measured time, as h2load reports it.
    let requestsPerSecond: Double
    /// The requests that succeeded in the measured time.
    let requests: Int
    /// h2load's CPU time (user + system), start-up and warm-up included, in nanoseconds.
    let cpuNanoseconds: UInt64

    /// Runs GETs of `url` for `seconds` (after 200 ms not counted, with `warmUp`) over one
    /// connection with up to `streams` in flight, on one thread.
    /// - Throws: `TestSupportError` if h2load fails, `BenchError` if its report lacks the rate,
    ///   a request failed or was not a 2xx, the protocol was not `h2`, or the DATA bytes are not
    ///   a whole number of `bodyBytes` bodies, at least one per counted request.
    init(url: String, streams: Int, bodyBytes: Int, seconds: Int = 1, warmUp: Bool = true) throws {
        let cpuBefore = waitedChildrenCPUNanoseconds()
        let output = try runCommand(
            Self.executable,
            ["-D", String(seconds)] + (warmUp ? ["--warm-up-time", "200ms"] : [])
                + ["-c1", "-m", String(streams), "-t1", url], timeout: .seconds(seconds + 30))
        cpuNanoseconds = waitedChildrenCPUNanoseconds() - cpuBefore
        let lines = output.split(separator: "\n").map { $0.drop { $0 == " " } }
        func line(_ prefix: String) -> Substring? { lines.first { $0.hasPrefix(prefix) } }
        func words(_ prefix: String) -> [Substring] { line(prefix)?.split(separator: " ") ?? [] }
        func number(_ words: [Substring], before label: Substring) -> Int? {
            words.firstIndex(of: label).flatMap { $0 > 0 ? Int(words[$0 - 1]) : nil }
        }
        // "finished in 1.20s, 27624.00 req/s, 30.58MB/s"
        let finished = words("finished in")
        guard let index = finished.firstIndex(of: "req/s,"), index > 0, let rate = Double(finished[index - 1]) else {
            throw BenchError("h2load: no rate in \(output.suffix(900))")
        }
        // "requests: 27624 total, 27624 started, 27624 done, 27624 succeeded, 0 failed, 0 errored, 0 timeout"
        let requests = words("requests:")
        // "status codes: 27624 2xx, 0 3xx, 0 4xx, 0 5xx"
        let statuses = words("status codes:")
        guard let succeeded = number(requests, before: "succeeded,"), succeeded > 0,
            number(requests, before: "failed,") == 0, number(requests, before: "errored,") == 0,
            number(statuses, before: "2xx,") == succeeded
        else { throw BenchError("h2load: not every request succeeded with a 2xx: \(output.suffix(900))") }
        guard line("Application protocol:") == "Application protocol: h2" else {
            throw BenchError("h2load: not over h2: \(output.suffix(900))")
        }
        // "traffic: 30.58MB (32068471) total, 3.39MB (3556961) headers (space savings 38.43%),
        // 29.23MB (30653440) data" (the warm-up's bytes included, its requests not).
        let traffic = words("traffic:")
        guard let dataIndex = traffic.lastIndex(of: "data"), dataIndex > 0,
            let data = Int(traffic[dataIndex - 1].dropFirst().dropLast()),
            data % bodyBytes == 0, data >= succeeded * bodyBytes
        else {
            throw BenchError("h2load: the DATA bytes are not whole \(bodyBytes)-byte bodies: \(output.suffix(900))")
        }
        requestsPerSecond = rate
        self.requests = succeeded
    }
}
