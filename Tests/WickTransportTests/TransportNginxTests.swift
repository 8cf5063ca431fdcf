// The transport against the real nginx that Scripts/test starts: reuse, limits, keep-alive, TLS.
import Foundation
import Testing
import WickCore
import WickPool
import WickTLS
import WickTestSupport

@testable import WickTransport

@Suite(.serialized, .enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct TransportNginxTests {
    /// nginx's `stub_status` counters.
    struct Counters {
        var active: Int
        var accepts: Int
        var requests: Int
    }

    /// Reads `/status` through its own runner, whose one connection stays open between reads, so
    /// reading the counters adds one request and (the first time) one accepted connection.
    static func counters(_ client: TestRunner, port: Int) async throws -> Counters {
        let text = String(decoding: try await client.send(port: port, "/status").body, as: UTF8.self)
        let lines = text.split(separator: "\n")
        let active = lines.first.flatMap { Int($0.split(separator: " ").last ?? "") }
        let numbers = lines.count > 2 ? lines[2].split(separator: " ").compactMap { Int($0) } : []
        try #require(active != nil && numbers.count == 3, "stub_status said: \(text)")
        return Counters(active: active ?? 0, accepts: numbers[0], requests: numbers[2])
    }

    @Test func sequentialKeepAliveGetsReuseOneConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        for index in 0..<20 {
            let response = try await client.send(port: nginx.httpPort, "/bytes/1k")
            #expect(response.status == .ok && response.body.count == 1_024)
            #expect(response.metrics.isReused == (index > 0))
        }
        let total = try await client.runner.statistics().total
        #expect(total.created == 1 && total.reused == 19 && total.idle == 1)
        await client.close()
    }

    @Test func aThousandConcurrentGetsWithALimitOfEightOpenAtMostEightConnections() async throws {
        let nginx = try TestEnvironment.nginx()
        let status = try TestRunner()
        let client = try TestRunner {
            $0.pool.maximumConnectionsPerOrigin = 8
            $0.pool.maximumIdleConnectionsPerOrigin = 8
        }
        let before = try await Self.counters(status, port: nginx.httpPort)
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    let response = try? await client.send(port: nginx.httpPort, "/bytes/1k")
                    return response?.body.count == 1_024
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let after = try await Self.counters(status, port: nginx.httpPort)
        #expect(succeeded == 1_000)
        let total = try await client.runner.statistics().total
        #expect(total.created <= 8 && total.leases == 1_000)
        // The server's own count is exact only if nobody else used nginx meanwhile: our 1,000
        // GETs plus the second status read are then all the requests it saw.
        if after.requests - before.requests == 1_001 {
            #expect(after.accepts - before.accepts <= 8)
        }
        await client.close()
        await status.close()
    }

    @Test func keepAliveTimeoutOfTheServerIsHonoured() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner { $0.pool.keepAliveTimeoutMargin = .milliseconds(500) }
        let first = try await client.send(port: nginx.httpPort, "/keepalive-1s/1k")
        #expect(first.headers["keep-alive"] == "timeout=1" && first.body.count == 1_024)
        // The pool closes the connection half a second before nginx would: retired, not evicted.
        #expect(try await client.waitForStatistics { $0.live == 0 })
        let total = try await client.runner.statistics().total
        #expect(total.retired == 1 && total.evicted == 0)
        let second = try await client.send(port: nginx.httpPort, "/keepalive-1s/1k")
        #expect(second.body.count == 1_024 && !second.metrics.isReused && !second.metrics.wasReplayed)
        await client.close()
    }

    @Test func aKeepAliveTimeoutWithinTheMarginRetiresTheConnectionAtOnce() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()  // margin 1 s, the server's timeout 1 s
        for _ in 0..<3 {
            let response = try await client.send(port: nginx.httpPort, "/keepalive-1s/1k")
            #expect(response.body.count == 1_024 && !response.metrics.isReused)
        }
        #expect(try await client.runner.statistics().total.created == 3)
        await client.close()
    }

    @Test func connectionCloseResponsesOpenAConnectionEach() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        for _ in 0..<3 {
            #expect(try await client.send(port: nginx.httpPort, "/close/1k").body.count == 1_024)
        }
        #expect(try await client.waitForStatistics { $0.created == 3 && $0.live == 0 && $0.reused == 0 })
        await client.close()
    }

    @Test func chunkedAndLargeBodiesArriveWhole() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        let chunked = try await client.send(port: nginx.httpPort, "/chunked/1m.txt")
        #expect(chunked.body.count == 1_048_576 && chunked.headers["transfer-encoding"] == "chunked")
        let large = try await client.send(port: nginx.httpPort, "/bytes/10m")
        #expect(large.body.count == 10 * 1_048_576 && large.metrics.isReused)
        await client.close()
    }

    @Test func httpsGetWithTheTestRootReusesItsConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        let tls = TransportTLS(context: try TLSContext(configuration: configuration), trustManager: nil)
        let client = try TestRunner(tls: tls)
        let first = try await client.send(port: nginx.httpsPort, "/bytes/1k", scheme: .https, host: "localhost")
        let second = try await client.send(port: nginx.httpsPort, "/bytes/1k", scheme: .https, host: "localhost")
        #expect(first.status == .ok && first.body.count == 1_024)
        #expect(first.metrics.connect != nil && first.metrics.tlsHandshake != nil)
        #expect(second.body.count == 1_024 && second.metrics.isReused)
        #expect(second.metrics.connect == nil && second.metrics.tlsHandshake == nil)
        #expect(try await client.runner.statistics().total.created == 1)
        await client.close()
    }

    /// The origin key compares TLS rules by object: equal configurations in two contexts still
    /// get connections of their own, and http never shares with https.
    @Test func differentTLSRulesNeverShareAConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        let client = try TestRunner()
        for _ in 0..<2 {
            let tls = TransportTLS(context: try TLSContext(configuration: configuration), trustManager: nil)
            for _ in 0..<2 {
                let response = try await client.runner.execute(
                    TransportRequest(
                        .get, .https, host: "localhost", port: UInt16(nginx.httpsPort), target: "/bytes/1k", tls: tls))
                #expect(response.body.count == 1_024)
            }
        }
        let statistics = try await client.runner.statistics()
        #expect(statistics.total.created == 2 && statistics.total.reused == 2 && statistics.origins.count == 2)
        await client.close()
    }

    /// Without TLS rules of its own the runner uses the system trust store, which does not hold
    /// the test root: the server is refused, and retrying cannot help.
    @Test func httpsWithTheSystemRootsRefusesTheTestServer() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        do {
            _ = try await client.send(port: nginx.httpsPort, "/bytes/1k", scheme: .https, host: "localhost")
            Issue.record("an untrusted server was accepted")
        } catch let error as TransportError {
            guard case .connectFailed(.tls(.serverTrustFailed)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        await client.close()
    }
}
