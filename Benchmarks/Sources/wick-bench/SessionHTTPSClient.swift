// Wick's public API in the `tls` suite: sequential GETs over HTTPS through a `Session`, on one
// kept-alive connection or on a new connection per request (`Connection: close`).
import Wick
import WickTLS

/// A `Session` that trusts only the given roots, with one connection per origin at most, and the
/// GETs it runs for the `tls` suite. Each response is checked (200, 1,024 body bytes, TLS 1.3),
/// and so is the pool afterwards: one connection for every request (keep-alive), or a new one
/// per request and none reused.
final class SessionHTTPSClient: Sendable {
    enum Mode: Sendable {
        /// Every request sends `Connection: close` (a header of the session's configuration), so
        /// nginx answers `Connection: close` and closes, and the pool opens a new connection for
        /// the next request.
        case newConnectionPerRequest
        /// One pooled connection carries every request.
        case keepAlive
    }

    /// What a run reports.
    struct Outcome: Sendable {
        /// Connections the pool established during the run.
        var connections = 0
        /// Allocations of the whole process while the requests ran (Wick's loop, Swift's
        /// concurrency pool, Dispatch), counted by the malloc interposer.
        var allocations: UInt64 = 0
    }

    let session: Session
    let mode: Mode
    private let url: String

    /// A session for `url`'s origin that trusts `roots` only, busy polling for
    /// `busyPollDuration` when given.
    init(roots: [Certificate], url: String, mode: Mode, busyPollDuration: Duration? = nil) {
        var configuration = Session.Configuration()
        configuration.busyPollDuration = busyPollDuration
        configuration.trustRoots = .certificates(roots)
        configuration.maximumConnectionsPerHost = 1
        configuration.proxy = .none
        if mode == .newConnectionPerRequest { configuration.headers.add(name: "Connection", value: "close") }
        self.session = Session(configuration: configuration)
        self.mode = mode
        self.url = url
    }

    /// Runs `count` sequential `serializingData().response` GETs in one task and waits for them
    /// on this (non-pool) thread.
    /// - Throws: `BenchError` when a response is not 200 with 1,024 bytes over TLS 1.3, a
    ///   connection was reused in `newConnectionPerRequest` mode, or the pool's counters do not
    ///   show the connections the mode promises.
    func run(_ count: Int) throws -> Outcome {
        let session = session
        let url = url
        let mode = mode
        let before = try blockingResult { await session.poolStatistics().total }
        let allocations = AllocationCounter.allocations
        try blocking {
            for _ in 0..<count {
                let response = await session.request(url).serializingData().response
                guard response.response?.statusCode == 200, let data = response.data, data.count == 1_024 else {
                    throw BenchError(
                        "Wick Session GET: status \(response.response?.statusCode ?? 0), "
                            + "\(response.data?.count ?? -1) bytes, \(response.error.map { "\($0)" } ?? "no error")")
                }
                guard let transaction = response.metrics?.last, transaction.tlsVersion == .v1_3 else {
                    throw BenchError("Wick Session GET: not over TLS 1.3 (\(String(describing: response.metrics)))")
                }
                if mode == .newConnectionPerRequest && transaction.isReused {
                    throw BenchError("Wick Session GET: a connection was reused despite `Connection: close`")
                }
            }
        }
        let allocated = AllocationCounter.allocations - allocations
        let after = try blockingResult { await session.poolStatistics().total }
        let created = after.created - before.created
        let reused = after.reused - before.reused
        let leases = after.leases - before.leases
        let expected: Bool
        switch mode {
        case .newConnectionPerRequest: expected = created == count && reused == 0 && leases == count
        // The first run opens the connection; later runs reuse it.
        case .keepAlive: expected = created <= 1 && leases == count && reused >= count - 1
        }
        guard expected else {
            throw BenchError(
                "Wick Session pool (\(mode)): \(count) requests, \(created) connections created, "
                    + "\(leases) leases, \(reused) reused")
        }
        return Outcome(connections: created, allocations: allocated)
    }

    /// Shuts the session down (its connections close).
    func shutdown() {
        let session = session
        try? blocking { await session.shutdown() }
    }
}
