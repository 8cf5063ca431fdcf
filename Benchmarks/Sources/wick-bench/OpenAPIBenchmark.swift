// The `openapi` suite: the client swift-openapi-generator made for WickOpenAPITests on Wick's
// `WickClientTransport` beside swift-openapi-async-http-client's `AsyncHTTPClientTransport`,
// against one local nginx, sequential and concurrent, rounds alternating.
import CBenchSupport
import Foundation
import WickTestSupport

/// Starts nginx (`TestServers`, whose `/openapi/get` answers the `echoQuery` operation with a
/// fixed JSON body), pins it to CPU 0 and the client process to CPU 1, and drives
/// `wick-bench-openapi` (Benchmarks/Peers), which runs the same generated client on both
/// transports in one process under one allocation counter.
struct OpenAPIBenchmark {
    /// Rounds per workload; the median is reported.
    var rounds = 11
    /// Sequential calls per transport per round.
    var sequentialPerRound = 2_000
    /// Calls per transport per round in the concurrent workload.
    var concurrentPerRound = 8_000
    /// Tasks (and pooled connections) in the concurrent workload.
    var lanes = 64
    /// The `wick-bench-openapi` executable.
    var executable: String?

    /// One transport's round, as the client process reports it.
    struct Round {
        var wallNanoseconds: UInt64
        var cpuNanoseconds: UInt64
        var allocations: UInt64
    }

    /// - Throws: `BenchError` without the executable, when nginx does not start or a call
    ///   fails; `SocketError` or `TestSupportError` from the servers.
    func run() throws -> ResultTable {
        guard let executable else { throw BenchError("the openapi suite needs --peers PATH of wick-bench-openapi") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-openapi-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx else { throw BenchError("nginx did not start") }

        var pinning = "not pinned (one CPU)"
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            if let pids = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0) {
                pinning =
                    "nginx's \(pids.count) processes pinned to CPU 0 and wick-bench-openapi (every thread) to CPU 1 with `taskset`"
                _ = bench_pin_current_thread(1)
            } else {
                pinning = "not pinned (no taskset)"
            }
        }
        // Started after the pinning, so the child inherits this thread's CPU.
        let client = try PeerProcess(executable: executable, arguments: ["http://127.0.0.1:\(nginx.httpPort)/openapi"])
        defer { client.stop() }
        guard try client.send("self-test") == [1] else {
            throw BenchError("wick-bench-openapi: the counter does not count")
        }

