// The `tls` suite: TLS handshakes per second (full and resumed, TLS 1.3 and 1.2), keep-alive GETs
// over HTTPS, the same through Wick's public `Session`, and heap per idle TLS connection, Wick
// beside libcurl and async-http-client against one local nginx in the same run.
import CBenchSupport
import Foundation
import Wick
import WickReactor
import WickTLS
import WickTestSupport
@_spi(WickDirectConnect) import WickTransport

/// Starts nginx (the test PKI, `TestServers`), pins it to CPU 0 and the clients to CPU 1, and
/// runs each workload in alternating rounds: Wick, libcurl, then async-http-client (when its
/// `wick-bench-peers` executable is given).
struct TLSBenchmark {
    /// Rounds per workload; the median is reported.
    var rounds = 7
    /// New connections per client per round.
    var handshakesPerRound = 150
    /// Keep-alive GETs per client per round.
    var requestsPerRound = 1_000
    /// Idle connections opened for the memory workload.
    var idleConnections = 200
    /// The async-http-client peer's executable, or nil to leave it out.
    var peersExecutable: String?
    /// `busyPollDuration` of the busy-polling keep-alive row, in µs (the `requests` suite's).
    static let busyPollMicroseconds = RequestsBenchmark.busyPollMicroseconds

    /// One throughput workload: a step per client that does `count` GETs and returns how many
    /// handshakes resumed.
    private struct Throughput {
        let name: String
        let unit: String
        let wick: (Int) throws -> WickHTTPSClient.Outcome
        let curl: (Int) throws -> Int
        let ahcCommand: String
        let count: Int
        /// Whether resumption is the point (reported for every client).
        let reportsResumption: Bool
        /// The same GETs through `Session`s, each run in the same rounds (between Wick's raw
        /// client and libcurl) and reported on a row of its own named `name`, beside the same
        /// peers.
        var sessions: [(name: String, run: (Int) throws -> SessionHTTPSClient.Outcome)] = []
    }

