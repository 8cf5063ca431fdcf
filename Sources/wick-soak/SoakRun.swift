// Runs the soak: starts nginx and the fault server, drives the requests, samples, and checks.
import Foundation
import Wick
import WickTestSupport

/// One soak run against nginx and the in-process fault server at once.
struct SoakRun: Sendable {
    let options: SoakOptions
    /// The client's idle timeout; the fault server's stalls last half a second past it.
    static let idleTransferTimeout = Duration.seconds(1)

    /// What the run saw.
    struct Report {
        let counts: SoakLedger.Counts
        let samples: [SoakSample]
        let elapsed: Duration
        let growth: [SoakGrowth]
        /// Non-idempotent requests a server saw more than once, by id.
        let repeatedPOSTs: [String]
        /// Successes a server has no record of receiving.
        let unseenSuccesses: Int
    }

    /// Starts the servers, sends the requests, stops everything it started.
    /// - Throws: `TestSupportError` if a server cannot start, or a file cannot be written.
    func run() async throws -> Report {
        let servers = try TestServers(directory: options.output.appendingPathComponent("servers"), selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw SoakUsageError("nginx did not start") }
        let payloads = SoakPayloads()
        let backend = SoakFaultBackend(
            stall: Self.idleTransferTimeout + .milliseconds(500), payloads: payloads, requests: options.requests)
        let responder = backend.responder()
        let faultServer = try FaultServer(connectionTimeLimit: .seconds(24 * 3600), recordsReceivedBytes: false) { _ in
            [.repeating([.answer(responder)], times: 1_000_000)]
        }
        defer { faultServer.stop() }

        var configuration = Session.Configuration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: pki.root.certificate, encoding: .utf8))
        ])
        configuration.maximumConnectionsPerHost = options.concurrency
        configuration.requestTimeout = .seconds(30)
        configuration.idleTransferTimeout = Self.idleTransferTimeout
        let session = Session(configuration: configuration)
        let bases: [SoakCase.Server: String] = [
            .nginxHTTP: "http://127.0.0.1:\(nginx.httpPort)", .nginxHTTPS: "https://localhost:\(nginx.httpsPort)",
            .fault: "http://127.0.0.1:\(faultServer.port)",
        ]

        let plan = SoakPlan(faultRate: options.faultRate, seed: options.seed, payloads: payloads)
        let ledger = SoakLedger(requests: options.requests)
        let started = ContinuousClock.now
        let stopAt = options.duration.map { started + $0 }
        let sampler = Task {
            var samples: [SoakSample] = []
            // Bounded: one sample a second until cancelled, at most a year's worth.
            for _ in 0..<(366 * 86_400) where !Task.isCancelled {
                let seconds = Double((ContinuousClock.now - started).components.seconds)
                samples.append(await SoakSample.take(at: seconds, session: session, completed: ledger.counts.completed))
                try? await Task.sleep(for: .seconds(1))
            }
            return samples
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    // Bounded by the ledger: it issues each of `options.requests` indices once.
                    while stopAt.map({ ContinuousClock.now < $0 }) ?? true, let index = ledger.issueNext() {
                        await send(plan.request(index), index: index, base: bases, session: session, ledger: ledger, backend: backend)
                    }
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        // Two more seconds of samples after the last request: what is left once traffic stops.
        try? await Task.sleep(for: .seconds(2))
        sampler.cancel()
        let samples = await sampler.value
        await session.shutdown()

        let log = try NginxAccessLog(contentsOf: nginx.accessLog)
        let serverPOSTs = backend.repeated.filter { plan.request($0).method == .post }.map { "soak-\($0)" }
        return Report(
            counts: ledger.counts, samples: samples, elapsed: elapsed, growth: Self.growth(samples),
            repeatedPOSTs: log.repeatedPOSTs + serverPOSTs,
            unseenSuccesses: ledger.nginxSuccesses.filter { log.counts["soak-\($0)"] == nil }.count)
    }

    /// Sends one request and records its outcome.
    private func send(
        _ request: SoakCase, index: Int, base: [SoakCase.Server: String], session: Session, ledger: SoakLedger,
        backend: SoakFaultBackend
    ) async {
        let url = base[request.server]! + request.target
        let headers: HTTPHeaders = ["X-Request-Id": request.id]
        let dataRequest =
            if let body = request.body {
                session.request(url, method: request.method, headers: headers, body: body)
            } else {
                session.request(url, method: request.method, headers: headers)
            }
        let response = await dataRequest.serializingData(emptyResponseCodes: [200, 201, 204]).response
        let timesSeen = request.server == .fault ? backend.timesSeen(index) : 1
        ledger.record(request, index: index, response: response.response, result: response.result, timesSeen: timesSeen)
    }

    /// The verdicts on the sampled figures: descriptors, memory, threads and pool connections.
    static func growth(_ samples: [SoakSample]) -> [SoakGrowth] {
        // The last two samples are taken after traffic stopped; growth is judged under load.
        let loaded = Array(samples.dropLast(2))
        return [
            SoakGrowth("descriptors", loaded.map { Double($0.descriptors) }, share: 0.10, floor: 16),
            SoakGrowth("resident MiB", loaded.map { Double($0.residentBytes) / 1_048_576 }, share: 0.10, floor: 16),
            SoakGrowth("threads", loaded.map { Double($0.threads) }, share: 0.10, floor: 8),
            SoakGrowth("pool connections", loaded.map { Double($0.poolConnections) }, share: 0.10, floor: 8),
        ]
    }
}
