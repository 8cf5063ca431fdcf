// The backend of the retry-storm scenario: healthy, then in an outage (503 with Retry-After),
// then healthy again once the load it receives falls within its capacity; it counts what it receives.
import Foundation
import Synchronization
import WickTestSupport

/// A fault server playing a dependency in an outage. Before `outageStart` it answers `200`;
/// from `outageStart` to `outageEnd` every request gets `503` with `Retry-After`; after
/// `outageEnd` it answers `503` still while more than `capacity` requests arrived in the last
/// second (a service that comes back under a retry storm falls over again, the metastable
/// failure budgets exist for), and `200` from the first moment the load is within it (then for
/// good). Keep-alive throughout.
final class OutageBackend: Sendable {
    /// What the backend saw, for the report.
    struct Counts {
        /// Requests that arrived between `outageStart` and `outageEnd`.
        var duringOutage = 0
        /// Requests that arrived in all.
        var total = 0
        /// When the first `200` after `outageEnd` was answered; nil while it has not recovered.
        var recovered: ContinuousClock.Instant?
        /// Arrivals per 100 ms slot since `start`, for the last second's load.
        var slots: [Int] = []
    }

    /// The counts, shared by the connections' threads.
    final class Tally: Sendable {
        let counts = Mutex(Counts())
    }

    /// The slot arrivals are counted in.
    static let slot = Duration.milliseconds(100)

    let outageStart: ContinuousClock.Instant
    let outageEnd: ContinuousClock.Instant
    private let tally: Tally
    private let server: FaultServer

    /// Listens at once; the outage runs from `start + lead` for `outage`, and the server keeps
    /// its connections for up to `lifetime`.
    init(
        start: ContinuousClock.Instant, lead: Duration, outage: Duration, retryAfterSeconds: Int, capacity: Int,
        lifetime: Duration
    ) throws {
        let (outageStart, outageEnd) = (start + lead, start + lead + outage)
        self.outageStart = outageStart
        self.outageEnd = outageEnd
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let unavailable = Array(
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(retryAfterSeconds)\r\nContent-Length: 0\r\n\r\n".utf8)
        let tally = Tally()
        self.tally = tally
        let responder = FaultResponder { _ in
            let now = ContinuousClock.now
            let healthy = tally.counts.withLock { counts in
                counts.total += 1
                let slot = max(0, Int((now - start) / Self.slot))
                if counts.slots.count <= slot {
                    counts.slots += Array(repeating: 0, count: slot + 1 - counts.slots.count)
                }
                counts.slots[slot] += 1
                if now < outageStart { return true }
                if now < outageEnd {
                    counts.duringOutage += 1
                    return false
                }
                if counts.recovered != nil { return true }
                let lastSecond = counts.slots[max(0, slot - 9)...slot].reduce(0, +)
                guard lastSecond <= capacity else { return false }
                counts.recovered = now
                return true
            }
            return [.send(healthy ? ok : unavailable)]
        }
        server = try FaultServer(connectionTimeLimit: lifetime, recordsReceivedBytes: false) { _ in
            [.repeating([.answer(responder)], times: 10_000_000)]
        }
    }

    /// The port it listens on at 127.0.0.1.
    var port: Int { server.port }

    /// What it saw so far.
    var seen: Counts { tally.counts.withLock { $0 } }

    /// Stops listening and ends every connection.
    func stop() { server.stop() }
}