        let sequential = try alternate(
            client, transports: ["wick", "ahc", "memory"], command: { "seq \($0) \($1)" }, count: sequentialPerRound)
        let concurrent = try alternate(
            client, transports: ["wick", "ahc"], command: { "conc \($0) \(lanes) \($1)" }, count: concurrentPerRound)
        var table = ResultTable(
            suite: "openapi",
            title: "A generated OpenAPI client on WickClientTransport and on AsyncHTTPClientTransport (local nginx)",
            columns: [
                "workload", "Wick req/s", "AHC req/s", "Wick ÷ AHC", "client CPU µs per request (Wick / AHC)",
                "allocations per request (Wick / AHC)",
            ])
        table.rows.append(row("sequential `echoQuery` calls, one connection", sequential, count: sequentialPerRound))
        table.rows.append(
            row(
                "\(lanes) tasks calling `echoQuery` at once, \(lanes) connections", concurrent,
                count: concurrentPerRound))
        table.notes = notes(pinning: pinning, alone: sequential["memory"] ?? [])
        return table
    }

    /// Each transport's rounds, by name, alternating (the order rotated every round), after a
    /// warm-up of 64 calls each.
    /// - Throws: `BenchError` when the client process reports an error.
    private func alternate(
        _ client: PeerProcess, transports: [String], command: (String, Int) -> String, count: Int
    ) throws -> [String: [Round]] {
        for transport in transports { try client.send(command(transport, min(count, 64))) }
        var results: [String: [Round]] = [:]
        for round in 0..<rounds {
            let first = round % transports.count
            for transport in transports[first...] + transports[..<first] {
                let values = try client.send(command(transport, count))
                guard values.count == 3 else { throw BenchError("wick-bench-openapi: \(values) for \(transport)") }
                results[transport, default: []].append(
                    Round(wallNanoseconds: values[0], cpuNanoseconds: values[1], allocations: values[2]))
            }
        }
        return results
    }

    /// Calls per second in each round.
    private func rates(_ rounds: [Round], count: Int) -> [Double] {
        rounds.map { Double(count) * 1e9 / Double($0.wallNanoseconds) }
    }

    /// Median CPU µs per call.
    private func cpu(_ rounds: [Round], count: Int) -> String {
        Format.fixed(median(rounds.map { Double($0.cpuNanoseconds) / Double(count) / 1_000 }), 0)
    }

    /// Median allocations per call.
    private func allocations(_ rounds: [Round], count: Int) -> String {
        Format.fixed(median(rounds.map { Double($0.allocations) / Double(count) }), 1)
    }

    /// Rates, their ratio (the median of the per-round ratios), CPU and allocations per call.
    private func row(_ name: String, _ results: [String: [Round]], count: Int) -> [String] {
        let wick = results["wick"] ?? []
        let ahc = results["ahc"] ?? []
        let wickRates = rates(wick, count: count)
        let ahcRates = rates(ahc, count: count)
        return [
            name, Format.grouped(Int(median(wickRates))), Format.grouped(Int(median(ahcRates))),
            Format.ratio(median(zip(wickRates, ahcRates).map { $0 / $1 })),
            cpu(wick, count: count) + " / " + cpu(ahc, count: count),
            allocations(wick, count: count) + " / " + allocations(ahc, count: count),
        ]
    }

    private func notes(pinning: String, alone: [Round]) -> [String] {
        [
            "The generated client and swift-openapi-runtime alone, measured in the same rounds (`MemoryTransport`: the same JSON answered from memory, sequential): \(Format.grouped(Int(median(rates(alone, count: sequentialPerRound))))) calls/s, \(cpu(alone, count: sequentialPerRound)) µs CPU and \(allocations(alone, count: sequentialPerRound)) allocations per call. The rest of each side's figures is its transport and HTTP client.",
            "The client: `Client`, generated by swift-openapi-generator 1.14.3 from Tests/WickOpenAPITests/OpenAPI/openapi.yaml (the files in Tests/WickOpenAPITests/Generated, which wick-bench-openapi compiles through a symlink), its `echoQuery` operation: `GET /openapi/get?greeting=hello`, the JSON answer decoded into `Components.Schemas.Echo` and its greeting checked. The server: nginx 1.22 from `TestServers` (one worker), answering from its configuration with a fixed 81-byte JSON body; \(pinning).",
            "Both transports run in one process (`wick-bench-openapi`, Benchmarks/Peers), one event-loop thread each: Wick `WickClientTransport(session:)` on a `Session` with `eventLoopCount` 1 and `maximumConnectionsPerHost` 1 (sequential) or \(lanes) (concurrent); async-http-client 1.37 through swift-openapi-async-http-client 1.5's `AsyncHTTPClientTransport` on an `HTTPClient` over a one-thread `MultiThreadedEventLoopGroup`, `concurrentHTTP1ConnectionsPerHostSoftLimit` 1 or \(lanes). Sequential: one task calls \(Format.grouped(sequentialPerRound)) times in turn; concurrent: \(lanes) child tasks of a task group share \(Format.grouped(concurrentPerRound)) calls, each calling in turn.",
            "\(rounds) rounds after a warm-up of 64 calls per transport; in each round the transports run one after the other, the order rotated every round. Rates are medians of the per-round rates (wall time); the ratio is the median of the per-round ratios (above 1: Wick is faster). Client CPU is the process's user + system time per call, median over the rounds. Allocations per call count every `malloc`/`calloc`/`realloc`/aligned allocation of the whole process during the round (wick-bench's interposer, CAllocationCounter, linked into wick-bench-openapi), the generated client's own (request building, JSON decoding) included, which both sides share.",
        ]
    }
}
