// The `load` suite: `wick bench` (the `wick` command's load generator, on Session) beside wrk
// over HTTP/1.1 and h2load over HTTP/2 with TLS, against one local nginx, with the same
// concurrency and duration, each tool a process of its own, in alternation.
import CBenchSupport
import Foundation
import WickTestSupport

/// Starts nginx (`TestServers`), pins it to CPU 0 and every load generator to CPU 1, and runs
/// each workload's two load generators in alternating rounds (the order swapped every round).
struct LoadBenchmark {
    /// Rounds per workload; medians are reported.
    var rounds = 5
    /// How long each load generator runs per round, in seconds.
    var seconds = 2
    /// The `wick` executable built in release.
    let wickExecutable: String

    /// The peer a workload is measured beside.
    private enum Peer {
        case wrk(connections: Int)
        case h2load(streams: Int)
    }

    /// One row: `wick bench` with `arguments` and `inFlight` requests at once, and its peer.
    private struct LoadCase {
        let name: String
        let url: String
        let inFlight: Int
        let arguments: [String]
        let expectedProtocol: String
        let expectedConnections: Int
        let peer: Peer
    }

    /// What one run of either tool measured.
    private struct Figures {
        let requestsPerSecond: Double
        let requests: Int
        let cpuNanoseconds: UInt64
        let p50Microseconds: Double?
        let p99Microseconds: Double?
        /// nginx's worker CPU time during the run ÷ the run's wall time (1: a whole core).
        var nginxBusy = 0.0
    }