    func run() throws -> ResultTable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-tls-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw BenchError("nginx did not start") }

        let twoCPUs = ProcessInfo.processInfo.activeProcessorCount >= 2
        var pinning = "not pinned (one CPU)"
        let workers = NginxProcesses.processes(master: nginx.process.pid).dropFirst()
        if twoCPUs {
            if let pids = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0) {
                pinning = "nginx's \(pids.count) processes (master and worker) pinned to CPU 0 with `taskset -p`"
            } else {
                pinning = "nginx not pinned (no taskset)"
            }
            // Threads made from here on (Wick's loop, the peer process) inherit CPU 1.
            _ = bench_pin_current_thread(1)
            pinning += "; the clients (this thread, Wick's loop, the async-http-client process) pinned to CPU 1"
        }

        let host = "127.0.0.1"
        let port = UInt16(nginx.httpsPort)
        let url = "https://\(host):\(port)/bytes/1k"
        let caFile = pki.root.certificate.path
        let roots = try Certificate.chain(pemEncoded: String(contentsOf: pki.root.certificate, encoding: .utf8))

        let group = try EventLoopGroup(configuration: .init(threadCount: 1, name: "bench-loop"))
        defer { group.shutdownGracefully() }
        let loop = group.loops[0]
        // Connections open by the transport's path (`TransportConnector`), without the pool.
        let connector = TransportConnector(connector: Connector(resolver: group.resolver))
        func wickContext(_ version: TLSVersion, resumes: Bool) throws -> TLSContext {
            var configuration = TLSConfiguration()
            configuration.trustRoots = .certificates(roots)
            configuration.minimumVersion = version
            configuration.maximumVersion = version
            configuration.resumesSessions = resumes
            return try TLSContext(configuration: configuration)
        }
        func wickClient(_ version: TLSVersion, resumes: Bool, mode: WickHTTPSClient.Mode) throws -> WickHTTPSClient {
            try WickHTTPSClient(
                connector: connector, context: try wickContext(version, resumes: resumes), loop: loop, host: host,
                port: port, mode: mode)
        }
        // The idle connections share one context, as a pool's connections to one origin do.
        let idleContext = try wickContext(.v1_3, resumes: false)
        func curlClient(_ version: Int, sessionCache: Bool, newConnection: Bool) throws -> CurlClient {
            try CurlClient(
                .init(
                    url: url, caFile: caFile, tlsVersion: version, newConnectionPerRequest: newConnection,
                    sessionCache: sessionCache))
        }
        func curlLoop(_ client: CurlClient) -> (Int) throws -> Int {
            { count in
                var resumed = 0
                for _ in 0..<count where try client.get() { resumed += 1 }
                return resumed
            }
        }

        let wickFull13 = try wickClient(.v1_3, resumes: false, mode: .newConnectionPerRequest)
        let wickResumed13 = try wickClient(.v1_3, resumes: true, mode: .newConnectionPerRequest)
        let wickFull12 = try wickClient(.v1_2, resumes: false, mode: .newConnectionPerRequest)
        let wickKeepAlive = try wickClient(.v1_3, resumes: true, mode: .keepAlive)
        defer { wickKeepAlive.close() }
        // Whole requests through the public API: one session per mode, trusting the test root.
        let sessionNew = SessionHTTPSClient(roots: roots, url: url, mode: .newConnectionPerRequest)
        let sessionKeepAlive = SessionHTTPSClient(roots: roots, url: url, mode: .keepAlive)
        let sessionPolling = SessionHTTPSClient(
            roots: roots, url: url, mode: .keepAlive, busyPollDuration: .microseconds(Self.busyPollMicroseconds))
        defer { for client in [sessionNew, sessionKeepAlive, sessionPolling] { client.shutdown() } }
        // Every thread made so far (Wick's loops, Dispatch's and Swift's concurrency pools) and
        // from now on (the peer process) runs on CPU 1.
        if twoCPUs, FileManager.default.isExecutableFile(atPath: NginxProcesses.taskset) {
            try runCommand(NginxProcesses.taskset, ["-a", "-p", "-c", "1", String(getpid())])
            pinning +=
                "; then every thread of wick-bench (the `Session`s' loops, Swift's concurrency pool and Dispatch's included) with `taskset -a -p`"
        }
        let peer = try peersExecutable.map {
            try PeerProcess(executable: $0, baseURL: "https://\(host):\(port)", caFile: caFile)
        }
        defer { peer?.stop() }
        let workloads = [
            Throughput(
                name: "new TLS 1.3 connection per request, full handshake + GET 1 KiB", unit: "handshakes/s",
                wick: { try wickFull13.run($0) },
                curl: curlLoop(try curlClient(13, sessionCache: false, newConnection: true)),
                ahcCommand: "new 1.3", count: handshakesPerRound, reportsResumption: true),
            Throughput(
                name: "new TLS 1.3 connection per request, resumed session + GET 1 KiB", unit: "handshakes/s",
                wick: { try wickResumed13.run($0) },
                curl: curlLoop(try curlClient(13, sessionCache: true, newConnection: true)),
                ahcCommand: "new 1.3", count: handshakesPerRound, reportsResumption: true,
                sessions: [
                    (
                        "new HTTPS connection per request through `Session` (`Connection: close`), TLS 1.3 resumed "
                            + "(Session's default) + GET 1 KiB",
                        { try sessionNew.run($0) }
                    )
                ]),
            Throughput(
                name: "new TLS 1.2 connection per request, full handshake + GET 1 KiB", unit: "handshakes/s",
                wick: { try wickFull12.run($0) },
                curl: curlLoop(try curlClient(12, sessionCache: false, newConnection: true)),
                ahcCommand: "new 1.2", count: handshakesPerRound, reportsResumption: true),
            Throughput(
                name: "sequential keep-alive GET 1 KiB over HTTPS (TLS 1.3, one connection)", unit: "requests/s",
                wick: { try wickKeepAlive.run($0) },
                curl: curlLoop(try curlClient(13, sessionCache: true, newConnection: false)),
                ahcCommand: "keepalive", count: requestsPerRound, reportsResumption: false,
                sessions: [
                    (
                        "sequential keep-alive GET 1 KiB over HTTPS through `Session` (async, TLS 1.3, one connection)",
                        { try sessionKeepAlive.run($0) }
                    ),
                    (
                        "the same through `Session` with busy polling \(Self.busyPollMicroseconds) µs (opt-in `busyPollDuration`)",
                        { try sessionPolling.run($0) }
                    ),
                ]),
        ]

        var table = ResultTable(
            suite: "tls",
            title: "TLS against a local nginx (higher is better, except memory)",
            columns: [
                "workload", "Wick", "libcurl", "AHC (futures)", "Wick ÷ libcurl", "Wick ÷ AHC",
                "client CPU µs per request (Wick / libcurl / AHC)", "nginx CPU µs per request (same order)",
                "resumed (Wick / libcurl / AHC)", "Wick allocations per request",
            ])
        let worker = workers.count == 1 ? workers.first : nil
        for workload in workloads {
            table.rows += try measure(workload, peer: peer, nginxWorker: worker)
        }
        table.rows.append(
            try idleMemory(
                wickClient: {
                    try WickHTTPSClient(
                        connector: connector, context: idleContext, loop: loop, host: host, port: port, mode: .keepAlive
                    )
                }, url: url, caFile: caFile,
                httpPort: nginx.httpPort, peer: peer))
        table.notes = notes(pinning: pinning)
        return table
    }

    /// Runs `workload` in `rounds` alternating rounds of Wick's raw client, its `Session` form
    /// when the workload has one, libcurl and AHC, each round starting one client further on.
    /// One table row per Wick form, each beside the same peer figures; a ratio is the median of
    /// that form's per-round ratios.
    private func measure(_ workload: Throughput, peer: PeerProcess?, nginxWorker: Int32?) throws -> [[String]] {
        // Warm-up: each client once (contexts, caches, a first session to resume).
        _ = try workload.wick(10)
        for form in workload.sessions { _ = try form.run(10) }
        _ = try workload.curl(10)
        _ = try peer?.send("\(workload.ahcCommand) 10")
        /// One client's per-round figures.
        struct Figures {
            var rates: [Double] = []
            var cpu: [Double] = []
            /// nginx's CPU per request while this client ran.
            var server: [Double] = []
            var allocations: [Double] = []
        }
        var wick = Figures()
        var sessions = [Figures](repeating: Figures(), count: workload.sessions.count)
        var curl = Figures()
        var ahc = Figures()
        func serverNanoseconds() -> UInt64 { nginxWorker.flatMap(NginxProcesses.cpuNanoseconds) ?? 0 }
        /// Runs `step` as one client's round and records its rate, CPU and nginx's CPU.
        func timed<T>(_ figures: inout Figures, _ step: () throws -> T) rethrows -> T {
            let start = monotonicNanoseconds()
            let cpuStart = processCPUNanoseconds()
            let serverStart = serverNanoseconds()
            let outcome = try step()
            figures.rates.append(Double(workload.count) * 1e9 / Double(monotonicNanoseconds() - start))
            figures.cpu.append(Double(processCPUNanoseconds() - cpuStart) / Double(workload.count))
            figures.server.append(Double(serverNanoseconds() - serverStart) / Double(workload.count))
            return outcome
        }
        var wickResumed = 0
        var wickHandshakes = 0
        var sessionConnections = [Int](repeating: 0, count: workload.sessions.count)
        var curlResumed = 0
        let count = workload.count
        // One round of each client, in `rotatedOrder`.
        var clients: [() throws -> Void] = [
            {
                let allocationsBefore = AllocationCounter.allocations
                let outcome = try timed(&wick) { try workload.wick(count) }
                wick.allocations.append(Double(AllocationCounter.allocations - allocationsBefore) / Double(count))
                wickResumed += outcome.resumed
                wickHandshakes += outcome.handshakes
            },
            { curlResumed += try timed(&curl) { try workload.curl(count) } },
        ]
        for (index, form) in workload.sessions.enumerated() {
            clients.insert(
                {
                    let outcome = try timed(&sessions[index]) { try form.run(count) }
                    sessions[index].allocations.append(Double(outcome.allocations) / Double(count))
                    sessionConnections[index] += outcome.connections
                }, at: 1 + index)
        }
        if let peer {
            clients.append {
                let serverStart = serverNanoseconds()
                let values = try peer.send("\(workload.ahcCommand) \(count)")
                ahc.server.append(Double(serverNanoseconds() - serverStart) / Double(count))
                guard values.count == 2 else { throw BenchError("async-http-client peer: \(values)") }
                ahc.rates.append(Double(count) * 1e9 / Double(values[0]))
                ahc.cpu.append(Double(values[1]) / Double(count))
            }
        }
        for round in 0..<rounds {
            for index in rotatedOrder(of: clients.count, round: round) { try clients[index]() }
        }
        let total = count * rounds
        let peersResumption = "\(curlResumed)/\(total) / \(peer == nil ? "—" : "0 (no client cache)")"
        func row(_ name: String, _ figures: Figures, resumption: String) -> [String] {
            func ratio(_ peer: Figures) -> String {
                peer.rates.isEmpty ? "—" : Format.ratio(median(zip(figures.rates, peer.rates).map { $0 / $1 }))
            }
            func microseconds(_ values: [Double]) -> String {
                values.isEmpty ? "—" : Format.grouped(Int(median(values) / 1_000))
            }
            return [
                "\(name), \(workload.unit)",
                Format.grouped(Int(median(figures.rates))),
                Format.grouped(Int(median(curl.rates))),
                ahc.rates.isEmpty ? "—" : Format.grouped(Int(median(ahc.rates))),
                ratio(curl),
                ratio(ahc),
                [figures, curl, ahc].map { microseconds($0.cpu) }.joined(separator: " / "),
                nginxWorker == nil
                    ? "—" : [figures, curl, ahc].map { microseconds($0.server) }.joined(separator: " / "),
                resumption,
                Format.fixed(median(figures.allocations), 1),
            ]
        }
        var rows = [
            row(
                workload.name, wick,
                resumption: workload.reportsResumption ? "\(wickResumed)/\(wickHandshakes) / " + peersResumption : "—")
        ]
        for (index, form) in workload.sessions.enumerated() {
            // The pool's counters show the connections; whether a handshake resumed is not
            // visible through Session's API.
            let connections = "\(sessionConnections[index]) connections for \(total) requests"
            rows.append(
                row(
                    form.name, sessions[index],
                    resumption: workload.reportsResumption
                        ? "not exposed (\(connections)) / " + peersResumption : "— (\(connections))"))
        }
        return rows
    }

    /// Heap growth per idle TLS connection (after a full TLS 1.3 handshake and one GET), counted
    /// by nginx's stub_status; the ratios are the peer's figure divided by Wick's.
    private func idleMemory(
        wickClient: () throws -> WickHTTPSClient, url: String, caFile: String, httpPort: Int, peer: PeerProcess?
    ) throws -> [String] {
        let count = idleConnections
        func perConnection(_ open: () throws -> Void) throws -> (kilobytes: Double, connections: Int) {
            let activeBefore = try NginxProcesses.activeConnections(httpPort: httpPort)
            let heapBefore = Self.heapBytes()
            try open()
            let heapAfter = Self.heapBytes()
            let opened = try NginxProcesses.activeConnections(httpPort: httpPort) - activeBefore
            guard opened > 0 else { throw BenchError("idle memory: nginx saw no new connection") }
            return (Double(heapAfter - heapBefore) / Double(opened) / 1_000, opened)
        }
        // Wick: the client objects (one delegate and parser each) are made before the first
        // reading, so only the connections count; a first connection, not counted, warms the
        // shared context up.
        let warmUp = try wickClient()
        _ = try warmUp.run(1)
        let clients = try (0..<count).map { _ in try wickClient() }
        let wick = try perConnection {
            for client in clients { _ = try client.run(1) }
            // Idle means idle past the delay after which a connection frees OpenSSL's record
            // buffers (`TLSConfiguration.idleBufferReleaseDelay`, one second by default).
            Thread.sleep(forTimeInterval: 1.5)
        }
        for client in clients + [warmUp] { client.close() }
        var curlConnections: [CurlIdleConnections] = []
        let curl = try perConnection {
            curlConnections.append(try CurlIdleConnections(count: count, url: url, caFile: caFile))
        }
        curlConnections.removeAll()
        var ahc: (kilobytes: Double, connections: Int)?
        if let peer {
            let activeBefore = try NginxProcesses.activeConnections(httpPort: httpPort)
            let bytes = try peer.send("idle \(count)")[0]
            let opened = try NginxProcesses.activeConnections(httpPort: httpPort) - activeBefore
            _ = try peer.send("close-idle")
            if opened > 0 { ahc = (Double(bytes) / Double(opened) / 1_000, opened) }
        }
        return [
            "idle TLS 1.3 connection after a full handshake and one GET, KB of heap each (lower is better; "
                + "connections: \(wick.connections) / \(curl.connections) / \(ahc.map { String($0.connections) } ?? "—"))",
            Format.fixed(wick.kilobytes, 1),
            Format.fixed(curl.kilobytes, 1),
            ahc.map { Format.fixed($0.kilobytes, 1) } ?? "—",
            Format.ratio(curl.kilobytes / wick.kilobytes),
            ahc.map { Format.ratio($0.kilobytes / wick.kilobytes) } ?? "—",
            "—",
            "—",
            "—",
            "—",
        ]
    }

    /// Bytes allocated from malloc now, every arena and mmapped blocks included (`mallinfo2`).
    static func heapBytes() -> Int { Int(bench_heap_bytes()) }

    private func notes(pinning: String) -> [String] {
        [
            "nginx 1.22 (one worker, TLS 1.2 and 1.3, session cache and tickets on) from `TestServers`, started and stopped by the suite; \(pinning). Clients run in alternation: \(rounds) rounds per workload, each round starting one client further on in the order Wick, Wick through `Session`, libcurl, AHC (so no client always runs first), each client doing \(handshakesPerRound) new connections (or \(Format.grouped(requestsPerRound)) keep-alive GETs) per round after a warm-up of 10. Figures are medians of the per-round rates (wall time); a ratio is the median of the per-round ratios (above 1: Wick is faster). Client CPU is the client process's user + system time (`CLOCK_PROCESS_CPUTIME_ID`, every thread) per request, median over the rounds; nginx's CPU is its worker's run time (/proc/PID/schedstat) while that client ran, per request.",
            "Every client trusts only the test root (loaded once per client: Wick's `TLSContext`, libcurl's `CURLOPT_CAINFO` on a reused easy handle, AHC's `trustRoots = .file`), verifies the certificate and the address 127.0.0.1, sends `Connection: close` on new-connection workloads and checks the status and the 1,024 body bytes.",
            "Wick: `TransportConnector` (the pool's TLS connect path) + `TLSChannel` on one reactor loop, the request encoder and the response parser (no pool); the client closes after each response (`close_notify`). Full: `resumesSessions = false`; resumed: the `TLSContext` session cache, checked with `TLSChannel.isSessionReused` on every handshake.",
            "Wick through `Session` (the public API; rows named so, each run in the same rounds as the row above it, beside the same peer figures): one `Session` per row with `trustRoots = .certificates([test root])`, `maximumConnectionsPerHost` 1 and `proxy = .none`; one task awaits `session.request(url).serializingData().response` in a loop (the round waits for it on a semaphore) and checks status 200, 1,024 body bytes and TLS 1.3 (`metrics.last.tlsVersion`). The busy-polling keep-alive row: the same with `busyPollDuration` \(Self.busyPollMicroseconds) µs (the loop, and the task waiting for its response, poll that long before they sleep). Keep-alive: `Session.poolStatistics()` shows no connection created in the measured rounds (the warm-up opened it) and every lease but a run's first reused. New connection per request: `Connection: close` among the configuration's `headers` (Session.Configuration has no per-connection request limit), so nginx answers `Connection: close` and closes; every response's `metrics.isReused` is false and the pool counts one connection created and no reuse per request, or the run fails. Session's TLS context always caches sessions (its configuration sets only the trust roots), so its new connections resume TLS 1.3 sessions: the row runs with the resumed workload (libcurl resuming, AHC doing full handshakes); Session does not expose whether a handshake resumed, so the count is not checked (nginx's CPU per request, near the resumed rows' and below the full ones', says it did).",
            "libcurl \(CurlClient.version.split(separator: " ").prefix(2).joined(separator: " ")): one easy handle per workload with `CURLOPT_FRESH_CONNECT` + `CURLOPT_FORBID_REUSE`, `CURLOPT_SSLVERSION` exactly 1.3 or 1.2, `CURLOPT_SSL_SESSIONID_CACHE` off (full) or on (resumed); resumption checked on every transfer by `SSL_session_reused` on the handle's `CURLINFO_TLS_SSL_PTR`, asked from the write callback.",
            "async-http-client 1.37 (futures API, `execute(request:).wait()`, one `MultiThreadedEventLoopGroup` thread) in a child process (`wick-bench-peers`, Benchmarks/Peers): a client per workload with min = max TLS version; `Connection: close` makes its pool open a new connection per request. swift-nio-ssl keeps no client session cache, so AHC never resumes: its \"resumed\" row repeats full handshakes.",
            "Idle memory: \(idleConnections) connections opened (full TLS 1.3 handshake, one keep-alive GET each) and left idle; growth of malloc's in-use bytes (`mallinfo2`: every arena plus mmapped blocks) divided by the connections nginx's stub_status counted. Wick: sequential `TransportConnector` connections sharing one `TLSContext` (warmed up by a connection not counted; each with its benchmark delegate, made before the first reading), read 1.5 s after the last GET, once each connection has been idle past the second after which Wick frees OpenSSL's record buffers (a connection in use keeps them: about 17 KB more each); libcurl: a multi handle's connection cache after the easy handles are freed; AHC: its pool after \(idleConnections) concurrent GETs, measured inside its process. The memory ratios are the peer's KB ÷ Wick's (above 1: Wick holds less).",
            "Wick allocations per request: every `malloc`/`calloc`/`realloc`/`posix_memalign`... of the whole process during Wick's round (its loop thread; for `Session` also Swift's concurrency pool and Dispatch) divided by the requests, counted by wick-bench's malloc interposer; a handshake's thousands are mostly OpenSSL's (certificate parsing and verification).",
            "Wick and libcurl run inside wick-bench, whose malloc counter adds an atomic increment to every malloc and free; AHC runs in its own process without it. Rates are wall time and include nginx's share of each handshake, so on this shared VM they move by 2× between runs; the ratios and the CPU figures move less.",
        ]
    }
}
