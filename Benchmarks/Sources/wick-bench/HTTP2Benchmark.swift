// The `http2` suite: GETs over one HTTP/2 connection (TLS, ALPN `h2`) through Wick's public
// `Session`, 16, 64 and 128 streams at once and one after another, and 10 MiB downloads, beside
// libcurl, async-http-client and h2load against one local nginx, in the same run.
import CBenchSupport
import Foundation
import Wick
import WickTLS
import WickTestSupport

/// Starts nginx (`TestServers`, its HTTP/2 listener over TLS), pins it to CPU 0 and every client
/// to CPU 1, and runs each workload in alternating rounds: Wick's forms, libcurl, async-http-client
/// (when its `wick-bench-peers` executable is given), then h2load (when installed).
struct HTTP2Benchmark {
    typealias Round = RequestsBenchmark.Round

    /// A multiplexed workload: how many streams each client keeps in flight on its one
    /// connection, and how many GETs it does per round.
    struct Multiplexed {
        var streams: Int
        var perRound: Int
    }

    /// Rounds per workload; the median is reported.
    var rounds = 7
    /// Sequential GETs per client per round.
    var sequentialPerRound = 2_000
    /// The multiplexed workloads, in order. 64 streams with 8,000 GETs came first; the 16- and
    /// 128-stream counts are scaled by the clients' rates at those widths (medians over Wick's
    /// two forms, libcurl and AHC: 0.69 and 1.08 times their 64-stream rates in a 3-round run),
    /// so that a client's round takes about as long at every width.
    var multiplexed = [
        Multiplexed(streams: 16, perRound: 5_500), Multiplexed(streams: 64, perRound: 8_000),
        Multiplexed(streams: 128, perRound: 8_500),
    ]
    /// 10 MiB downloads per client per round.
    var downloadsPerRound = 8
    /// The async-http-client peer's executable, or nil to leave it out.
    var peersExecutable: String?

