// wick-bench: Wick's benchmarks beside their peers, measured in the same run.
//
//   wick-bench [parser|decoders|reactor|hpack|cookies|all] [--rounds N] [--round-ms MS] [--wall-clock]
//              [--no-callgrind] [--results FILE]
//   wick-bench tls [--rounds N] [--peers PATH] [--results FILE]
//                                     TLS against a local nginx beside libcurl and, with --peers
//                                     (the wick-bench-peers executable), async-http-client
//   wick-bench transfers [--rounds N] [--results FILE]
//                                     a large file downloaded and uploaded beside libcurl, URLSession
//   wick-bench profile-session [COUNT] [URL] [pool|loop|curl]
//                                     sequential Session requests to URL (https: trusting
//                                     WICK_PKI_DIR's root), else to an in-process server (for perf)
//   wick-bench profile-session-global-executor [COUNT] [URL]
//                                     the same with the session's loops as the global executor
//   wick-bench profile-streams [COUNT] [STREAMS] URL [pool|loop] [http1]
//                                     COUNT GETs from STREAMS tasks on one HTTP/2 connection (for perf)
//   wick-bench requests [--rounds N] [--peers PATH] [--results FILE]
//                                     whole requests through Session against a local nginx
//                                     beside libcurl and, with --peers, async-http-client
//   wick-bench http2 [--rounds N] [--peers PATH] [--results FILE]
//                                     GETs over one HTTP/2 connection (TLS) against a local nginx,
//                                     16, 64 and 128 streams at once and sequential, and 10 MiB
//                                     downloads, beside libcurl, h2load and, with --peers,
//                                     async-http-client
//   wick-bench load --wick PATH [--rounds N] [--results FILE]
//                                     `wick bench` (PATH: the release-built `wick`) beside wrk
//                                     (HTTP/1.1) and h2load (HTTP/2 over TLS) against a local nginx
//   wick-bench openapi --peers PATH [--rounds N] [--results FILE]
//                                     the OpenAPI client generated for WickOpenAPITests on
//                                     WickClientTransport beside AsyncHTTPClientTransport, against
//                                     a local nginx (PATH: Benchmarks/Peers' wick-bench-openapi)
//   wick-bench cost [--rounds N] [--keep-callgrind DIR] [--results FILE]
//                                     one sequential keep-alive request's instructions, L1 cache
//                                     misses, CPU time and allocations split by layer, Wick beside
//                                     libcurl
//   wick-bench cache [--rounds N]     a fresh cache hit and a 304 revalidation through Session
//                                     beside the network, against an in-process server
//   wick-bench retry-storm [OUTAGE_SECONDS] [RATE] [--results FILE]
//                                     a dependency in an outage (503, Retry-After) and clients at
//                                     a steady rate, per retry setup (RetryPolicy, jitter,
//                                     Retry-After, RetryBudget)
//   wick-bench check-allocations      exits 1 when a steady-state allocation count exceeds
//                                     Thresholds/allocations.json
//   wick-bench self-test              checks that the allocation counter counts
//   wick-bench callgrind-probe SUITE  (internal: run under valgrind by the suites)
import Foundation

/// The command line, parsed.
struct Options {
    var command = "all"
    var rest: [String] = []
    var rounds = RoundRobin()
    var callgrind = true
    var resultsFile: URL?
    /// Where the cost suite keeps its callgrind dumps (`--keep-callgrind DIR`).
    var keptProfiles: URL?
    /// Rounds given with `--rounds` (the tls suite has its own default).
    var explicitRounds: Int?
    /// The peer's executable: `wick-bench-peers` (async-http-client) for the tls, requests,
    /// http2 and transfers suites, `wick-bench-openapi` for the openapi suite.
    var peersExecutable: String?
    /// The release-built `wick` executable, for the load suite (`--wick`).
    var wickExecutable: String?

