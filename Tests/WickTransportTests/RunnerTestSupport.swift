// Helpers for the pool runner's tests: a runner on its own loops, bounded waits for its statistics.
import Foundation
import WickCore
import WickPool
import WickReactor
import WickTLS
import WickTestSupport

@testable import WickTransport

/// A runner on a fresh one-loop group, shut down by `close()`.
struct TestRunner {
    let group: EventLoopGroup
    let runner: ConnectionPoolRunner
    /// The TLS rules `send` gives https requests (a runner builds none: `TransportClient` gives
    /// Session's); nil uses `systemTLS`.
    let tls: TransportTLS?

    /// A context with the system trust roots, shared by the runners of tests that name no TLS
    /// rules (each runner has a pool of its own, so sharing it shares no connection).
    static let systemTLS = Result<TransportTLS, any Error> { TransportTLS(context: try TLSContext(), trustManager: nil) }

    init(
        _ configure: (inout TransportSettings) -> Void = { _ in }, tls: TransportTLS? = nil,
        busyPollDuration: Duration = .zero
    ) throws {
        group = try EventLoopGroup(configuration: .init(threadCount: 1, busyPollDuration: busyPollDuration))
        var settings = TransportSettings()
        configure(&settings)
        runner = ConnectionPoolRunner(group: group, settings: settings)
        self.tls = tls
    }

    /// The TLS rules for an https request: `tls`, or `systemTLS`.
    func tlsRules() throws -> TransportTLS {
        try tls ?? Self.systemTLS.get()
    }

    /// GET (or another method) on `127.0.0.1:port`.
    func send(
        _ method: HTTPMethod = .get, port: Int, _ target: String = "/", body: [UInt8]? = nil,
        scheme: TransportOrigin.Scheme = .http, host: String = "127.0.0.1", deadline: Deadline = .distantFuture
    ) async throws -> TransportResponse {
        try await runner.execute(
            TransportRequest(
                method, scheme, host: host, port: UInt16(port), target: target, body: body,
                tls: scheme == .https ? try tlsRules() : nil),
            deadline: deadline)
    }

    /// Waits (bounded) until the pool's statistics satisfy `condition`; returns whether they did.
    func waitForStatistics(
        timeout: Duration = .seconds(10), _ condition: (PoolStatistics<TransportOrigin>.Counts) -> Bool
    ) async throws -> Bool {
        let end = Deadline.now() + timeout
        // The condition is checked once more after the last sleep, so a wait whose task could not
        // run until the deadline had passed (a loaded test process) still sees what happened.
        while !condition(try await runner.statistics().total) {
            if end.hasPassed(at: .now()) { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    func close() async {
        await runner.shutdown()
        group.shutdownGracefully()
    }
}

extension FaultServer {
    /// A server that answers `count` requests on one kept-alive connection with 200 "ok", then
    /// waits (up to 10 s) for the client to close it.
    static func answeringOK(_ count: Int) throws -> FaultServer {
        try FaultServer(steps: [
            .repeating([.readRequest, .respond(body: "ok")], times: count),
            .waitForClientClose(limit: .seconds(10)),
        ])
    }
}
