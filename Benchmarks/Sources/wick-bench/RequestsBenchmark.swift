// The `requests` suite: whole HTTP requests through Wick's public `Session` (sequential
// keep-alive GETs, 64 concurrent connections, 10 MiB downloads) beside libcurl and
// async-http-client against one local nginx, in the same run.
import CBenchSupport
import Dispatch
import Foundation
import Wick
import WickTestSupport

/// Starts nginx (`TestServers`), pins it to CPU 0 and every client thread to CPU 1, and runs each
/// workload in alternating rounds: Wick's forms, libcurl, then async-http-client (when its
/// `wick-bench-peers` executable is given).
struct RequestsBenchmark {
    /// Rounds per workload; the median is reported.
    var rounds = 11
    /// Sequential keep-alive GETs per client per round.
    var sequentialPerRound = 2_000
    /// GETs per client per round in the concurrent workload.
    var concurrentPerRound = 8_000
    /// Connections (and requests in flight) in the concurrent workload.
    var lanes = 64
    /// 10 MiB downloads per client per round.
    var downloadsPerRound = 8
    /// The async-http-client peer's executable, or nil to leave it out.
    var peersExecutable: String?

    static let downloadBytes = 10 << 20
    /// `Session.Configuration.busyPollDuration` of the busy-polling rows, in µs: about one
    /// loopback round trip to nginx, so a response usually comes within the poll.
    static let busyPollMicroseconds = 50
    /// Debian's wrk, the load generator used as the ceiling when installed.
    static let wrk = "/usr/bin/wrk"

    /// One client's round: wall time, process CPU time and allocations, and per-request latencies.
    struct Round {
        var wallNanoseconds: UInt64
        var cpuNanoseconds: UInt64
        var allocations: UInt64 = 0
        var latencies: [UInt64] = []
        var heapBytes: Int = 0
    }

    func run() throws -> ResultTable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-requests-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx else { throw BenchError("nginx did not start") }
        let base = "http://127.0.0.1:\(nginx.httpPort)"

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

        var sequential = Session.Configuration()
        sequential.maximumConnectionsPerHost = 1
        var concurrent1 = Session.Configuration()
        concurrent1.maximumConnectionsPerHost = lanes
        concurrent1.eventLoopCount = 1
        var concurrent2 = concurrent1
        concurrent2.eventLoopCount = 2
        var download = Session.Configuration()
        download.maximumConnectionsPerHost = 1
        download.maximumResponseBodyBytes = 16 << 20
        var sequentialPolling = sequential
        sequentialPolling.busyPollDuration = .microseconds(Self.busyPollMicroseconds)
        var concurrentPolling = concurrent1
        concurrentPolling.busyPollDuration = sequentialPolling.busyPollDuration
        let sessions = [sequential, concurrent1, concurrent2, download, sequentialPolling, concurrentPolling].map {
            Session(configuration: $0)
        }
        defer { try? blocking { for session in sessions { await session.shutdown() } } }
        let small = base + "/bytes/1k"
        let large = base + "/bytes/10m"

        let curlSequential = try CurlClient(
            .init(url: small, caFile: "", tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false))
        let curlConcurrent = try CurlConcurrentClient(lanes: lanes, url: small)
        let urlSessionSequential = URLSessionClient(maximumConnections: 1)
        let urlSessionConcurrent = URLSessionClient(maximumConnections: lanes)
        let smallURL = URL(string: small)!
        let largeURL = URL(string: large)!
        let curlDownload = try CurlClient(
            .init(
                url: large, caFile: "", tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false,
                bodyBytes: Self.downloadBytes))
        let curlDownloadKeeping = try CurlClient(
            .init(
                url: large, caFile: "", tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false,
                bodyBytes: Self.downloadBytes, collectsBody: true))

        // Every thread made so far (Wick's loops, Dispatch's and Swift's pools) and from now on
        // (the peer process) runs on CPU 1.
        if twoCPUs, FileManager.default.isExecutableFile(atPath: NginxProcesses.taskset) {
            try runCommand(NginxProcesses.taskset, ["-a", "-p", "-c", "1", String(getpid())])
            pinning +=
                "; every thread of wick-bench (Wick's loops, Dispatch's and Swift's concurrency pools, libcurl) and the async-http-client process pinned to CPU 1 (`taskset -a -p`)"
        }
        let peer = try peersExecutable.map { try PeerProcess(executable: $0, baseURL: base, caFile: "/dev/null") }
        defer { peer?.stop() }

