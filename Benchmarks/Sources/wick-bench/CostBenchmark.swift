// The `cost` suite: what one sequential keep-alive request costs, split by layer, beside libcurl.
import CBenchSupport
import Foundation
import Glibc
import Wick
import WickTLS
import WickTestSupport

/// CPU per request split by layer (kernel, scheduling, reactor, codec, pool, transport, TLS,
/// session) and allocations per request, for Wick's plain async API and for libcurl, over HTTP and
/// HTTPS against one local nginx. Instructions, simulated level-1 cache misses and allocations
/// per layer come from callgrind (exact and repeatable); user and system CPU time from
/// `getrusage` over timed rounds; a layer's CPU time is the user time apportioned by its share of
/// the instructions.
struct CostBenchmark {
    /// Timed rounds per client; the median is reported.
    var rounds = 5
    /// Sequential requests per client per timed round.
    var requestsPerRound = 2_000
    /// Requests per workload under callgrind (after a tenth as many to warm up).
    static let profiledRequests = 1_000
    /// Where to keep each client's callgrind dump (`--keep-callgrind DIR`), for `callgrind_annotate`.
    var keptProfiles: URL?

    /// The probe's workloads in the callgrind child: `arguments` are the HTTP URL, the HTTPS URL
    /// and the test root's PEM file, as the parent passes them.
    static func probeWorkloads(_ arguments: [String]) throws -> [Workload] {
        guard arguments.count == 3 else { throw UsageError("callgrind-probe cost needs HTTP-URL HTTPS-URL CA-FILE") }
        let clients = try Clients(httpURL: arguments[0], httpsURL: arguments[1], caFile: arguments[2])
        return CostClient.allCases.map { kind in
            Workload(name: kind.rawValue) { count in
                do { try clients.run(kind, count) } catch { fatalError("cost probe \(kind.rawValue): \(error)") }
                return count
            }
        }
    }

