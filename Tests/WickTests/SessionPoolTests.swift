// The session's pools seen from outside: prewarmed connections and the gauges and counters.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionPoolTests {
    /// Polls the statistics until `condition` holds (bounded: 10 s).
    private func statistics(
        of session: Session, until condition: (ConnectionPoolStatistics) -> Bool
    ) async throws -> ConnectionPoolStatistics {
        let limit = ContinuousClock.now + .seconds(10)
        while true {
            let statistics = await session.poolStatistics()
            if condition(statistics) || ContinuousClock.now > limit { return statistics }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func prewarmedConnectionsServeTheFirstRequests() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        try session.prewarm(nginx.httpBase, connections: 3)
        let warm = try await statistics(of: session) { $0.total.idle == 3 }
        #expect(warm.total.idle == 3 && warm.total.created == 3 && warm.total.leases == 0)
        let origin = try #require(warm.origins.keys.first)
        #expect(origin == "http://127.0.0.1:\(nginx.httpPort)")

        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask { try await session.request("\(nginx.httpBase)/bytes/1k").serializingData().value.count }
            }
            for try await count in group { #expect(count == 1_024) }
        }
        let after = try await statistics(of: session) { $0.total.idle == 3 }
        #expect(after.total.created == 3 && after.total.leases == 3)
        #expect(after.total.leased == 0 && after.total.waiting == 0 && after.total.connecting == 0)
        await session.shutdown()
        #expect(await session.poolStatistics().origins.isEmpty)
    }

    @Test func prewarmIsCappedByTheConnectionLimit() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.maximumConnectionsPerHost = 2 }
        try session.prewarm(nginx.httpBase, connections: 5)
        let warm = try await statistics(of: session) { $0.total.idle == 2 }
        #expect(warm.total.idle == 2 && warm.total.created == 2)
        await session.shutdown()
    }

    @Test func reuseAndPoolWaitAreCounted() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        for _ in 0..<4 { _ = try await session.request("\(nginx.httpBase)/bytes/1k").serializingData().value }
        let counts = try await statistics(of: session) { $0.total.leases == 4 }.total
        #expect(counts.created == 1 && counts.reused == 3 && counts.leases == 4)
        #expect(counts.totalPoolWait > .zero)
        await session.shutdown()
    }

    @Test func prewarmRefusesAnUnusableURL() {
        let session = Session()
        #expect(throws: WickError.self) { try session.prewarm("ftp://127.0.0.1/", connections: 1) }
    }
}