        var table = ResultTable(
            suite: "requests",
            title:
                "Whole HTTP requests through Session against a local nginx (higher is better, except latency and memory)",
            columns: [
                "workload", "Wick", "wrk (ceiling)", "libcurl", "URLSession", "AHC futures", "AHC async/await",
                "Wick ÷ libcurl", "Wick ÷ URLSession", "Wick ÷ AHC futures", "Wick ÷ AHC async",
                "client CPU µs per request (Wick / libcurl / URLSession / AHC futures / AHC async)",
                "Wick allocations per request",
            ])

        // 1. Sequential keep-alive GETs.
        let wickAsync: (Int) throws -> Round = { try Self.wickSequentialAsync(sessions[0], url: small, count: $0) }
        let wickCallback: (Int) throws -> Round = {
            try Self.wickSequentialCallback(sessions[0], url: small, count: $0)
        }
        let wickOnLoop: (Int) throws -> Round = {
            try Self.wickSequentialAsync(sessions[0], url: small, count: $0, executor: sessions[0].taskExecutor)
        }
        let curlSeq: (Int) throws -> Round = { count in
            try Self.timed(count: count, latencies: true) { _ in _ = try curlSequential.get() }
        }
        let urlSessionSeq: (Int) throws -> Round = { count in
            try Self.timed(count: count, latencies: true) { _ in
                let length = try urlSessionSequential.get(smallURL)
                guard length == 1_024 else { throw BenchError("URLSession GET: \(length) bytes") }
            }
        }
        let wickPolling: (Int) throws -> Round = { try Self.wickSequentialAsync(sessions[4], url: small, count: $0) }
        let wickPollingOnLoop: (Int) throws -> Round = {
            try Self.wickSequentialAsync(sessions[4], url: small, count: $0, executor: sessions[4].taskExecutor)
        }
        let (seq, seqWrk) = try alternate(
            count: sequentialPerRound,
            clients: [wickAsync, wickCallback, wickOnLoop, curlSeq, urlSessionSeq, wickPolling, wickPollingOnLoop],
            peerCommands: peer.map { _ in ["http-seq", "http-seq-async"] } ?? [], peer: peer, latencies: true,
            wrk: (small, 1))
        let polling = "busy polling \(Self.busyPollMicroseconds) µs (opt-in `busyPollDuration`)"
        let sequentialForms = [
            (0, "`serializingData().value` (async)"), (1, "`responseData` (callback)"),
            (2, "async, the task on the loop (`withTaskExecutorPreference(session.taskExecutor)`)"),
            (5, "async, \(polling)"), (6, "async, the task on the loop, \(polling)"),
        ]
        // Clients 0-4 and 5-6 are Wick's and the in-process peers; the peer process's follow.
        let sequentialPeers = [3, 4, 7, 8]
        for (index, form) in sequentialForms {
            table.rows.append(
                rateRow(
                    "sequential keep-alive GET 1 KiB over HTTP, req/s — Wick \(form)", seq, wick: index,
                    peers: sequentialPeers, count: sequentialPerRound, scale: 1, wrk: seqWrk))
        }
        for (index, form) in [
            (0, "async"), (1, "callback"), (2, "async on the loop"), (5, "async, \(polling)"),
            (6, "async on the loop, \(polling)"),
        ] {
            table.rows.append(
                latencyRow(
                    "same, latency p50 / p99 / p99.9 µs (wrk: p50 / p99) — Wick \(form)", seq, wick: index,
                    peers: sequentialPeers, wrk: seqWrk))
        }

