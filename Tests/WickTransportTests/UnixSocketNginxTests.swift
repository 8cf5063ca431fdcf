// The transport over Unix domain sockets against the nginx Scripts/test starts (http.sock, https.sock).
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import WickTransport

@Suite(.serialized, .enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct UnixSocketNginxTests {
    /// `http+unix://` (or another scheme) with `path` percent-encoded as the authority.
    static func url(_ scheme: String = "http+unix", socket path: String, _ target: String) -> String {
        "\(scheme)://\(path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F"))\(target)"
    }

    /// A TLS context trusting the test PKI's root.
    static func testRootTLS(_ nginx: TestEnvironment.Nginx) throws -> TransportTLS {
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        return TransportTLS(context: try TLSContext(configuration: configuration), trustManager: nil)
    }

    @Test func getOverHTTPUnixReturnsTheFileAndReusesOneConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        let request = try TransportRequest(.get, unixURL: Self.url(socket: nginx.unixSocket, "/bytes/1k"))
        for index in 0..<10 {
            let response = try await client.runner.execute(request)
            #expect(response.status == .ok && response.body == Data(TestPayload.bytes(count: 1_024)))
            #expect(response.metrics.isReused == (index > 0))
            #expect((response.metrics.connect != nil) == (index == 0) && response.metrics.tlsHandshake == nil)
        }
        let statistics = try await client.runner.statistics()
        #expect(statistics.total.created == 1 && statistics.total.reused == 9 && statistics.total.idle == 1)
        #expect(statistics.origins.keys.map(\.unixSocketPath?.path) == [nginx.unixSocket])
        await client.close()
    }

    @Test func aSocketPathOverridesTheHostOfAnHTTPURL() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner()
        let socket = try UnixSocketPath(nginx.unixSocket)
        let response = try await client.runner.execute(
            TransportRequest(
                .get, .http, host: "service.invalid", port: 8080, target: "/bytes/64k", unixSocketPath: socket))
        #expect(response.status == .ok && response.body == Data(TestPayload.bytes(count: 65_536)))
        let origin = try #require(try await client.runner.statistics().origins.keys.first)
        #expect(origin.host == "service.invalid" && origin.port == 8080 && origin.unixSocketPath == socket)
        await client.close()
    }

    @Test func twoSocketPathsToOneServerNeverShareAConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-unix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alias = directory.appendingPathComponent("alias.sock").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: nginx.unixSocket)
        let client = try TestRunner()
        for _ in 0..<4 {
            for path in [nginx.unixSocket, alias] {
                let response = try await client.runner.execute(
                    TransportRequest(
                        .get, .http, host: "localhost", target: "/bytes/1k", unixSocketPath: UnixSocketPath(path)))
                #expect(response.body.count == 1_024)
            }
        }
        let statistics = try await client.runner.statistics()
        #expect(statistics.origins.count == 2 && statistics.total.created == 2 && statistics.total.reused == 6)
        for counts in statistics.origins.values { #expect(counts.created == 1 && counts.leases == 4) }
        await client.close()
    }

    @Test func httpsUnixHandshakesForLocalhostAndReusesTheConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner(tls: try Self.testRootTLS(nginx))
        let request = try TransportRequest(
            .get, unixURL: Self.url("https+unix", socket: nginx.tlsUnixSocket, "/bytes/1k"), tls: client.tlsRules())
        let first = try await client.runner.execute(request)
        let second = try await client.runner.execute(request)
        #expect(first.status == .ok && first.body == Data(TestPayload.bytes(count: 1_024)))
        #expect(first.metrics.tlsHandshake != nil && second.metrics.isReused)
        #expect(try await client.runner.statistics().total.created == 1)
        await client.close()
    }

    @Test func httpsUnixValidatesTheRequestsHostName() async throws {
        let nginx = try TestEnvironment.nginx()
        let client = try TestRunner(tls: try Self.testRootTLS(nginx))
        let request = try TransportRequest(
            .get, unixURL: Self.url("https+unix", socket: nginx.tlsUnixSocket, "/bytes/1k"), host: "not-the-server.test",
            tls: client.tlsRules())
        await #expect {
            try await client.runner.execute(request, deadline: .now() + .seconds(30))
        } throws: { error in
            guard case TransportError.connectFailed(.tls(let tls)) = error else { return false }
            return "\(tls)".contains("not-the-server.test")
        }
        await client.close()
    }
}
