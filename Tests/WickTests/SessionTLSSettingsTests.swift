// TLS and pool settings through Session.Configuration against nginx: a client certificate
// (mutual TLS), the TLS version range, a key log, and the pool's per-connection limits.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionTLSSettingsTests {
    /// A session trusting the test root, with `configure` applied to its TLS settings.
    private func session(
        _ nginx: TestEnvironment.Nginx, _ configure: (inout TLSConfiguration) throws -> Void = { _ in }
    ) throws -> Session {
        var tls = TLSConfiguration()
        tls.trustRoots = try SessionNginxTests.testRoots(nginx)
        try configure(&tls)
        return makeSession { $0.tls = tls }
    }

    private func clientIdentity(_ nginx: TestEnvironment.Nginx) throws -> ClientIdentity {
        try ClientIdentity(
            certificateChainPEM: String(contentsOf: nginx.pki.clientChain, encoding: .utf8),
            privateKeyPEM: String(contentsOf: nginx.pki.client.privateKey, encoding: .utf8))
    }

    @Test func aClientCertificateFromTheConfigurationIsPresentedWhenTheServerAsks() async throws {
        let nginx = try TestEnvironment.nginx()
        let identity = try clientIdentity(nginx)
        let session = try session(nginx) { $0.clientIdentity = identity }
        let response = await session.request("https://localhost:\(nginx.mutualTLSPort)/who").validate()
            .serializingString().response
        #expect(response.value == "CN=Wick Test Client")
        await session.shutdown()
    }

    @Test func withoutAClientCertificateTheMutualTLSServerRefuses() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try session(nginx)
        let response = await session.request("https://localhost:\(nginx.mutualTLSPort)/who").serializingData().response
        // nginx completes the handshake and answers 400 ("No required SSL certificate was sent").
        #expect(response.response?.statusCode == 400)
        await session.shutdown()
    }

    @Test(arguments: [(TLSVersion.v1_2, "TLSv1.2"), (TLSVersion.v1_3, "TLSv1.3")])
    func theVersionRangeFromTheConfigurationIsNegotiated(maximum: TLSVersion, named: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try session(nginx) { $0.maximumVersion = maximum }
        let response = await session.request("\(nginx.httpsBase)/tls/protocol").serializingString().response
        #expect(response.value == named)
        #expect(response.metrics?.tlsVersion == maximum)
        await session.shutdown()
    }

    @Test func aKeyLogFromTheConfigurationGetsTheSessionsSecrets() async throws {
        let nginx = try TestEnvironment.nginx()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wick-keylog-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keyLog = try #require(TLSKeyLog.appending(toFileAtPath: path))
        let session = try session(nginx) { $0.keyLog = keyLog }
        _ = try await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().value
        await session.shutdown()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("CLIENT_TRAFFIC_SECRET_0 ") })
    }

    @Test func maximumRequestsPerConnectionRetiresAConnectionAfterThatMany() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.maximumRequestsPerConnection = 2 }
        var reused: [Bool] = []
        for _ in 0..<5 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
            reused.append(response.metrics?.isReused ?? false)
        }
        #expect(reused == [false, true, false, true, false])
        await session.shutdown()
    }

    @Test func maximumConnectionLifetimeRetiresAnOldConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.maximumConnectionLifetime = .milliseconds(200) }
        let first = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        try await Task.sleep(for: .milliseconds(400))
        let second = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(first.metrics?.isReused == false && second.metrics?.isReused == false)
        await session.shutdown()
    }
}