        // 2. 64 concurrent connections.
        func wickConcurrent(_ session: Session, onLoop: Bool = false) -> (Int) throws -> Round {
            { count in
                try Self.wickConcurrent(
                    session, url: small, lanes: lanes, count: count, executor: onLoop ? session.taskExecutor : nil)
            }
        }
        let curlConc: (Int) throws -> Round = { count in
            var latencies: [UInt64] = []
            var round = try Self.timed(count: 1, latencies: false) { _ in latencies = try curlConcurrent.run(count) }
            round.latencies = latencies
            return round
        }
        let urlSessionConc: (Int) throws -> Round = { count in
            try Self.timed(count: 1, latencies: false) { _ in
                try urlSessionConcurrent.concurrent(smallURL, lanes: lanes, count: count, expectedBytes: 1_024)
            }
        }
        let (conc, concWrk) = try alternate(
            count: concurrentPerRound,
            clients: [
                wickConcurrent(sessions[1]), wickConcurrent(sessions[2]), wickConcurrent(sessions[1], onLoop: true),
                curlConc, urlSessionConc, wickConcurrent(sessions[5]), wickConcurrent(sessions[5], onLoop: true),
            ],
            peerCommands: peer.map { _ in ["http-conc \(lanes)"] } ?? [], peer: peer, latencies: false,
            wrk: (small, lanes))
        for (index, loops) in [
            (0, "1 event loop"), (1, "2 event loops"), (2, "1 event loop, the tasks on it"),
            (5, "1 event loop, \(polling)"), (6, "1 event loop, the tasks on it, \(polling)"),
        ] {
            table.rows.append(
                rateRow(
                    "\(lanes) concurrent connections, GET 1 KiB, req/s — Wick \(loops)", conc, wick: index,
                    peers: [3, 4, 7, nil], count: concurrentPerRound, scale: 1, wrk: concWrk))
        }
        for (index, loops) in [(0, "1 event loop"), (2, "1 event loop, the tasks on it")] {
            table.rows.append(
                latencyRow(
                    "same, latency p50 / p99 / p99.9 µs (wrk: p50 / p99; URLSession and AHC not sampled) — Wick \(loops)",
                    conc, wick: index, peers: [3, 4, 7], wrk: concWrk))
        }