    /// Runs the suite.
    /// - Throws: `BenchError` when nginx does not start or a run's report fails its checks
    ///   (`WickBenchRun`, `WrkRun`, `H2LoadRun`); `TestSupportError` when a tool cannot run.
    func run() throws -> ResultTable {
        guard FileManager.default.isExecutableFile(atPath: wickExecutable) else {
            throw BenchError("no wick executable at \(wickExecutable) (Scripts/bench load builds it)")
        }
        guard FileManager.default.isExecutableFile(atPath: RequestsBenchmark.wrk),
            FileManager.default.isExecutableFile(atPath: H2LoadRun.executable)
        else { throw BenchError("the load suite needs wrk and h2load (Scripts/bench load installs them)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-load-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw BenchError("nginx did not start") }
        let pinning = try pin(nginx: nginx.process.pid)

        let plain = "http://127.0.0.1:\(nginx.httpPort)/bytes/1k"
        let tls = "https://127.0.0.1:\(nginx.http2Port)/bytes/1k"
        let cases = [
            LoadCase(
                name: "HTTP/1.1, 1 connection, GET 1 KiB", url: plain, inFlight: 1, arguments: [],
                expectedProtocol: "HTTP/1.1", expectedConnections: 1, peer: .wrk(connections: 1)),
            LoadCase(
                name: "HTTP/1.1, 64 connections, GET 1 KiB", url: plain, inFlight: 64, arguments: [],
                expectedProtocol: "HTTP/1.1", expectedConnections: 64, peer: .wrk(connections: 64)),
            LoadCase(
                name: "HTTP/2 over TLS 1.3, 64 streams on 1 connection, GET 1 KiB", url: tls, inFlight: 64,
                arguments: ["--http2", "--cacert", pki.root.certificate.path], expectedProtocol: "HTTP/2",
                expectedConnections: 1, peer: .h2load(streams: 64)),
        ]

        // Warm-up: nginx's worker, its file cache and the page cache, not timed.
        for loadCase in cases {
            _ = try wickBench(loadCase, seconds: 1)
            _ = try peer(loadCase, seconds: 1)
        }
        let workers = Array(NginxProcesses.processes(master: nginx.process.pid).dropFirst())
        var wick = [[Figures]](repeating: [], count: cases.count)
        var peers = [[Figures]](repeating: [], count: cases.count)
        for round in 0..<rounds {
            for (index, loadCase) in cases.enumerated() {
                let wickRun = { try Self.measure(workers) { try wickBench(loadCase, seconds: seconds) } }
                let peerRun = { try Self.measure(workers) { try peer(loadCase, seconds: seconds) } }
                if round % 2 == 0 {
                    wick[index].append(try wickRun())
                    peers[index].append(try peerRun())
                } else {
                    peers[index].append(try peerRun())
                    wick[index].append(try wickRun())
                }
            }
        }

        var table = ResultTable(
            suite: "load",
            title:
                "`wick bench` beside wrk and h2load against a local nginx, same concurrency and duration (higher is better)",
            columns: [
                "workload", "peer", "wick bench req/s", "peer req/s", "wick bench ÷ peer",
                "latency p50 / p99 µs, wick bench", "latency p50 / p99 µs, peer",
                "client CPU µs per request (wick bench / peer)", "nginx worker busy (wick bench / peer)",
            ])
        for (index, loadCase) in cases.enumerated() {
            table.rows.append(row(loadCase, wick: wick[index], peer: peers[index]))
        }
        table.notes = notes(pinning: pinning)
        return table
    }

    /// `run`'s figures with how busy nginx's `workers` were meanwhile.
    private static func measure(_ workers: [Int32], _ run: () throws -> Figures) rethrows -> Figures {
        func workerCPU() -> UInt64 { workers.compactMap(NginxProcesses.cpuNanoseconds).reduce(0, +) }
        let cpuBefore = workerCPU()
        let start = monotonicNanoseconds()
        var figures = try run()
        figures.nginxBusy = Double(workerCPU() - cpuBefore) / Double(monotonicNanoseconds() - start)
        return figures
    }

    /// One `wick bench` run of `loadCase`.
    private func wickBench(_ loadCase: LoadCase, seconds: Int) throws -> Figures {
        let run = try WickBenchRun(
            executable: wickExecutable, url: loadCase.url, inFlight: loadCase.inFlight, seconds: seconds,
            arguments: loadCase.arguments, expectedProtocol: loadCase.expectedProtocol, bodyBytes: 1_024,
            expectedConnections: loadCase.expectedConnections)
        return Figures(
            requestsPerSecond: run.requestsPerSecond, requests: run.requests, cpuNanoseconds: run.cpuNanoseconds,
            p50Microseconds: run.p50Microseconds, p99Microseconds: run.p99Microseconds)
    }

    /// One run of `loadCase`'s peer.
    /// - Throws: `BenchError` also when wrk counted socket errors.
    private func peer(_ loadCase: LoadCase, seconds: Int) throws -> Figures {
        switch loadCase.peer {
        case .wrk(let connections):
            let run = try WrkRun(url: loadCase.url, connections: connections, seconds: seconds)
            guard !run.hadSocketErrors else { throw BenchError("wrk: socket errors against \(loadCase.url)") }
            return Figures(
                requestsPerSecond: run.requestsPerSecond, requests: run.requests, cpuNanoseconds: run.cpuNanoseconds,
                p50Microseconds: run.p50Microseconds, p99Microseconds: run.p99Microseconds)
        case .h2load(let streams):
            let run = try H2LoadRun(
                url: loadCase.url, streams: streams, bodyBytes: 1_024, seconds: seconds, warmUp: false)
            return Figures(
                requestsPerSecond: run.requestsPerSecond, requests: run.requests, cpuNanoseconds: run.cpuNanoseconds,
                p50Microseconds: nil, p99Microseconds: nil)
        }
    }

    /// A row: medians of the rates, the latencies and the CPU per request, and the median of
    /// the per-round ratios.
    private func row(_ loadCase: LoadCase, wick: [Figures], peer: [Figures]) -> [String] {
        let peerName: String
        switch loadCase.peer {
        case .wrk(let connections): peerName = "wrk -t1 -c\(connections)"
        case .h2load(let streams): peerName = "h2load -t1 -c1 -m\(streams)"
        }
        func rate(_ runs: [Figures]) -> String { Format.grouped(Int(median(runs.map(\.requestsPerSecond)))) }
        func latencies(_ runs: [Figures]) -> String {
            let p50 = runs.compactMap(\.p50Microseconds)
            let p99 = runs.compactMap(\.p99Microseconds)
            guard !p50.isEmpty, !p99.isEmpty else { return "—" }
            return "\(Format.grouped(Int(median(p50)))) / \(Format.grouped(Int(median(p99))))"
        }
        func cpu(_ runs: [Figures]) -> String {
            Format.fixed(median(runs.map { Double($0.cpuNanoseconds) / Double($0.requests) / 1_000 }), 1)
        }
        func busy(_ runs: [Figures]) -> String { "\(Int((median(runs.map(\.nginxBusy)) * 100).rounded()))%" }
        let ratio = median(zip(wick, peer).map { $0.requestsPerSecond / $1.requestsPerSecond })
        return [
            loadCase.name, peerName, rate(wick), rate(peer), Format.ratio(ratio), latencies(wick), latencies(peer),
            "\(cpu(wick)) / \(cpu(peer))", "\(busy(wick)) / \(busy(peer))",
        ]
    }

    /// Pins nginx's processes to CPU 0 and this process, with the load generators it starts, to
    /// CPU 1, when there are two CPUs and taskset; returns how, for the notes.
    private func pin(nginx pid: Int32) throws -> String {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return "not pinned (one CPU)" }
        guard let pids = try NginxProcesses.pin(master: pid, cpu: 0) else { return "not pinned (no taskset)" }
        _ = bench_pin_current_thread(1)
        try runCommand(NginxProcesses.taskset, ["-a", "-p", "-c", "1", String(getpid())])
        return
            "nginx's \(pids.count) processes (master and worker) pinned to CPU 0, wick-bench and so every load generator it starts to CPU 1 (`taskset`)"
    }

    private func notes(pinning: String) -> [String] {
        [
            "nginx 1.22 (one worker, `/bytes/1k` from a file, an access-log line per request) from `TestServers`: its plain HTTP/1.1 listener, and its HTTP/2 listener over TLS (the test PKI's certificate, ALPN `h2` then `http/1.1`, 128 streams per connection), started and stopped by the suite; \(pinning). The two CPUs are the whole machine. \"nginx worker busy\" is its worker's CPU time during a run (`/proc/PID/schedstat`) ÷ the run's wall time, start-up included, median over the rounds: near 100% nginx was the limit of that run, lower the client (or the round trip) was. The client CPU per request is the figure that tells the tools' own costs apart.",
            "Each tool runs as a process of its own for \(seconds) s per round with the same concurrency; \(rounds) rounds after a 1 s warm-up run of each, the order of the pair swapped every round. Rates are each tool's own report (`wick bench`: requests ÷ its run's wall time; wrk: Requests/sec; h2load: req/s), medians over the rounds; the ratio is the median of the per-round ratios (above 1: `wick bench` is faster). Every tool's rate includes connecting (h2load runs without `--warm-up-time`). Latencies: `wick bench`'s nearest-rank p50 and p99 over every request, wrk's `--latency` percentiles; h2load prints no percentiles. Client CPU is the tool's process's user + system time from `getrusage(RUSAGE_CHILDREN)` around its run, start-up included, divided by its requests. The machine is shared and noisy: the ratios, not the rates, are the figures to quote.",
            "`wick bench -c N -d \(seconds)s --json` (the `wick` executable built in release by `Scripts/bench load`): N tasks on one `Session` with `Session.Configuration`'s defaults (its header fields: `Accept-Encoding`, `Accept-Language`, `User-Agent`; response decoding on), the pool capped at N connections, no cookie store; with `--http2 --cacert ROOT` it offers ALPN `h2` and verifies nginx's certificate against the test root. Its report is checked every run: no error, every response a 2xx with a 1,024-byte body over the row's protocol (from each response's metrics), and the connections the pool opened exactly 1, 64 or 1.",
            "wrk \(wrkVersion) (`-t1 -cN -d\(seconds)s --latency`, its minimal request with only `Host`): no non-2xx response and no socket error. h2load \(nghttp2Version) (`-t1 -c1 -m64 -D \(seconds)`, nghttp2's C load generator, which does not verify the server's certificate): every request succeeded with a 2xx, `Application protocol: h2`, DATA bytes a whole number of 1,024-byte bodies.",
        ]
    }

    /// wrk's version (`4.1.0`), or "?" when it does not say.
    private var wrkVersion: String {
        let output = (try? runCommandCapturingStatus(RequestsBenchmark.wrk, ["-v"]).output) ?? []
        let words = String(decoding: output, as: UTF8.self).split(separator: " ")
        return words.count > 1 ? String(words[1]) : "?"
    }

    /// h2load's version (`nghttp2/1.52.0`), or "?" when it does not say.
    private var nghttp2Version: String {
        let output = (try? runCommand(H2LoadRun.executable, ["--version"])) ?? ""
        return output.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "?"
    }
}
