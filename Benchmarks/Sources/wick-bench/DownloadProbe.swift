import CBenchSupport
// A quick A/B probe for the download path: 10 MiB through `serializingData()`, `streamingData()`
// and libcurl against one local nginx, alternating, with medians. For development, not a table.
import Foundation
import Wick
import WickTestSupport

/// `wick-bench profile-downloads [ROUNDS] [PER-ROUND] [CLIENT]`: prints, per client, the median MiB/s,
/// CPU per download and allocations per download over the rounds.
enum DownloadProbe {
    static func run(rounds: Int, perRound: Int, only: String? = nil) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wick-bench-downloads-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx else { throw BenchError("nginx did not start") }
        let large = "http://127.0.0.1:\(nginx.httpPort)/bytes/10m"
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            _ = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0)
            _ = bench_pin_current_thread(1)
        }
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.maximumResponseBodyBytes = 16 << 20
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let curl = try CurlClient(
            .init(
                url: large, caFile: "", tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false,
                bodyBytes: RequestsBenchmark.downloadBytes))
        if FileManager.default.isExecutableFile(atPath: NginxProcesses.taskset) {
            try runCommand(NginxProcesses.taskset, ["-a", "-p", "-c", "1", String(getpid())])
        }
        let urlSession = URLSessionClient(maximumConnections: 1)
        let largeURL = URL(string: large)!
        let all: [(String, (Int) throws -> RequestsBenchmark.Round)] = [
            ("serializingData", { try RequestsBenchmark.wickDownload(session, url: large, count: $0) }),
            (
                "URLSession",
                { count in
                    try RequestsBenchmark.timed(count: count, latencies: false) { _ in _ = try urlSession.get(largeURL)
                    }
                }
            ),
            (
                "libcurl",
                { count in
                    try RequestsBenchmark.timed(count: count, latencies: false) { _ in _ = try curl.get() }
                }
            ),
            ("streamingData", { try RequestsBenchmark.wickStreamDownload(session, url: large, count: $0) }),
        ]
        // `only` keeps one client (and libcurl, the reference), for a profiler.
        let clients = all.filter {
            (only == nil && $0.0 != "URLSession") || only == "all" || $0.0 == only || $0.0 == "libcurl"
        }
        for (_, client) in clients { _ = try client(2) }
        var results = [[RequestsBenchmark.Round]](repeating: [], count: clients.count)
        for round in 0..<rounds {
            for index in rotatedOrder(of: clients.count, round: round) {
                results[index].append(try clients[index].1(perRound))
            }
        }
        let mebibytes = Double(RequestsBenchmark.downloadBytes * perRound) / 1_048_576
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let curlIndex = clients.firstIndex { $0.0 == "libcurl" }!
        let curlRates = results[curlIndex].map { mebibytes / (Double($0.wallNanoseconds) / 1e9) }
        for (index, (name, _)) in clients.enumerated() {
            let rates = results[index].map { mebibytes / (Double($0.wallNanoseconds) / 1e9) }
            let ratios = zip(rates, curlRates).map { $0 / $1 }
            let cpu = median(results[index].map { Double($0.cpuNanoseconds) / Double(perRound) / 1e6 })
            let allocations = median(results[index].map { Double($0.allocations) / Double(perRound) })
            print(
                "\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%7.0f", median(rates))) MiB/s"
                    + "  ×libcurl \(String(format: "%.2f", median(ratios)))  CPU \(String(format: "%.2f", cpu)) ms"
                    + "  allocs \(String(format: "%.0f", allocations))  heap \(results[index].map(\.heapBytes).max()! >> 10) KiB"
            )
        }
    }
}

extension DownloadProbe {
    /// `wick-bench profile-download-h2c COUNT URL`: `count` sequential 10 MiB downloads over
    /// HTTP/2 (`.http2Only`; an https URL is verified against `$WICK_PKI_DIR/root.pem`, the test
    /// servers' root), after one warm-up; prints MiB/s, CPU and allocations per download.
    static func runHTTP2(count: Int, url: String) throws {
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.maximumResponseBodyBytes = 16 << 20
        configuration.httpVersion = .http2Only
        if let pki = ProcessInfo.processInfo.environment["WICK_PKI_DIR"] {
            let pem = try String(contentsOfFile: pki + "/root.pem", encoding: .utf8)
            configuration.trustRoots = .certificates(try Certificate.chain(pemEncoded: pem))
        }
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        _ = try RequestsBenchmark.wickDownload(session, url: url, count: 1, httpVersion: .http2)
        let round = try RequestsBenchmark.wickDownload(session, url: url, count: count, httpVersion: .http2)
        let seconds = Double(round.wallNanoseconds) / 1e9
        print(
            "profile-download-h2c: \(count) downloads, "
                + "\(Format.fixed(Double(count * RequestsBenchmark.downloadBytes) / Double(1 << 20) / seconds, 1)) MiB/s, "
                + "\(round.cpuNanoseconds / UInt64(count) / 1_000) µs CPU and "
                + "\(Double(round.allocations) / Double(count)) allocations per download")
    }
}