    func run() throws -> ResultTable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-cost-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw BenchError("nginx did not start") }
        let httpURL = "http://127.0.0.1:\(nginx.httpPort)/bytes/1k"
        let httpsURL = "https://127.0.0.1:\(nginx.httpsPort)/bytes/1k"
        let caFile = pki.root.certificate.path

        var pinning = "not pinned (one CPU)"
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            pinning =
                try NginxProcesses.pin(master: nginx.process.pid, cpu: 0) != nil
                ? "nginx pinned to CPU 0, the clients (this thread, Wick's loop, Swift's pool) to CPU 1"
                : "nginx not pinned (no taskset)"
            _ = bench_pin_current_thread(1)
        }

        // Timed rounds first: the threads Wick and Swift's pool start inherit CPU 1.
        let clients = try Clients(httpURL: httpURL, httpsURL: httpsURL, caFile: caFile)
        defer { clients.shutdown() }
        var times: [CostClient: [CPUTime]] = [:]
        for kind in CostClient.allCases { try clients.run(kind, 100) }
        for _ in 0..<rounds {
            for kind in CostClient.allCases {
                let before = CPUTime.process
                try clients.run(kind, requestsPerRound)
                times[kind, default: []].append((CPUTime.process - before) / requestsPerRound)
            }
        }

        guard InstructionCounter.isAvailable,
            let dumps = InstructionCounter.dumps(
                suite: "cost", arguments: [httpURL, httpsURL, caFile],
                valgrindOptions: ["--separate-callers=16", "--cache-sim=yes", "--dump-instr=yes"],
                keepingIn: keptProfiles)
        else { throw BenchError("the cost suite needs valgrind and objcopy (Scripts/bench installs them)") }

        var table = ResultTable(
            suite: "cost",
            title: "What one sequential keep-alive GET 1 KiB costs, by layer (lower is better)",
            columns: [
                "layer", "Wick instructions", "Wick share", "Wick CPU µs", "Wick L1 misses", "Wick code lines",
                "Wick allocations", "libcurl instructions", "libcurl CPU µs", "libcurl L1 misses", "libcurl code lines",
                "libcurl allocations",
            ])
        for (wick, curl, title) in [
            (CostClient.wickHTTP, CostClient.curlHTTP, "HTTP"), (.wickHTTPS, .curlHTTPS, "HTTPS"),
        ] {
            guard let wickDump = dumps[wick.rawValue], let curlDump = dumps[curl.rawValue] else {
                throw BenchError("callgrind wrote no dump for \(title)")
            }
            let wickCost = LayerCost(dump: wickDump, time: median(times[wick] ?? []))
            let curlCost = LayerCost(dump: curlDump, time: median(times[curl] ?? []))
            table.rows.append(["**\(title)**", "", "", "", "", "", "", "", "", "", "", ""])
            table.rows.append(
                [
                    "kernel (system calls, loopback TCP)", "—", "—", Format.fixed(wickCost.time.systemMicroseconds, 1),
                    "—", "—", "—", "—", Format.fixed(curlCost.time.systemMicroseconds, 1), "—", "—", "—",
                ])
            for layer in CostLayer.allCases
            where wickCost.instructions(layer) + curlCost.instructions(layer) + wickCost.l1Misses(layer) > 0
                || wickCost.codeLines(layer) + curlCost.codeLines(layer) > 0
            {
                table.rows.append(
                    [
                        layer.rawValue, Format.grouped(Int(wickCost.instructions(layer))),
                        Format.fixed(100 * wickCost.share(layer), 1) + " %",
                        Format.fixed(wickCost.microseconds(layer), 1),
                        Format.grouped(Int(wickCost.l1Misses(layer))), Format.grouped(wickCost.codeLines(layer)),
                        Format.fixed(wickCost.allocations(layer), 1),
                        Format.grouped(Int(curlCost.instructions(layer))),
                        Format.fixed(curlCost.microseconds(layer), 1),
                        Format.grouped(Int(curlCost.l1Misses(layer))), Format.grouped(curlCost.codeLines(layer)),
                        Format.fixed(curlCost.allocations(layer), 1),
                    ])
            }
            table.rows.append(
                [
                    "total (CPU: user + system)", Format.grouped(Int(wickCost.totalInstructions)), "100 %",
                    Format.fixed(wickCost.time.userMicroseconds + wickCost.time.systemMicroseconds, 1),
                    Format.grouped(Int(wickCost.totalL1Misses)), Format.grouped(wickCost.totalCodeLines),
                    Format.fixed(wickCost.totalAllocations, 1),
                    Format.grouped(Int(curlCost.totalInstructions)),
                    Format.fixed(curlCost.time.userMicroseconds + curlCost.time.systemMicroseconds, 1),
                    Format.grouped(Int(curlCost.totalL1Misses)), Format.grouped(curlCost.totalCodeLines),
                    Format.fixed(curlCost.totalAllocations, 1),
                ])
            table.rows.append(
                [
                    "user CPU ns per code line", "", "", Format.fixed(wickCost.userNanosecondsPerCodeLine, 1), "", "",
                    "",
                    "", Format.fixed(curlCost.userNanosecondsPerCodeLine, 1), "", "", "",
                ])
        }
        table.notes = [
            "nginx 1.22 (one worker, `/bytes/1k` from a file) from `TestServers`; \(pinning). Wick: one `Session` (`maximumConnectionsPerHost` 1), one ordinary task awaiting `session.request(url).serializingData()` in a loop (HTTPS: `.response`, trusting the test root only); libcurl \(CurlClient.version.split(separator: " ").prefix(2).joined(separator: " ")): one reused easy handle. Every request is checked (status, 1,024 body bytes).",
            "Instructions and allocations per request: \(Format.grouped(Self.profiledRequests)) requests per client under `valgrind --tool=callgrind --separate-callers=16 --cache-sim=yes` after \(Self.profiledRequests / 10) to warm up, every thread of the process. Each instruction is charged to the nearest function on its calling chain that belongs to a layer (a Wick module by its mangled name; OpenSSL, zlib, libcurl, Swift's concurrency runtime, Dispatch and Foundation by their shared object), so `swift_retain`, `malloc` or `memcpy` called from the codec count as the codec's; allocations are calls into malloc, calloc, realloc and the aligned allocators, charged the same way.",
            "L1 misses: callgrind's simulated level-1 instruction and data caches (32 KiB, 64-byte lines, 8-way, as on this CPU), instruction-fetch, read and write misses added up, charged like the instructions. The simulation runs the process's code alone: what the kernel evicts during a system call is not in it, so the real figures are higher for both clients. A miss costs about a dozen cycles when the next level has the line; where two clients run about as many instructions, the one with more misses takes longer, which is what the CPU µs column shows.",
            "Code lines: the 64-byte lines of code holding an instruction that ran in at least every other request (callgrind's `--dump-instr=yes`), each charged to the layer of the function it holds, so the Swift runtime's, the standard library's and the C library's lines are a row of their own. They predict a sequential request's user time better than the instructions do: between two requests the kernel's network path, the wake-up and the other threads evict the level-1 caches, so each line a request runs through is fetched again from the next level. In the twenty-fifth session's measurements the same 52,700 instructions of a Wick request took 12.8 µs of user time with 64 requests in flight (each line then serves many requests in a row) and 43.6 µs one after another; sequentially, Wick and libcurl spend about the same user time per line within a run (the last row), so the client with more lines takes longer.",
            "CPU µs: user and system time of the whole process (`getrusage`), median of \(rounds) rounds of \(Format.grouped(requestsPerRound)) requests per client in alternation. The kernel row is the system time; a layer's figure is the user time times its share of the user-space instructions, an estimate (layers differ in instructions per cycle), where the instruction counts are exact.",
        ]
        return table
    }
}

/// The cost suite's four clients; the raw value names the callgrind dump.
enum CostClient: String, CaseIterable {
    case wickHTTP = "wick-http"
    case curlHTTP = "libcurl-http"
    case wickHTTPS = "wick-https"
    case curlHTTPS = "libcurl-https"
}

/// The cost suite's clients, made once and reused across rounds (keep-alive).
private final class Clients {
    let session: Session
    let httpsSession: SessionHTTPSClient
    let curlHTTP: CurlClient
    let curlHTTPS: CurlClient
    let httpURL: String