    init(_ arguments: [String]) throws {
        var arguments = arguments[...]
        if let first = arguments.first, !first.hasPrefix("-") {
            command = first
            arguments = arguments.dropFirst()
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
                    throw UsageError("--rounds needs a positive count")
                }
                rounds.rounds = value
                explicitRounds = value
            case "--round-ms":
                guard let value = arguments.popFirst().flatMap(UInt64.init), value > 0 else {
                    throw UsageError("--round-ms needs a positive count")
                }
                rounds.roundNanoseconds = value * 1_000_000
            case "--peers":
                guard let value = arguments.popFirst() else { throw UsageError("--peers needs an executable") }
                peersExecutable = value
            case "--wick":
                guard let value = arguments.popFirst() else { throw UsageError("--wick needs an executable") }
                wickExecutable = value
            case "--wall-clock":
                rounds.usesWallClock = true
            case "--no-callgrind":
                callgrind = false
            case "--keep-callgrind":
                guard let value = arguments.popFirst() else { throw UsageError("--keep-callgrind needs a folder") }
                keptProfiles = URL(fileURLWithPath: value)
            case "--results":
                guard let value = arguments.popFirst() else { throw UsageError("--results needs a file") }
                resultsFile = URL(fileURLWithPath: value)
            default:
                rest.append(argument)
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs one suite and prints (and optionally records) its table.
func runSuite(_ suite: String, _ options: Options) throws {
    let table: ResultTable
    switch suite {
    case "parser":
        let benchmark = try ParserBenchmark()
        let instructions =
            options.callgrind && InstructionCounter.isAvailable
            ? InstructionCounter.measure(suite: "parser") : nil
        table = benchmark.run(rounds: options.rounds, instructions: instructions)
    case "decoders":
        let benchmark = try DecoderBenchmark()
        let instructions =
            options.callgrind && InstructionCounter.isAvailable
            ? InstructionCounter.measure(suite: "decoders") : nil
        table = benchmark.run(rounds: options.rounds, instructions: instructions)
    case "reactor":
        table = try ReactorBenchmark().run()
    case "hpack":
        table = HPACKBenchmark().run(rounds: options.rounds)
    case "cookies":
        let instructions =
            options.callgrind && InstructionCounter.isAvailable
            ? InstructionCounter.measure(suite: "cookies") : nil
        table = CookieBenchmark().run(rounds: options.rounds, instructions: instructions)
    case "tls":
        var benchmark = TLSBenchmark()
        benchmark.peersExecutable = options.peersExecutable
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "transfers":
        var benchmark = TransfersBenchmark()
        benchmark.peersExecutable = options.peersExecutable
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "http2":
        var benchmark = HTTP2Benchmark()
        benchmark.peersExecutable = options.peersExecutable
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "load":
        guard let wickExecutable = options.wickExecutable else { throw UsageError("load needs --wick PATH") }
        var benchmark = LoadBenchmark(wickExecutable: wickExecutable)
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "cost":
        var benchmark = CostBenchmark()
        benchmark.keptProfiles = options.keptProfiles
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "openapi":
        var benchmark = OpenAPIBenchmark()
        benchmark.executable = options.peersExecutable
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    case "requests":
        var benchmark = RequestsBenchmark()
        benchmark.peersExecutable = options.peersExecutable
        if let rounds = options.explicitRounds { benchmark.rounds = rounds }
        table = try benchmark.run()
    default:
        throw UsageError("unknown suite \(suite)")
    }
    print(table.plainText)
    if let file = options.resultsFile {
        try table.write(into: file)
    }
}

/// The workloads a suite measures under callgrind.
func probeWorkloads(_ suite: String, _ arguments: [String]) throws -> (workloads: [Workload], operations: Int) {
    switch suite {
    case "cost": return (try CostBenchmark.probeWorkloads(arguments), CostBenchmark.profiledRequests)
    case "parser": return (try ParserBenchmark().workloads, 2000)
    case "decoders": return (try DecoderBenchmark().workloads, 3)
    case "cookies": return (CookieBenchmark().cases.map(\.workload), 2000)
    case "integrations": return (try IntegrationCost.probeWorkloads(), IntegrationCost.probedRequests)
    default: throw UsageError("no callgrind probe for \(suite)")
    }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case "self-test":
        let ok = AllocationCounter.selfTest()
        print("allocation counter: \(ok ? "counts" : "DOES NOT COUNT")")
        exit(ok ? 0 : 1)
    case "check-allocations":
        exit(try AllocationCheck.run() ? 0 : 1)
    case "cache":
        guard AllocationCounter.selfTest() else { throw UsageError("the allocation counter does not count") }
        try CacheBenchmark.run(rounds: options.explicitRounds ?? 5, requests: 2_000)
    case "profile-session":
        // For `perf record`: sequential async requests through Session against the in-process
        // server, nothing else (no peers, no table).
        let count = Int(options.rest.first ?? "") ?? 100_000
        try SessionAllocations.profile(
            requests: count, url: options.rest.dropFirst().first, only: options.rest.dropFirst(2).first)
    case "profile-session-h2c":
        // The same over HTTP/2 with prior knowledge: to a cleartext h2c URL (nginx's or
        // nghttpd's), or `-` for the allocation gate's in-process server.
        let count = Int(options.rest.first ?? "") ?? 100_000
        let url = options.rest.dropFirst().first.flatMap { $0 == "-" ? nil : $0 }
        try SessionAllocations.profile(
            requests: count, url: url, only: options.rest.dropFirst(2).first ?? "pool", http2PriorKnowledge: true)
    case "profile-streams":
        // The multiplexed HTTP/2 workloads alone: COUNT GETs from STREAMS tasks to URL (https with
        // WICK_PKI_DIR's root, or h2c), "pool" or "loop" (no peers, no table).
        let count = Int(options.rest.first ?? "") ?? 100_000
        let streams = Int(options.rest.dropFirst().first ?? "") ?? 16
        guard let url = options.rest.dropFirst(2).first else { throw UsageError("profile-streams needs a URL") }
        try SessionAllocations.profileStreams(
            requests: count, streams: streams, url: url, only: options.rest.dropFirst(3).first,
            http1: options.rest.dropFirst(4).first == "http1")
    case "profile-download-h2c":
        // 10 MiB downloads over HTTP/2 with prior knowledge to a cleartext h2c URL: rate, CPU and
        // allocations per download (no table).
        let count = Int(options.rest.first ?? "") ?? 20
        guard let url = options.rest.dropFirst().first else { throw UsageError("profile-download-h2c needs a URL") }
        try DownloadProbe.runHTTP2(count: count, url: url)
    case "profile-session-global-executor":
        // The same from an ordinary task with the session's loops as Swift's global executor
        // (a process-wide switch, hence a command of its own).
        let count = Int(options.rest.first ?? "") ?? 100_000
        try SessionAllocations.profileWithLoopsAsGlobalExecutor(requests: count, url: options.rest.dropFirst().first)
    case "integrations":
        // What logging, metrics and tracing cost a request, enabled and disabled (no table).
        guard AllocationCounter.selfTest() else { throw UsageError("the allocation counter does not count") }
        try IntegrationCost.run()
    case "profile-downloads":
        // A quick A/B of the 10 MiB download paths beside libcurl (no table).
        try DownloadProbe.run(
            rounds: Int(options.rest.first ?? "") ?? 5, perRound: Int(options.rest.dropFirst().first ?? "") ?? 10,
            only: options.rest.dropFirst(2).first)
    case "tls-restart":
        // A restarted client's first TLS connections, with and without a session file (no table).
        try TLSRestartProbe.run(
            rounds: Int(options.rest.first ?? "") ?? 5, connections: Int(options.rest.dropFirst().first ?? "") ?? 32)
    case "retry-storm":
        // A dependency in an outage: what it receives and when it recovers, per retry setup.
        try RetryStormProbe.run(
            outageSeconds: Int(options.rest.first ?? "") ?? 30, rate: Int(options.rest.dropFirst().first ?? "") ?? 200,
            resultsFile: options.resultsFile)
    case "hedge-tail":
        // Tail latency behind a slow replica, with and without hedged requests (no table).
        try HedgeTailProbe.run(
            requests: Int(options.rest.first ?? "") ?? 2_000, clients: Int(options.rest.dropFirst().first ?? "") ?? 4)
    case "session-churn":
        // Heap and descriptors left behind by sessions created, used and shut down (no table).
        try SessionChurnProbe.run(sessions: Int(options.rest.first ?? "") ?? 2_000)
    case "callgrind-probe":
        guard let suite = options.rest.first else { throw UsageError("callgrind-probe needs a suite") }
        let probe = try probeWorkloads(suite, Array(options.rest.dropFirst()))
        InstructionCounter.probe(probe.workloads, operations: probe.operations)
    case "all":
        guard AllocationCounter.selfTest() else { throw UsageError("the allocation counter does not count") }
        for suite in ["parser", "decoders", "reactor"] { try runSuite(suite, options) }
    case "parser", "decoders", "reactor", "hpack", "cookies", "tls", "requests", "http2", "load", "transfers", "cost",
        "openapi":
        guard AllocationCounter.selfTest() else { throw UsageError("the allocation counter does not count") }
        try runSuite(options.command, options)
    default:
        throw UsageError("unknown command \(options.command)")
    }
} catch {
    FileHandle.standardError.write(Data("wick-bench: \(error)\n".utf8))
    exit(2)
}
