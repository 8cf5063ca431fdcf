// Helpers for the pool runner's tests: a runner on its own loops, bounded waits, socket counts.
import Foundation
import WickCore
import WickPool
import WickReactor

@testable import Wick

/// A runner on a fresh one-loop group, shut down by `close()`.
struct TestRunner {
    let group: EventLoopGroup
    let runner: ConnectionPoolRunner

    init(_ configure: (inout TransportSettings) -> Void = { _ in }, tls: TransportTLS? = nil) throws {
        group = try EventLoopGroup(threadCount: 1)
        var settings = TransportSettings()
        configure(&settings)
        runner = ConnectionPoolRunner(group: group, settings: settings, tls: tls)
    }

    /// GET (or another method) on `127.0.0.1:port`.
    func send(
        _ method: HTTPMethod = .get, port: Int, _ target: String = "/", body: [UInt8]? = nil,
        scheme: TransportOrigin.Scheme = .http, host: String = "127.0.0.1", deadline: Deadline = .distantFuture
    ) async throws -> TransportResponse {
        try await runner.execute(
            TransportRequest(method, scheme, host: host, port: UInt16(port), target: target, body: body),
            deadline: deadline)
    }

    /// Waits (bounded) until the pool's statistics satisfy `condition`; returns whether they did.
    func waitForStatistics(
        timeout: Duration = .seconds(10), _ condition: (PoolStatistics<TransportOrigin>.Counts) -> Bool
    ) async throws -> Bool {
        let end = Deadline.now() + timeout
        repeat {
            if condition(try await runner.statistics().total) { return true }
            try await Task.sleep(for: .milliseconds(5))
        } while !end.hasPassed(at: .now())
        return false
    }

    func close() async {
        await runner.shutdown()
        group.shutdownGracefully()
    }
}

/// Waits (bounded, polling) until `condition` holds; returns whether it did.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
    let end = Deadline.now() + timeout
    while !condition() {
        if end.hasPassed(at: .now()) { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}

