// Allocations per whole request through `Session`, against an in-process server that allocates
// nothing per request: the allocation gate's end-to-end figure, cheap enough for Scripts/test.
import Dispatch
import Foundation
import Wick

/// Counts the process's allocations over sequential keep-alive GETs through a `Session`.
enum SessionAllocations {
    /// Requests measured per form, after a warm-up.
    static let requests = 500

    /// Allocations per request: `async` (`serializingData().value`) and `callback` (`responseData`)
    /// over HTTP/1.1, `observed.async` (`async` with metrics and tracing on), and `h2c.async` over
    /// HTTP/2.
    /// - Throws: `SocketError` if the server cannot listen, `BenchError` or `WickError` if a request fails.
    static func perRequest() throws -> [String: Double] {
        let server = try FixedResponseServer()
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        _ = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: 50)
        _ = try RequestsBenchmark.wickSequentialCallback(session, url: url, count: 50)
        let async = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: requests)
        let callback = try RequestsBenchmark.wickSequentialCallback(session, url: url, count: requests)
        let http2 = try http2PerRequest()
        return [
            "async": Double(async.allocations) / Double(requests),
            "callback": Double(callback.allocations) / Double(requests),
            "observed.async": try observedPerRequest(),
            "h2c.async": http2,
        ]
    }

    /// Allocations per sequential async request with metrics and tracing on, as
    /// `Scripts/bench integrations` measures them (`MetricsMonitor` into swift-metrics' no-op
    /// factory, `TracingMonitor`, a `TracingInterceptor` with the no-op tracer per request).
    private static func observedPerRequest() throws -> Double {
        let server = try FixedResponseServer()
        guard let setting = IntegrationCost.settings.last, setting.tracesRequests else {
            throw BenchError("observed allocations: the last integration setting is not metrics + tracing")
        }
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        setting.configure(&configuration)
        let session = Session(configuration: configuration, eventMonitors: setting.monitors)
        defer { try? blocking { await session.shutdown() } }
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        _ = try IntegrationCost.measure(session, url: url, count: 50, traced: true)
        let (allocations, _) = try IntegrationCost.measure(session, url: url, count: requests, traced: true)
        return Double(allocations) / Double(requests)
    }

    /// Allocations per sequential async request over HTTP/2 (h2c with prior knowledge) to an
    /// in-process server that allocates nothing per request.
    private static func http2PerRequest() throws -> Double {
        let server = try FixedHTTP2ResponseServer()
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.http2PriorKnowledge = true
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        _ = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: 50)
        let protocolUsed = try blockingResult {
            await session.request(url).serializingData().response.metrics?.last.httpVersion
        }
        guard protocolUsed == .http2 else {
            throw BenchError("h2c allocations: the response came over \(String(describing: protocolUsed))")
        }
        let round = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: requests)
        return Double(round.allocations) / Double(requests)
    }

    /// Runs `requests` sequential async requests to `given` (nil: an in-process server's
    /// `/bytes/1k`), from Swift's pool and then with the task on Wick's loop, and prints the rate,
    /// CPU and allocations per request; with `given`, libcurl's figures for the same requests too
    /// (one reused easy handle), so a quick A/B has its peer beside it. An https `given` is
    /// trusted through `WICK_PKI_DIR`'s root, by both clients.
    /// - Throws: as `perRequest`.
    /// `only`: "pool", "loop" or "curl" runs that form alone (for `perf record` or `strace`);
    /// "pool-no-inline-wait" runs the pool's form with `inlineResponseWait` off, and
    /// `WICK_BENCH_INLINE_WAIT_US` in the environment sets that budget in microseconds.
    /// `http2PriorKnowledge`: a cleartext `given` (nil: an in-process HTTP/2 server) is spoken
    /// to in HTTP/2 (h2c), for the HTTP/2 path's figures (libcurl's are then HTTP/1.1's).
    static func profile(requests: Int, url given: String?, only: String? = nil, http2PriorKnowledge: Bool = false)
        throws
    {
        let port: UInt16? =
            given != nil
            ? nil : http2PriorKnowledge ? try FixedHTTP2ResponseServer().port : try FixedResponseServer().port
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.http2PriorKnowledge = http2PriorKnowledge
        if only == "pool-no-inline-wait" { configuration.inlineResponseWait = nil }
        if let budget = ProcessInfo.processInfo.environment["WICK_BENCH_INLINE_WAIT_US"].flatMap(Int.init) {
            configuration.inlineResponseWait = .microseconds(budget)
        }
        if let poll = ProcessInfo.processInfo.environment["WICK_BENCH_BUSY_POLL_US"].flatMap(Int.init) {
            configuration.busyPollDuration = .microseconds(poll)
        }
        let caFile = try given.map(trustRootFile(for:)) ?? ""
        if !caFile.isEmpty {
            let pem = try String(contentsOfFile: caFile, encoding: .utf8)
            configuration.trustRoots = .certificates(try Certificate.chain(pemEncoded: pem))
        }
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let url = given ?? "http://127.0.0.1:\(port ?? 0)/bytes/1k"
        let poolForm = only == "pool-no-inline-wait" ? "pool-no-inline-wait" : "pool"
        for onLoop in [false, true] where only == nil || only == (onLoop ? "loop" : poolForm) {
            let round = try RequestsBenchmark.wickSequentialAsync(
                session, url: url, count: requests, executor: onLoop ? session.taskExecutor : nil)
            report("profile-session\(onLoop ? " (task on the loop)" : "")", round, requests: requests)
        }
        guard let given, only == nil || only == "curl" else { return }
        let curl = try CurlClient(
            .init(url: given, caFile: caFile, tlsVersion: 13, newConnectionPerRequest: false, sessionCache: false))
        _ = try curl.get()
        let allocations = AllocationCounter.allocations
        let cpu = processCPUNanoseconds()
        let start = monotonicNanoseconds()
        var latencies: [UInt64] = []
        latencies.reserveCapacity(requests)
        for _ in 0..<requests {
            let begin = monotonicNanoseconds()
            _ = try curl.get()
            latencies.append(monotonicNanoseconds() - begin)
        }
        let round = RequestsBenchmark.Round(
            wallNanoseconds: monotonicNanoseconds() - start, cpuNanoseconds: processCPUNanoseconds() - cpu,
            allocations: AllocationCounter.allocations - allocations, latencies: latencies)
        report("profile-session (libcurl)", round, requests: requests)
    }

    /// The test root's PEM file for an https `url` (`WICK_PKI_DIR`'s `root.pem`), or "" for
    /// plain HTTP.
    /// - Throws: `BenchError` when `url` is https and `WICK_PKI_DIR` is not set.
    private static func trustRootFile(for url: String) throws -> String {
        guard url.hasPrefix("https:") else { return "" }
        guard let directory = ProcessInfo.processInfo.environment["WICK_PKI_DIR"] else {
            throw BenchError("an https URL needs WICK_PKI_DIR (the test servers' PKI)")
        }
        return directory + "/root.pem"
    }

    /// Runs `requests` sequential async requests from an ordinary task after making the
    /// session's loops Swift's global executor (`Session.unsafeInstallLoopsAsGlobalExecutor`),
    /// and prints the rate, CPU and allocations per request.
    /// - Throws: as `perRequest`, or `BenchError` when the hook cannot be installed.
    static func profileWithLoopsAsGlobalExecutor(requests: Int, url given: String?) throws {
        let server = given == nil ? try FixedResponseServer() : nil
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        let session = Session(configuration: configuration)
        guard session.unsafeInstallLoopsAsGlobalExecutor() else {
            throw BenchError("the loops could not be installed as the global executor")
        }
        let url = given ?? "http://127.0.0.1:\(server?.port ?? 0)/bytes/1k"
        let round = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: requests)
        report("profile-session (loops as the global executor)", round, requests: requests)
    }

    /// Runs `requests` GETs to `url` from `streams` child tasks at once through one session with
    /// one connection (HTTP/2 over TLS with ALPN when `url` is https and `trustRoots` is given,
    /// h2c with prior knowledge otherwise), on Swift's pool (`only` "pool") or on the loop
    /// ("loop"), and prints the rate, CPU and allocations per request: the multiplexed `http2`
    /// workloads without their peers, for `perf record` and callgrind ("pool-no-inline-wait": the
    /// pool's form with `inlineResponseWait` off). `http1`: HTTP/1.1 (over TLS for an https
    /// `url`) on `streams` connections instead (the `requests` suite's concurrent workload).
    /// - Throws: as `perRequest`.
    static func profileStreams(requests: Int, streams: Int, url: String, only: String?, http1: Bool = false) throws {
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = http1 ? streams : 1
        configuration.http2MaximumConcurrentStreams = max(streams, 100)
        configuration.eventLoopCount = 1
        configuration.proxy = .none
        if only == "pool-no-inline-wait" { configuration.inlineResponseWait = nil }
        if url.hasPrefix("https:") {
            guard let directory = ProcessInfo.processInfo.environment["WICK_PKI_DIR"] else {
                throw BenchError("profile-streams over TLS needs WICK_PKI_DIR (the test servers' PKI)")
            }
            let pem = try String(contentsOfFile: directory + "/root.pem", encoding: .utf8)
            configuration.trustRoots = .certificates(try Certificate.chain(pemEncoded: pem))
            configuration.httpVersion = http1 ? .http1Only : .http2Only
        } else {
            configuration.http2PriorKnowledge = !http1
        }
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        _ = try RequestsBenchmark.wickConcurrent(session, url: url, lanes: streams, count: streams * 4)
        let poolForm = only == "pool-no-inline-wait" ? "pool-no-inline-wait" : "pool"
        for onLoop in [false, true] where only == nil || only == (onLoop ? "loop" : poolForm) {
            let round = try RequestsBenchmark.wickConcurrent(
                session, url: url, lanes: streams, count: requests, executor: onLoop ? session.taskExecutor : nil)
            report("profile-streams \(streams)\(onLoop ? " (tasks on the loop)" : "")", round, requests: requests)
        }
    }

    /// Prints `label`'s round of `requests`: the rate, CPU and allocations per request.
    /// Prints a round's rate, CPU and allocations per request, and its latencies (mean, p50, p90,
    /// p99, p99.9 in µs) when it timed each request: the mean beside the median says how much of
    /// the rate a tail costs.
    private static func report(_ label: String, _ round: RequestsBenchmark.Round, requests: Int) {
        let seconds = Double(round.wallNanoseconds) / 1e9
        var latency = ""
        if !round.latencies.isEmpty {
            let sorted = round.latencies.map { Double($0) / 1_000 }.sorted()
            let mean = sorted.reduce(0, +) / Double(sorted.count)
            let marks = [0.5, 0.9, 0.99, 0.999].map { String(Int(percentile(sorted, $0))) }
            latency = "; latency µs mean \(Int(mean)), p50 / p90 / p99 / p99.9 " + marks.joined(separator: " / ")
        }
        print(
            "\(label): \(requests) requests, \(Int(Double(requests) / seconds)) per second, "
                + "\(round.cpuNanoseconds / UInt64(requests) / 1_000) µs CPU and "
                + "\(Double(round.allocations) / Double(requests)) allocations per request" + latency)
    }
}