    init(httpURL: String, httpsURL: String, caFile: String) throws {
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.proxy = .none
        session = Session(configuration: configuration)
        let roots = try Certificate.chain(pemEncoded: String(contentsOfFile: caFile, encoding: .utf8))
        httpsSession = SessionHTTPSClient(roots: roots, url: httpsURL, mode: .keepAlive)
        curlHTTP = try CurlClient(
            .init(url: httpURL, caFile: "", tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false))
        curlHTTPS = try CurlClient(
            .init(url: httpsURL, caFile: caFile, tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false))
        self.httpURL = httpURL
    }

    /// `count` sequential GETs by `kind`'s client.
    /// - Throws: `BenchError` or `WickError` when a response is not the expected one.
    func run(_ kind: CostClient, _ count: Int) throws {
        switch kind {
        case .wickHTTP: _ = try RequestsBenchmark.wickSequentialAsync(session, url: httpURL, count: count)
        case .wickHTTPS: _ = try httpsSession.run(count)
        case .curlHTTP: for _ in 0..<count { _ = try curlHTTP.get() }
        case .curlHTTPS: for _ in 0..<count { _ = try curlHTTPS.get() }
        }
    }

    func shutdown() {
        let session = session
        try? blocking { await session.shutdown() }
        httpsSession.shutdown()
    }
}

/// User and system CPU time of this process.
struct CPUTime {
    var userMicroseconds: Double
    var systemMicroseconds: Double

    /// Now, from `getrusage(RUSAGE_SELF)` (every thread).
    static var process: CPUTime {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return CPUTime(userMicroseconds: microseconds(usage.ru_utime), systemMicroseconds: microseconds(usage.ru_stime))
    }

    static func - (lhs: CPUTime, rhs: CPUTime) -> CPUTime {
        CPUTime(
            userMicroseconds: lhs.userMicroseconds - rhs.userMicroseconds,
            systemMicroseconds: lhs.systemMicroseconds - rhs.systemMicroseconds)
    }

    static func / (lhs: CPUTime, rhs: Int) -> CPUTime {
        CPUTime(
            userMicroseconds: lhs.userMicroseconds / Double(rhs),
            systemMicroseconds: lhs.systemMicroseconds / Double(rhs))
    }
}

/// The median of each of user and system time (each on its own).
func median(_ times: [CPUTime]) -> CPUTime {
    CPUTime(
        userMicroseconds: median(times.map(\.userMicroseconds)),
        systemMicroseconds: median(times.map(\.systemMicroseconds)))
}

/// One client's request cost by layer: callgrind's instructions and allocations per request, and
/// its measured CPU time per request.
private struct LayerCost {
    let time: CPUTime
    private let perLayer: [CostLayer: UInt64]
    private let missesPerLayer: [CostLayer: UInt64]
    private let allocationsPerLayer: [CostLayer: UInt64]
    private let codeLinesPerLayer: [CostLayer: Int]
    private let requests: Double
    let totalInstructions: Double
    let totalL1Misses: Double
    let totalAllocations: Double
    /// Lines of code a request runs through (an instruction in it ran in at least every other
    /// request).
    let totalCodeLines: Int

    init(dump: (operations: Double, text: String), time: CPUTime) {
        let profile = CallgrindProfile(text: dump.text)
        let costs = profile.costs(by: { CostLayer.of(function: $0, object: $1) }, unplaced: .unplaced)
        self.time = time
        perLayer = costs.instructions
        missesPerLayer = costs.l1Misses
        allocationsPerLayer = costs.allocations
        requests = dump.operations
        totalInstructions = Double(profile.totalInstructions) / dump.operations
        totalL1Misses = Double(profile.totalL1Misses) / dump.operations
        totalAllocations = Double(costs.allocations.values.reduce(0, +)) / dump.operations
        codeLinesPerLayer = profile.codeLines(
            runAtLeast: UInt64(max(1, dump.operations / 2)), by: { CostLayer.of(function: $0, object: $1) },
            unplaced: .sharedCode)
        totalCodeLines = codeLinesPerLayer.values.reduce(0, +)
    }

    func instructions(_ layer: CostLayer) -> Double { Double(perLayer[layer] ?? 0) / requests }
    func l1Misses(_ layer: CostLayer) -> Double { Double(missesPerLayer[layer] ?? 0) / requests }
    func allocations(_ layer: CostLayer) -> Double { Double(allocationsPerLayer[layer] ?? 0) / requests }
    func codeLines(_ layer: CostLayer) -> Int { codeLinesPerLayer[layer] ?? 0 }
    /// User time per line of code run through: what a line costs when each request fetches it again.
    var userNanosecondsPerCodeLine: Double {
        totalCodeLines > 0 ? 1_000 * time.userMicroseconds / Double(totalCodeLines) : 0
    }
    func share(_ layer: CostLayer) -> Double { totalInstructions > 0 ? instructions(layer) / totalInstructions : 0 }
    func microseconds(_ layer: CostLayer) -> Double { time.userMicroseconds * share(layer) }
}
