// A dependency in an outage and the clients calling it at a steady rate: what the backend
// receives and when it recovers, what the clients' successful requests wait, per retry
// configuration (none; RetryPolicy; with jitter; honouring Retry-After; with a RetryBudget).
import Foundation
import Synchronization
import Wick

/// `wick-bench retry-storm [OUTAGE_SECONDS] [RATE] [--results FILE]`: clients start RATE GETs a
/// second (200 by default; open loop: a new request never waits for an earlier one) to an
/// `OutageBackend` that is healthy for 2 s, answers every request `503` with `Retry-After: 1` for
/// OUTAGE_SECONDS (30 by default, the scenario: about 5 minutes for the six setups), then
/// recovers once it receives at most 1.5 × RATE requests a second. Each setup gets a new backend
/// and session and runs 2 s + the outage + 10 s. Prints, and writes as the `retry-storm` section
/// of FILE: requests the backend received per second during the outage (and per request the
/// clients started then), retries the budget refused, how long after the outage the backend
/// recovered (while the clients still sent: once they stop, any backend recovers), and the p50
/// and p99 latency of the requests that succeeded (from their start, retries included).
enum RetryStormProbe {
    /// One way the clients retry.
    struct Setup {
        let name: String
        let policy: RetryPolicy?
        let budget: RetryBudget?
    }

    /// Retries up to 3 times, backoff 50 ms doubling: the storm's worst case once the outage
    /// outlasts them.
    static func policy(jitter: RetryPolicy.Jitter, honoursRetryAfter: Bool) -> RetryPolicy {
        RetryPolicy(
            retryLimit: 3, exponentialBackoffScale: 0.05, jitter: jitter,
            maximumRetryAfter: honoursRetryAfter ? RetryPolicy.defaultMaximumRetryAfter : nil)
    }

    static var setups: [Setup] {
        [
            Setup(name: "no retries", policy: nil, budget: nil),
            Setup(
                name: "RetryPolicy, no jitter, Retry-After ignored",
                policy: policy(jitter: .none, honoursRetryAfter: false), budget: nil),
            Setup(name: "+ full jitter", policy: policy(jitter: .full, honoursRetryAfter: false), budget: nil),
            Setup(name: "+ Retry-After honoured", policy: policy(jitter: .full, honoursRetryAfter: true), budget: nil),
            Setup(
                name: "+ RetryBudget() (ratio 0.2, 10/s)", policy: policy(jitter: .full, honoursRetryAfter: true),
                budget: RetryBudget()),
            Setup(
                name: "RetryBudget(), jitter, Retry-After ignored",
                policy: policy(jitter: .full, honoursRetryAfter: false),
                budget: RetryBudget()),
        ]
    }

    /// Each request's outcome, shared by the request tasks.
    final class Outcomes: Sendable {
        let values = Mutex<(successes: [Duration], failures: Int, startedInOutage: Int)>(([], 0, 0))
    }

    static let lead = Duration.seconds(2)
    static let after = Duration.seconds(10)

    static func run(outageSeconds: Int, rate: Int, resultsFile: URL?) throws {
        let outage = Duration.seconds(outageSeconds)
        let capacity = rate * 3 / 2
        var table = ResultTable(
            suite: "retry-storm",
            title: "A dependency in a \(outageSeconds) s outage (503, Retry-After: 1), clients at \(rate) requests/s",
            columns: [
                "retries", "backend requests/s in the outage", "per request started", "retries refused by the budget",
                "backend recovered after the outage", "requests succeeded", "p50 ms of successes",
                "p99 ms of successes",
            ])
        table.notes = [
            "`wick-bench retry-storm \(outageSeconds) \(rate)`: open-loop clients (a request starts every "
                + "\(1_000 / rate) ms whatever the earlier ones do) through one `Session` per row; a fault server healthy "
                + "for 2 s, answering every request 503 with `Retry-After: 1` for \(outageSeconds) s, then healthy only "
                + "once at most \(capacity) requests arrived in the last second (1.5 × the clients' rate: a recovering "
                + "service that a retry storm knocks over again). Each row runs 2 s + the outage + 10 s.",
            "`RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.05)`: 50, 100, 200 ms between attempts; "
                + "\"Retry-After ignored\" is `maximumRetryAfter: nil`. Counts are the figures to trust; the "
                + "latencies are wall-clock on a shared VM.",
        ]
        for setup in setups {
            let row = try measure(setup, outage: outage, rate: rate, capacity: capacity)
            print(row.joined(separator: " | "))
            table.rows.append(row)
        }
        print(table.plainText)
        if let resultsFile { try table.write(into: resultsFile) }
    }

    /// One row: the setup's clients against a new backend.
    static func measure(_ setup: Setup, outage: Duration, rate: Int, capacity: Int) throws -> [String] {
        let start = ContinuousClock.now + .milliseconds(200)
        let backend = try OutageBackend(
            start: start, lead: lead, outage: outage, retryAfterSeconds: 1, capacity: capacity,
            lifetime: lead + outage + after + .seconds(120))
        defer { backend.stop() }
        var configuration = Session.Configuration()
        configuration.proxy = .none
        configuration.maximumConnectionsPerHost = 32
        configuration.retryBudget = setup.budget
        let session = Session(configuration: configuration, interceptor: setup.policy)
        let url = "http://127.0.0.1:\(backend.port)/"
        let outcomes = Outcomes()
        let interval = Duration.seconds(1) / rate
        let total = Int((lead + outage + after) / interval)
        try blocking {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<total {
                    let due = start + interval * index
                    try? await Task.sleep(until: due, clock: .continuous)
                    let inOutage = due >= backend.outageStart && due < backend.outageEnd
                    group.addTask {
                        let sent = ContinuousClock.now
                        let response = await session.request(url).validate().serializingData().response
                        let latency = ContinuousClock.now - sent
                        outcomes.values.withLock {
                            if response.error == nil { $0.successes.append(latency) } else { $0.failures += 1 }
                            if inOutage { $0.startedInOutage += 1 }
                        }
                    }
                }
            }
            await session.shutdown()
        }
        let seen = backend.seen
        let (successes, _, startedInOutage) = outcomes.values.withLock { $0 }
        let sorted = successes.sorted()
        func milliseconds(_ percentile: Double) -> String {
            guard !sorted.isEmpty else { return "—" }
            let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * percentile).rounded(.up)) - 1))
            return String(format: "%.1f", sorted[index] / .milliseconds(1))
        }
        // Recovery counts while the clients still send: once they stop, any backend recovers.
        let recovered = seen.recovered.map { max(.zero, $0 - backend.outageEnd) }.flatMap { $0 < after ? $0 : nil }
            .map { String(format: "%.2f s", $0 / .seconds(1)) }
        return [
            setup.name,
            String(format: "%.0f", Double(seen.duringOutage) / (outage / .seconds(1))),
            String(format: "%.2f", Double(seen.duringOutage) / Double(max(startedInOutage, 1))),
            setup.budget.map { "\($0.statistics.retriesRefused)" } ?? "—",
            recovered ?? "not while they sent (\(Int(after / .seconds(1))) s)",
            "\(sorted.count) of \(total)",
            milliseconds(0.5), milliseconds(0.99),
        ]
    }
}
