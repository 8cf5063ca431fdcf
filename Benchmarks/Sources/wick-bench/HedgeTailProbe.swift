// A backend with a slow replica (1 request in 20 takes 200 ms more), and the latency clients
// see: without hedging the slow requests are the p99; with a HedgingPolicy a second attempt
// after a short delay cuts them off.
import Foundation
import Synchronization
import Wick
import WickTestSupport

/// `wick-bench hedge-tail [REQUESTS] [CLIENTS]`: CLIENTS tasks send REQUESTS GETs in all to a
/// fault server that answers every request at once (keep-alive), through a Session whose
/// `FaultInjector` (seed 1) holds 1 response in 20 back for 200 ms, the slow replica. Runs
/// without hedging, with `HedgingPolicy()` (the host's p95, 10 % budget) and with a fixed 20 ms
/// delay; prints p50, p90, p99 and the worst latency, requests per second, and hedges sent and
/// won.
enum HedgeTailProbe {
    /// Every request's latency, shared by the client tasks.
    final class Latencies: Sendable {
        let values = Mutex<[Duration]>([])
    }

    static func run(requests: Int, clients: Int) throws {
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let server = try FaultServer(connectionTimeLimit: .seconds(600), recordsReceivedBytes: false) { _ in
            [.repeating([.readRequest, .send(ok)], times: 1_000_000)]
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/"
        print("\(clients) clients, \(requests) GETs, 1 in 20 responses held back 200 ms (FaultInjector, seed 1):")
        print("hedging            p50 ms   p90 ms   p99 ms   max ms   requests/s   hedges sent   won")
        let policies: [(String, HedgingPolicy?)] = [
            ("none", nil), ("p95 (default)", HedgingPolicy()), ("fixed 20 ms", HedgingPolicy(delay: .fixed(.milliseconds(20)))),
        ]
        for (name, policy) in policies {
            var configuration = Session.Configuration()
            configuration.proxy = .none
            configuration.maximumConnectionsPerHost = clients * 2
            configuration.hedging = policy
            configuration.faultInjector = FaultInjector(
                seed: 1, rules: [FaultRule(.latency(.fixed(.milliseconds(200))), fraction: 0.05)])
            let session = Session(configuration: configuration)
            let latencies = Latencies()
            let started = ContinuousClock.now
            try blocking {
                await withTaskGroup(of: Void.self) { group in
                    for client in 0..<clients {
                        group.addTask {
                            for _ in stride(from: client, to: requests, by: clients) {
                                let sent = ContinuousClock.now
                                _ = await session.request(url).serializingData().response
                                let latency = ContinuousClock.now - sent
                                latencies.values.withLock { $0.append(latency) }
                            }
                        }
                    }
                }
                await session.shutdown()
            }
            let elapsed = ContinuousClock.now - started
            let sorted = latencies.values.withLock { $0 }.sorted()
            func milliseconds(_ percentile: Double) -> Double {
                let index = min(sorted.count - 1, Int((Double(sorted.count) * percentile).rounded(.up)) - 1)
                let (seconds, attoseconds) = sorted[max(0, index)].components
                return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
            }
            let statistics = policy?.statistics ?? HedgingPolicy.Statistics()
            print(
                name.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8.1f %8.1f %8.1f %8.1f %12.0f %13d %5d", milliseconds(0.5), milliseconds(0.9),
                        milliseconds(0.99), milliseconds(1), Double(sorted.count) / elapsed.seconds,
                        statistics.hedgesSent, statistics.hedgesWon))
        }
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
