// A backend in an outage (every request answered 503), and what clients send it: with a plain
// RetryPolicy every failure is retried to the limit; with a RetryBudget, retries are capped at a
// share of the traffic.
import Foundation
import Synchronization
import Wick
import WickTestSupport

/// `wick-bench retry-storm [SECONDS] [CLIENTS]`: CLIENTS tasks each send GETs in a loop to a
/// fault server that answers every request `503` (keep-alive), through a Session whose
/// `RetryPolicy` retries up to 3 times (10 ms backoff, full jitter), for SECONDS without and then
/// with `retryBudget = RetryBudget()` (ratio 0.2, 10 retries/s). Prints requests and attempts
/// (what the backend receives) per second, and attempts per request.
enum RetryStormProbe {
    /// Requests finished and attempts they made, shared by the client tasks.
    final class Tally: Sendable {
        let counts = Mutex((requests: 0, attempts: 0))
    }

    static func run(seconds: Int, clients: Int) throws {
        let outage = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n".utf8)
        let server = try FaultServer(connectionTimeLimit: .seconds(seconds * 3 + 30), recordsReceivedBytes: false) { _ in
            [.repeating([.readRequest, .send(outage)], times: 1_000_000)]
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/"
        print("\(clients) clients sending GETs for \(seconds) s to a backend answering every request 503:")
        print("retry budget     requests/s   attempts/s   attempts per request   retries refused")
        for budgeted in [false, true] {
            var configuration = Session.Configuration()
            configuration.proxy = .none
            configuration.maximumConnectionsPerHost = clients
            let budget = RetryBudget()
            if budgeted { configuration.retryBudget = budget }
            let session = Session(
                configuration: configuration,
                interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.01, jitter: .full))
            let tally = Tally()
            let deadline = ContinuousClock.now + .seconds(seconds)
            try blocking {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<clients {
                        group.addTask {
                            while ContinuousClock.now < deadline {
                                let request = session.request(url).validate()
                                _ = await request.serializingData().response
                                let attempts = request.retryCount + 1
                                tally.counts.withLock { $0.requests += 1; $0.attempts += attempts }
                            }
                        }
                    }
                }
                await session.shutdown()
            }
            let (requests, attempts) = tally.counts.withLock { $0 }
            print(
                (budgeted ? "ratio 0.2, 10/s" : "none").padding(toLength: 15, withPad: " ", startingAt: 0)
                    + String(
                        format: "%12.0f %12.0f %22.2f %17d", Double(requests) / Double(seconds),
                        Double(attempts) / Double(seconds), Double(attempts) / Double(max(requests, 1)),
                        budget.statistics.retriesRefused))
        }
    }
}