        // 3. 10 MiB downloads.
        let wickDownload: (Int) throws -> Round = { try Self.wickDownload(sessions[3], url: large, count: $0) }
        let wickStream: (Int) throws -> Round = { try Self.wickStreamDownload(sessions[3], url: large, count: $0) }
        let curlDown: (Int) throws -> Round = { count in
            try Self.timed(count: count, latencies: false) { _ in _ = try curlDownload.get() }
        }
        let urlSessionDown: (Int) throws -> Round = { count in
            try Self.timed(count: count, latencies: false) { _ in
                let length = try urlSessionSequential.get(largeURL)
                guard length == Self.downloadBytes else { throw BenchError("URLSession download: \(length) bytes") }
            }
        }
        let curlDownKeeping: (Int) throws -> Round = { count in
            try Self.timed(count: count, latencies: false) { _ in _ = try curlDownloadKeeping.get() }
        }
        let (down, _) = try alternate(
            count: downloadsPerRound, clients: [wickDownload, curlDown, urlSessionDown, wickStream, curlDownKeeping],
            peerCommands: peer.map { _ in ["http-10m"] } ?? [], peer: peer, latencies: false)
        let mebibytesPerRequest = Double(Self.downloadBytes) / 1_048_576
        table.rows.append(
            rateRow(
                "10 MiB download, sequential on one connection, MiB/s — Wick `serializingData()`", down, wick: 0,
                peers: [1, 2, 5, nil], count: downloadsPerRound, scale: mebibytesPerRequest))
        table.rows.append(
            rateRow(
                "the same — Wick `serializingData()` beside libcurl keeping the body in memory too (libcurl's getinmemory.c write callback), in the libcurl column",
                down, wick: 0, peers: [4, nil, nil, nil], count: downloadsPerRound, scale: mebibytesPerRequest))
        table.rows.append(
            rateRow(
                "the same — Wick `streamRequest(_:)`, `streamingData()` chunks counted and dropped", down, wick: 3,
                peers: [1, 2, 5, nil], count: downloadsPerRound, scale: mebibytesPerRequest))
        table.rows.append(heapRow(down))
        table.notes = notes(pinning: pinning)
        return table
    }

    /// Per client (Wick's first, then libcurl, then each peer command), its rounds. In each
    /// round the in-process clients run in `rotatedOrder`, then the peer's commands and wrk.
    private func alternate(
        count: Int, clients: [(Int) throws -> Round], peerCommands: [String], peer: PeerProcess?, latencies: Bool,
        wrk: (url: String, connections: Int)? = nil
    ) throws -> (rounds: [[Round]], wrk: [WrkRun]) {
        var wrkRuns: [WrkRun] = []
        // Warm-up: connections opened, pools and caches filled.
        for client in clients { _ = try client(min(count, 64)) }
        for command in peerCommands { _ = try peer?.send("\(command) \(min(count, 64))") }
        var results = [[Round]](repeating: [], count: clients.count + peerCommands.count)
        for round in 0..<rounds {
            for index in rotatedOrder(of: clients.count, round: round) {
                results[index].append(try clients[index](count))
            }
            for (offset, command) in peerCommands.enumerated() {
                guard let values = try peer?.send("\(command) \(count)"), values.count >= 2 else {
                    throw BenchError("async-http-client peer: no figures for \(command)")
                }
                var round = Round(wallNanoseconds: values[0], cpuNanoseconds: values[1])
                if latencies, values.count == 5 { round.latencies = Array(values[2...]) }
                if !latencies, values.count == 3 { round.heapBytes = Int(values[2]) }
                results[clients.count + offset].append(round)
            }
            if let wrk, FileManager.default.isExecutableFile(atPath: Self.wrk) {
                wrkRuns.append(try WrkRun(url: wrk.url, connections: wrk.connections))
            }
        }
        return (results, wrkRuns)
    }

    /// A rate row: Wick's client `wick` beside libcurl and the AHC forms (nil: not measured).
    private func rateRow(
        _ name: String, _ results: [[Round]], wick: Int, peers: [Int?], count: Int, scale: Double,
        wrk: [WrkRun] = []
    ) -> [String] {
        func rates(_ index: Int?) -> [Double]? {
            guard let index, index < results.count, !results[index].isEmpty else { return nil }
            return results[index].map { Double(count) * scale * 1e9 / Double($0.wallNanoseconds) }
        }
        func cpu(_ index: Int?) -> String {
            guard let index, index < results.count, !results[index].isEmpty else { return "—" }
            return Format.fixed(median(results[index].map { Double($0.cpuNanoseconds) / Double(count) / 1_000 }), 0)
        }
        let wickRates = rates(wick)!
        let figure: (Double) -> String = { Format.grouped(Int($0)) }
        var row = [name, figure(median(wickRates)), wrk.isEmpty ? "—" : figure(median(wrk.map(\.requestsPerSecond)))]
        for peer in peers { row.append(rates(peer).map { figure(median($0)) } ?? "—") }
        for peer in peers {
            row.append(rates(peer).map { Format.ratio(median(zip(wickRates, $0).map { $0 / $1 })) } ?? "—")
        }
        row.append(([wick] + peers).map(cpu).joined(separator: " / "))
        let allocations = results[wick].map { Double($0.allocations) / Double(count) }
        row.append(Format.fixed(median(allocations), 1))
        return row
    }

    /// Latency percentiles over every round's samples, Wick's client `wick` beside the others.
    private func latencyRow(_ name: String, _ results: [[Round]], wick: Int, peers: [Int], wrk: [WrkRun]) -> [String] {
        func percentiles(_ index: Int) -> String {
            guard index < results.count, !results[index].isEmpty else { return "—" }
            let rounds = results[index]
            // The peer sends its own percentiles per round: their medians.
            if rounds.first?.latencies.count == 3 {
                return (0..<3).map { column in
                    Format.grouped(Int(median(rounds.map { Double($0.latencies[column]) }) / 1_000))
                }.joined(separator: " / ")
            }
            var sorted: [Double] = []
            for round in rounds { for sample in round.latencies { sorted.append(Double(sample)) } }
            sorted.sort()
            guard !sorted.isEmpty else { return "—" }
            return [0.5, 0.99, 0.999].map { fraction in
                Format.grouped(Int(percentile(sorted, fraction) / 1_000))
            }.joined(separator: " / ")
        }
        let wrkFigure =
            wrk.isEmpty
            ? "—"
            : [median(wrk.map(\.p50Microseconds)), median(wrk.map(\.p99Microseconds))].map { Format.grouped(Int($0)) }
                .joined(separator: " / ")
        // The ratio, CPU and allocation columns, and AHC async's when `peers` has no fourth.
        return [name, percentiles(wick), wrkFigure] + peers.map(percentiles)
            + Array(repeating: "—", count: 10 - peers.count)
    }

    /// Heap held with the last body in hand.
    private func heapRow(_ results: [[Round]]) -> [String] {
        func mebibytes(_ index: Int) -> String {
            guard index < results.count, !results[index].isEmpty else { return "—" }
            return Format.fixed(median(results[index].map { Double($0.heapBytes) / 1_048_576 }), 1)
        }
        return [
            "same, heap growth (MiB): `serializingData()` with the round's first body in hand; the stream's most after any chunk (lower is better)",
            mebibytes(0) + " / stream " + mebibytes(3), "—", mebibytes(1) + " (streams, discards)", "—", mebibytes(5),
            "—",
            "—", "—", "—", "—", "—", "—",
        ]
    }

    // MARK: - The clients' rounds

    /// `count` runs of `body` timed as one round (each timed too when `latencies`).
    static func timed(count: Int, latencies: Bool, _ body: (Int) throws -> Void) throws -> Round {
        var samples: [UInt64] = []
        if latencies { samples.reserveCapacity(count) }
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        let start = monotonicNanoseconds()
        for index in 0..<count {
            let begin = latencies ? monotonicNanoseconds() : 0
            try body(index)
            if latencies { samples.append(monotonicNanoseconds() - begin) }
        }
        return Round(
            wallNanoseconds: monotonicNanoseconds() - start, cpuNanoseconds: processCPUNanoseconds() - cpu,
            allocations: AllocationCounter.allocations - allocations, latencies: samples)
    }

    /// Sequential `serializingData().value`, awaited in one task (preferring `executor`, when
    /// given, e.g. `session.taskExecutor`).
    static func wickSequentialAsync(
        _ session: Session, url: String, count: Int, executor: (any TaskExecutor)? = nil
    ) throws -> Round {
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        let start = monotonicNanoseconds()
        let samples = try blockingResult { () async throws -> [UInt64] in
            try await withTaskExecutorPreference(executor) {
                var samples: [UInt64] = []
                samples.reserveCapacity(count)
                for _ in 0..<count {
                    let begin = monotonicNanoseconds()
                    let data = try await session.request(url).serializingData().value
                    guard data.count == 1_024 else { throw BenchError("Wick GET: \(data.count) body bytes") }
                    samples.append(monotonicNanoseconds() - begin)
                }
                return samples
            }
        }
        return Round(
            wallNanoseconds: monotonicNanoseconds() - start, cpuNanoseconds: processCPUNanoseconds() - cpu,
            allocations: AllocationCounter.allocations - allocations, latencies: samples)
    }

    /// Sequential `responseData` callbacks, each waited for on this thread.
    static func wickSequentialCallback(_ session: Session, url: String, count: Int) throws -> Round {
        let done = DispatchSemaphore(value: 0)
        let outcome = CallbackOutcome()
        return try timed(count: count, latencies: true) { _ in
            session.request(url).responseData { response in
                outcome.bodyBytes = response.response?.statusCode == 200 ? (response.data?.count ?? -1) : -1
                done.signal()
            }
            done.wait()
            guard outcome.bodyBytes == 1_024 else { throw BenchError("Wick responseData: \(outcome.bodyBytes) bytes") }
        }
    }

    /// `count` GETs over `lanes` tasks, each awaiting its requests one after another (on
    /// `executor`, when given).
    static func wickConcurrent(
        _ session: Session, url: String, lanes: Int, count: Int, executor: (any TaskExecutor)? = nil
    ) throws -> Round {
        var latencies: [UInt64] = []
        var round = try timed(count: 1, latencies: false) { _ in
            latencies = try blockingResult {
                try await withThrowingTaskGroup(of: [UInt64].self) { group in
                    for lane in 0..<lanes {
                        let share = count / lanes + (lane < count % lanes ? 1 : 0)
                        group.addTask(executorPreference: executor) {
                            var samples: [UInt64] = []
                            samples.reserveCapacity(share)
                            for _ in 0..<share {
                                let begin = monotonicNanoseconds()
                                let data = try await session.request(url).serializingData().value
                                samples.append(monotonicNanoseconds() - begin)
                                guard data.count == 1_024 else { throw BenchError("Wick GET: \(data.count) bytes") }
                            }
                            return samples
                        }
                    }
                    var all: [UInt64] = []
                    all.reserveCapacity(count)
                    for try await samples in group { all += samples }
                    return all
                }
            }
        }
        round.latencies = latencies
        return round
    }

    /// Sequential 10 MiB downloads; the heap growth is read with the round's first body in hand.
    /// With `httpVersion`, every response must have come over it (its metrics say so).
    /// - Throws: the request's error, or `BenchError` when a body is not 10 MiB or a response
    ///   came over another version.
    static func wickDownload(
        _ session: Session, url: String, count: Int, httpVersion: HTTPVersion? = nil
    ) throws -> Round {
        try downloads(count: count) { index, growth in
            let before = RequestsBenchmark.heapBytes()
            let response = await session.request(url).serializingData().response
            if index == 0 { growth = RequestsBenchmark.heapBytes() - before }
            let data = try response.result.get()
            if let httpVersion, response.metrics?.last.httpVersion != httpVersion {
                throw BenchError(
                    "Wick download: over \(response.metrics.map { "\($0.last.httpVersion)" } ?? "no metrics"), "
                        + "not \(httpVersion)")
            }
            return data.count
        }
    }

    /// Sequential 10 MiB downloads read as `streamingData()` chunks, counted and dropped; the
    /// heap growth is the most seen after any chunk of the round's first download.
    static func wickStreamDownload(_ session: Session, url: String, count: Int) throws -> Round {
        try downloads(count: count) { index, growth in
            let before = RequestsBenchmark.heapBytes()
            var bytes = 0
            for try await chunk in session.streamRequest(url).streamingData() {
                bytes += chunk.count
                if index == 0 { growth = max(growth, RequestsBenchmark.heapBytes() - before) }
            }
            return bytes
        }
    }

    /// A round of `count` downloads by `download` (given the download's index and the round's
    /// heap growth to record; returns the body's length), timed in one task. The heap growth
    /// comes from one more download, index 0, made before the timed ones: sampling the heap
    /// (`mallinfo2` walks malloc's arenas) after every chunk of a timed download would slow it.
    /// - Throws: what `download` throws, or `BenchError` when a body is not 10 MiB.
    private static func downloads(
        count: Int, _ download: @escaping @Sendable (Int, inout Int) async throws -> Int
    ) throws -> Round {
        let growth = try blockingResult { () async throws -> Int in
            var growth = 0
            let bytes = try await download(0, &growth)
            guard bytes == downloadBytes else { throw BenchError("Wick download: \(bytes) bytes") }
            return growth
        }
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        let start = monotonicNanoseconds()
        try blocking {
            var unsampled = 0
            for index in 1...count {
                let bytes = try await download(index, &unsampled)
                guard bytes == downloadBytes else { throw BenchError("Wick download: \(bytes) bytes") }
            }
        }
        return Round(
            wallNanoseconds: monotonicNanoseconds() - start, cpuNanoseconds: processCPUNanoseconds() - cpu,
            allocations: AllocationCounter.allocations - allocations, heapBytes: growth)
    }

    /// Bytes allocated from malloc now (`mallinfo2`).
    static func heapBytes() -> Int { Int(bench_heap_bytes()) }

    private func notes(pinning: String) -> [String] {
        [
            "nginx 1.22 (one worker, `/bytes/1k` and `/bytes/10m` served from files) from `TestServers`, started and stopped by the suite; \(pinning). Clients run in alternation: \(rounds) rounds per workload after a warm-up of up to 64 requests each, each round starting one client further on in the list (so no client always runs first, after the async-http-client process and wrk); per round each client does \(Format.grouped(sequentialPerRound)) sequential GETs, \(Format.grouped(concurrentPerRound)) concurrent GETs, or \(downloadsPerRound) downloads. Rates are medians of the per-round rates (wall time); a ratio is the median of the per-round ratios (above 1: Wick is faster). Client CPU is the client process's user + system time (`CLOCK_PROCESS_CPUTIME_ID`, every thread) per request, median over the rounds.",
            "Wick: one `Session` per workload over plain HTTP (`maximumConnectionsPerHost` 1 for the sequential and download workloads, \(lanes) for the concurrent one; `eventLoopCount` 1 or 2; `maximumResponseBodyBytes` 16 MiB for downloads). Async: one task awaits `session.request(url).serializingData().value` in a loop (the round waits for the task on a semaphore); callback: `responseData { }` on the session's `responseQueue`, the calling thread waiting on a semaphore per request; concurrent: \(lanes) child tasks of a task group, each awaiting its requests in turn. On the loop: the same task (or child tasks) with `withTaskExecutorPreference(session.taskExecutor)` (`addTask(executorPreference:)`), so each request starts and completes on Wick's loop thread with no hop to Swift's pool; an API any user can take. Busy polling: a second sequential `Session` with `busyPollDuration` \(Self.busyPollMicroseconds) µs, the same two async forms (its loop, and a task waiting inline for its response, poll for up to that long before they sleep; with requests back to back the client's core is busy throughout, so its CPU per request is its wall time per request). Each checks the body's length. Allocations per request: every `malloc`/`calloc`/`realloc`/`posix_memalign`... of the whole process during Wick's round (its loop thread, Swift's concurrency pool, Dispatch) divided by the requests, counted by wick-bench's malloc interposer.",
            "URLSession: swift-corelibs-foundation's (FoundationNetworking, libcurl underneath), an ephemeral configuration without cache, in wick-bench's process: a data task per GET waited for on a semaphore (sequential, downloads), or \(lanes) chains of data tasks with `httpMaximumConnectionsPerHost` \(lanes) (concurrent).",
            "libcurl \(CurlClient.version.split(separator: " ").prefix(2).joined(separator: " ")): sequential and downloads on one reused easy handle (keep-alive; the write callback counts and discards the body, so it never holds a whole download); concurrent: one multi handle with \(lanes) easy handles, each re-added when its transfer ends (`CURLMOPT_MAXCONNECTS` \(lanes + 16)).",
            "async-http-client 1.37 in a child process (`wick-bench-peers`, Benchmarks/Peers), one `MultiThreadedEventLoopGroup` thread, a plain-HTTP `HTTPClient` per pool size: futures `execute(request:).wait()` (sequential, downloads; the body collected in a `ByteBuffer`), async/await `execute(_:timeout:)` + `body.collect(upTo:)` from a task (sequential), and \(lanes) chained futures on a pool of \(lanes) connections (concurrent). Its latencies are its own per-round percentiles, medians over the rounds; Wick's and libcurl's are percentiles over all rounds' samples.",
            "Download memory: growth of malloc's in-use bytes (`mallinfo2`) from the start of the round to just after its first download returns, the body still held (Wick's `Data`, AHC's `ByteBuffer`), median over the rounds; not a peak (a transient copy freed before the download returns is not seen). libcurl discards the body as it streams, so its figure is what it keeps, not a buffered body; a second libcurl handle keeps it, as its getinmemory.c example does (`realloc` by each write's size, then copy; freed after the GET), for the row that compares `serializingData()` with a libcurl user who wants the body. Wick's stream (`session.streamRequest(url).streamingData()`, each chunk counted and dropped, the default buffering policy) is sampled after every chunk of the round's first download: the most growth seen, close to a peak. Wick's sampled download is one more per round, made before the timed ones and not counted in their rate, CPU or allocations (sampling after every chunk slowed the timed stream).",
            "wrk 4.1 (`wrk -t1 -c1` or `-c\(lanes)`, `-d1s --latency`, one run per round after the other clients, pinned to CPU 1 like them) is the ceiling: a C load generator that parses as little as it can. Its latencies are its own p50 and p99, medians over the rounds.",
            "Wick and libcurl run inside wick-bench, whose malloc counter adds an atomic increment to every malloc and free; AHC runs in its own process without it.",
        ]
    }
}

/// What a `responseData` callback saw; written before the semaphore is signalled, read after.
final class CallbackOutcome: @unchecked Sendable {
    var bodyBytes = 0
}

/// Runs `body` on Swift's concurrency pool and blocks this (non-pool) thread until it ends.
/// - Throws: what `body` throws.
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    try blockingResult(body)
}

/// Runs `body` on Swift's concurrency pool, blocks this thread until it ends, and returns its value.
/// - Throws: what `body` throws.
func blockingResult<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// The result of a `blockingResult` body, written before the semaphore is signalled, read after.
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