    func run() throws -> ResultTable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-http2-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw BenchError("nginx did not start") }
        let base = "https://127.0.0.1:\(nginx.http2Port)"
        let url = base + "/bytes/1k"
        let large = base + "/bytes/10m"
        let caFile = pki.root.certificate.path
        let roots = try Certificate.chain(pemEncoded: String(contentsOf: pki.root.certificate, encoding: .utf8))

        let twoCPUs = ProcessInfo.processInfo.activeProcessorCount >= 2
        var pinning = "not pinned (one CPU)"
        if twoCPUs {
            if let pids = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0) {
                pinning = "nginx's \(pids.count) processes (master and worker) pinned to CPU 0 with `taskset -p`"
            } else {
                pinning = "nginx not pinned (no taskset)"
            }
            _ = bench_pin_current_thread(1)
        }

        // One connection per origin, HTTP/2 only (a server that does not select `h2` fails the
        // connection, and every response's metrics are checked too).
        var configuration = Session.Configuration()
        configuration.trustRoots = .certificates(roots)
        configuration.httpVersion = .http2Only
        configuration.maximumConnectionsPerHost = 1
        // As libcurl's lanes and AHC: every stream the server allows (Wick's default is 100).
        configuration.http2MaximumConcurrentStreams = 128
        configuration.eventLoopCount = 1
        configuration.proxy = .none
        let sequentialSession = Session(configuration: configuration)
        let concurrentSession = Session(configuration: configuration)
        var downloadConfiguration = configuration
        downloadConfiguration.maximumResponseBodyBytes = 16 << 20
        let downloadSession = Session(configuration: downloadConfiguration)
        let sessions = [sequentialSession, concurrentSession, downloadSession]
        defer { try? blocking { for session in sessions { await session.shutdown() } } }
        let curlSequential = try CurlClient(
            .init(
                url: url, caFile: caFile, tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false,
                http2: true))
        let curlConcurrent = try multiplexed.map {
            try CurlConcurrentClient(lanes: $0.streams, url: url, http2CAFile: caFile)
        }
        let curlDownload = try CurlClient(
            .init(
                url: large, caFile: caFile, tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false,
                bodyBytes: RequestsBenchmark.downloadBytes, http2: true))

        // Every thread made so far (Wick's loop, Dispatch's and Swift's pools) and from now on
        // (the peer process, h2load) runs on CPU 1.
        if twoCPUs, FileManager.default.isExecutableFile(atPath: NginxProcesses.taskset) {
            try runCommand(NginxProcesses.taskset, ["-a", "-p", "-c", "1", String(getpid())])
            pinning +=
                "; every thread of wick-bench (Wick's loop, Dispatch's and Swift's concurrency pools, libcurl), the async-http-client process and h2load pinned to CPU 1 (`taskset -a -p`)"
        }
        let peer = try peersExecutable.map { try PeerProcess(executable: $0, baseURL: base, caFile: caFile) }
        defer { peer?.stop() }

        var table = ResultTable(
            suite: "http2",
            title:
                "GETs over one HTTP/2 connection (TLS 1.3, ALPN h2) through Session against a local nginx (higher is better)",
            columns: [
                "workload", "Wick", "h2load (ceiling)", "libcurl", "AHC", "Wick ÷ h2load", "Wick ÷ libcurl",
                "Wick ÷ AHC",
                "client CPU µs per request (Wick / libcurl / AHC)", "Wick allocations per request",
            ])

        // 1. 16, 64 and 128 concurrent streams on one connection (Wick's on the same session).
        var h2loadRan = false
        for (workload, curl) in zip(multiplexed, curlConcurrent) {
            let streams = workload.streams
            let wickPool: (Int) throws -> Round = {
                try Self.wickConcurrent(concurrentSession, url: url, streams: streams, count: $0)
            }
            let wickOnLoop: (Int) throws -> Round = {
                try Self.wickConcurrent(
                    concurrentSession, url: url, streams: streams, count: $0, executor: concurrentSession.taskExecutor)
            }
            let curlConc: (Int) throws -> Round = { count in
                try RequestsBenchmark.timed(count: 1, latencies: false) { _ in try curl.run(count) }
            }
            let conc = try alternate(
                count: workload.perRound, warmUp: max(streams, 64), clients: [wickPool, wickOnLoop, curlConc],
                peerCommand: peer.map { _ in "h2-conc \(streams)" }, peer: peer, h2load: (url, streams))
            h2loadRan = !conc.h2load.isEmpty
            let concurrentName = "\(streams) concurrent streams on one HTTP/2 connection, GET 1 KiB, req/s — Wick"
            table.rows.append(
                rateRow(
                    "\(concurrentName) (\(streams) child tasks on Swift's pool)", conc, wick: 0, peers: [2, 3],
                    count: workload.perRound))
            table.rows.append(
                rateRow(
                    "\(concurrentName) (the child tasks on the loop, `addTask(executorPreference: session.taskExecutor)`)",
                    conc, wick: 1, peers: [2, 3], count: workload.perRound))
        }

        // 2. Sequential GETs on the same kind of connection.
        let wickSequential: (Int) throws -> Round = {
            try Self.wickConcurrent(sequentialSession, url: url, streams: 1, count: $0)
        }
        let curlSeq: (Int) throws -> Round = { count in
            try RequestsBenchmark.timed(count: count, latencies: false) { _ in _ = try curlSequential.get() }
        }
        let seq = try alternate(
            count: sequentialPerRound, warmUp: 64, clients: [wickSequential, curlSeq],
            peerCommand: peer.map { _ in "h2-seq" }, peer: peer, h2load: (url, 1))
        table.rows.append(
            rateRow(
                "sequential GET 1 KiB on one kept-alive HTTP/2 connection, req/s — Wick `serializingData()` (async)",
                seq, wick: 0, peers: [1, 2], count: sequentialPerRound))

        // 3. 10 MiB downloads, one after another on one connection.
        let wickDown: (Int) throws -> Round = {
            try RequestsBenchmark.wickDownload(downloadSession, url: large, count: $0, httpVersion: .http2)
        }
        let curlDown: (Int) throws -> Round = { count in
            try RequestsBenchmark.timed(count: count, latencies: false) { _ in _ = try curlDownload.get() }
        }
        let down = try alternate(
            count: downloadsPerRound, warmUp: 2, clients: [wickDown, curlDown],
            peerCommand: peer.map { _ in "h2-download" }, peer: peer, h2load: nil)
        table.rows.append(
            rateRow(
                "10 MiB download over HTTP/2, sequential on one connection, MiB/s — Wick `serializingData()`", down,
                wick: 0, peers: [1, 2], count: downloadsPerRound,
                scale: Double(RequestsBenchmark.downloadBytes) / 1_048_576))
        table.rows.append(heapRow(down))

        // Each client kept its one connection through every round.
        for session in sessions {
            let created = try blockingResult { await session.poolStatistics().total.created }
            guard created == 1 else { throw BenchError("Wick: \(created) connections opened, not 1") }
        }
        for (workload, curl) in zip(multiplexed, curlConcurrent) where curl.connectionsOpened != 1 {
            throw BenchError(
                "libcurl multi (\(workload.streams) streams): \(curl.connectionsOpened) connections opened, not 1")
        }
        if let peer {
            let connections = try peer.send("h2-connections")
            guard connections == [1] else {
                throw BenchError("async-http-client: \(connections.first ?? 0) connections to nginx, not 1")
            }
        }
        table.notes = notes(pinning: pinning, h2load: h2loadRan)
        return table
    }

    /// The rounds of one workload: per client (Wick's forms and libcurl, then the peer's
    /// command), and h2load's (when installed and asked for) with `h2load.streams` in flight.
    /// In each round the in-process clients run in `rotatedOrder`, then the peer and h2load.
    /// Each client's warm-up of `warmUp` requests opens its connection and fills pools and caches.
    private func alternate(
        count: Int, warmUp: Int, clients: [(Int) throws -> Round], peerCommand: String?, peer: PeerProcess?,
        h2load: (url: String, streams: Int)?
    ) throws -> (rounds: [[Round]], h2load: [H2LoadRun]) {
        for client in clients { _ = try client(warmUp) }
        if let peerCommand { try peer?.send("\(peerCommand) \(warmUp)") }
        var results = [[Round]](repeating: [], count: clients.count + (peerCommand == nil ? 0 : 1))
        var h2loadRuns: [H2LoadRun] = []
        for round in 0..<rounds {
            for index in rotatedOrder(of: clients.count, round: round) {
                results[index].append(try clients[index](count))
            }
            if let peerCommand, let peer {
                let values = try peer.send("\(peerCommand) \(count)")
                guard values.count >= 2 else {
                    throw BenchError("async-http-client peer: no figures for \(peerCommand)")
                }
                results[clients.count].append(
                    Round(
                        wallNanoseconds: values[0], cpuNanoseconds: values[1],
                        heapBytes: values.count > 2 ? Int(values[2]) : 0))
            }
            if let h2load, FileManager.default.isExecutableFile(atPath: H2LoadRun.executable) {
                h2loadRuns.append(try H2LoadRun(url: h2load.url, streams: h2load.streams, bodyBytes: 1_024))
            }
        }
        return (results, h2loadRuns)
    }

    /// A rate row: Wick's client `wick` beside h2load, libcurl and AHC (`peers`; nil: not
    /// measured); the rates are requests per second times `scale` (MiB per request, for MiB/s).
    private func rateRow(
        _ name: String, _ results: (rounds: [[Round]], h2load: [H2LoadRun]), wick: Int, peers: [Int?], count: Int,
        scale: Double = 1
    ) -> [String] {
        let rounds = results.rounds
        func rates(_ index: Int?) -> [Double]? {
            guard let index, index < rounds.count, !rounds[index].isEmpty else { return nil }
            return rounds[index].map { Double(count) * scale * 1e9 / Double($0.wallNanoseconds) }
        }
        func cpu(_ index: Int?) -> String {
            guard let index, index < rounds.count, !rounds[index].isEmpty else { return "—" }
            return Format.fixed(median(rounds[index].map { Double($0.cpuNanoseconds) / Double(count) / 1_000 }), 1)
        }
        func ratio(_ others: [Double]?) -> String {
            guard let others, !others.isEmpty else { return "—" }
            return Format.ratio(median(zip(wickRates, others).map { $0 / $1 }))
        }
        let wickRates = rates(wick)!
        let h2loadRates = results.h2load.map { $0.requestsPerSecond * scale }
        let figure: (Double) -> String = { Format.grouped(Int($0)) }
        var row = [name, figure(median(wickRates)), h2loadRates.isEmpty ? "—" : figure(median(h2loadRates))]
        for peer in peers { row.append(rates(peer).map { figure(median($0)) } ?? "—") }
        row.append(ratio(h2loadRates))
        for peer in peers { row.append(ratio(rates(peer))) }
        row.append(([wick] + peers).map(cpu).joined(separator: " / "))
        row.append(Format.fixed(median(rounds[wick].map { Double($0.allocations) / Double(count) }), 1))
        return row
    }

    /// The downloads' heap growth with the round's first body in hand (Wick's `Data`, AHC's
    /// `ByteBuffer`; libcurl's write callback discards the body), medians over the rounds.
    private func heapRow(_ results: (rounds: [[Round]], h2load: [H2LoadRun])) -> [String] {
        func mebibytes(_ index: Int) -> String {
            guard index < results.rounds.count, !results.rounds[index].isEmpty else { return "—" }
            return Format.fixed(median(results.rounds[index].map { Double($0.heapBytes) / 1_048_576 }), 1)
        }
        return [
            "same, heap growth (MiB) with the round's first body in hand (lower is better)", mebibytes(0), "—",
            mebibytes(1) + " (discards the body)", mebibytes(2), "—", "—", "—", "—", "—",
        ]
    }

    // MARK: - Wick's rounds

    /// `count` GETs over `streams` tasks, each awaiting its requests one after another (on
    /// `executor`, when given); every response must be 200 with 1,024 bytes, over HTTP/2.
    static func wickConcurrent(
        _ session: Session, url: String, streams: Int, count: Int, executor: (any TaskExecutor)? = nil
    ) throws -> Round {
        try RequestsBenchmark.timed(count: 1, latencies: false) { _ in
            try blocking {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<streams {
                        let share = count / streams + (lane < count % streams ? 1 : 0)
                        group.addTask(executorPreference: executor) {
                            for _ in 0..<share { try await get(session, url: url) }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    /// One GET, checked: 200, 1,024 body bytes, and the metrics' protocol HTTP/2.
    /// - Throws: `BenchError` naming what differs.
    static func get(_ session: Session, url: String) async throws {
        let response = await session.request(url).serializingData().response
        guard response.response?.statusCode == 200, response.data?.count == 1_024,
            response.metrics?.last.httpVersion == .http2
        else {
            throw BenchError(
                "Wick HTTP/2 GET: status \(response.response?.statusCode ?? 0), \(response.data?.count ?? -1) bytes, "
                    + "\(response.metrics.map { "\($0.last.httpVersion)" } ?? "no metrics"), "
                    + "\(response.error.map { "\($0)" } ?? "no error")")
        }
    }

    private func notes(pinning: String, h2load: Bool) -> [String] {
        let widths = multiplexed.map { String($0.streams) }.joined(separator: ", ")
        let counts = multiplexed.map { "\(Format.grouped($0.perRound)) GETs with \($0.streams) in flight" }
            .joined(separator: ", ")
        let curl = CurlClient.version.split(separator: " ").prefix(2).joined(separator: " ")
        return [
            "nginx 1.22 (one worker, `/bytes/1k` and `/bytes/10m` from files) from `TestServers`: its HTTP/2 listener over TLS (the test PKI's server certificate, ALPN `h2` then `http/1.1`, nginx's default of 128 concurrent streams per connection), started and stopped by the suite; \(pinning). Every client speaks TLS 1.3 and HTTP/2 selected through ALPN. Cleartext h2c (prior knowledge) is left out: async-http-client speaks HTTP/2 only over TLS, the test nginx's h2c listener allows 8 streams per connection (so 16 or more streams on one connection cannot run there), and TLS is how HTTP/2 is deployed.",
            "Clients run in alternation: \(rounds) rounds per workload, each round starting one client further on in the list (so no client always runs first, after the async-http-client process and h2load), after a warm-up (as many GETs as streams, at least 64, or 2 downloads; it opens each client's one connection, so no handshake is timed); per round each client does \(counts), \(Format.grouped(sequentialPerRound)) sequential GETs, or \(downloadsPerRound) downloads. The 64-stream workload's 8,000 GETs came first; the other widths' counts are scaled by the clients' rates there (medians over Wick's two forms, libcurl and AHC of their rate at 16 and 128 streams over their rate at 64: 0.69 and 1.08 in a 3-round run), so that each client's round takes about as long at every width as at 64. Rates are medians of the per-round rates (wall time); a ratio is the median of the per-round ratios (above 1: Wick is faster). Client CPU is the client process's user + system time (`CLOCK_PROCESS_CPUTIME_ID`, every thread) per request (per download), median over the rounds. The machine is shared with other builds and noisy: the ratios, measured round by round in alternation, are the figures to quote, not the rates.",
            "In flight on one connection: nginx allows 128 streams. libcurl, AHC and h2load keep all N in flight at every width (libcurl with `CURLMOPT_MAX_CONCURRENT_STREAMS` N: its own default of 100 would hold 28 of 128 back; AHC takes the server's SETTINGS_MAX_CONCURRENT_STREAMS). Wick opens at most 100 streams on a connection by default, like libcurl; the suite's sessions set `http2MaximumConcurrentStreams` to 128, so all 128 are in flight. Every client opens exactly one connection through every width: checked for Wick (each session's pool opened 1), libcurl (one multi handle per width, `CURLINFO_NUM_CONNECTS` summed to 1), AHC (after the last round its process holds exactly 1 TCP connection to nginx's port, `getpeername` on each descriptor in /proc/self/fd; its pool closes none in between) and h2load (`-c1`).",
            "Wick: one `Session` per workload (`httpVersion` `.http2Only`, `maximumConnectionsPerHost` 1, `eventLoopCount` 1, the test root as `trustRoots`; the \(widths)-stream workloads share one session and its connection); N child tasks of a task group, each awaiting `session.request(url).serializingData().response` in turn (on Swift's pool, or on the loop with `addTask(executorPreference: session.taskExecutor)`); sequential: one task doing the same. Every response is checked: 200, 1,024 bytes, `metrics.last.httpVersion == .http2`; after the rounds each session's pool must have opened exactly one connection. Allocations per request: every `malloc`/`calloc`/`realloc`/... of the whole process during Wick's round divided by the requests, counted by wick-bench's malloc interposer.",
            "libcurl \(curl) (nghttp2 underneath): N easy handles on one multi handle per width with `CURLMOPT_PIPELINING` `CURLPIPE_MULTIPLEX`, `CURLMOPT_MAX_HOST_CONNECTIONS` 1, `CURLMOPT_MAX_CONCURRENT_STREAMS` N, `CURLOPT_HTTP_VERSION` `CURL_HTTP_VERSION_2TLS` and `CURLOPT_PIPEWAIT`, each re-added when its transfer ends; sequential and downloads: one easy handle each, reused. Every transfer is checked: `CURLINFO_RESPONSE_CODE` 200, the body's length (the write callback counts and discards the bytes), `CURLINFO_HTTP_VERSION` `CURL_HTTP_VERSION_2_0`.",
            "async-http-client 1.37 in a child process (`wick-bench-peers`, Benchmarks/Peers), one `MultiThreadedEventLoopGroup` thread, one `HTTPClient` for every workload with `httpVersion` `.automatic` over TLS (HTTP/2 through ALPN) and a pool of one connection: N chained futures (`execute(request:eventLoop:)`) multiplexed on its connection, or `execute(request:).wait()` in a loop (sequential GETs and downloads, the body collected in a `ByteBuffer`); every response checked for 200, its length and `version.major == 2`. It runs in its own process without the malloc counter that Wick and libcurl pay for (an atomic increment per malloc and free).",
            "10 MiB downloads: `/bytes/10m` on the same HTTP/2 listener, one after another on one connection per client; Wick through `serializingData()` on a session with `maximumResponseBodyBytes` 16 MiB and Wick's default receive windows (1 MiB per stream, 8 MiB for the connection), each body checked for 10 MiB and HTTP/2 (`RequestsBenchmark.wickDownload`, the `requests` suite's). Heap growth as in the `requests` suite: malloc's in-use bytes (`mallinfo2`) from the start of the round to just after its first download returns, the body still held (Wick's `Data`, AHC's `ByteBuffer`), median over the rounds; libcurl discards the body as it streams. h2load is not run on downloads.",
            h2load
                ? "h2load \(nghttp2Version) (Debian's nghttp2-client; `h2load -D 1 --warm-up-time 200ms -c1 -mN` with N = \(widths) or 1, `-t1`, one run per round after the other clients, pinned to CPU 1 like them) is the ceiling: nghttp2's C load generator, which does not verify the server's certificate and parses as little as it can. Its rate is over the second after a 200 ms warm-up (its handshake not timed); its report is checked: every request succeeded with a 2xx, `Application protocol: h2`, DATA bytes a whole number of 1,024-byte bodies."
                : "h2load (Debian's nghttp2-client) was not installed: no ceiling.",
        ]
    }

    /// h2load's version (`nghttp2/1.52.0`), or "?" when it does not say.
    private var nghttp2Version: String {
        let output = (try? runCommand(H2LoadRun.executable, ["--version"])) ?? ""
        return output.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "?"
    }
}
