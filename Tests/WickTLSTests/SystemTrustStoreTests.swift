// The system trust store: loaded once per context, honouring SSL_CERT_FILE and SSL_CERT_DIR.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

/// Serialized, and the only suite that builds `.system` contexts, because it changes the
/// process's environment while it runs.
@Suite(.serialized) struct SystemTrustStoreTests {
    /// Runs `body` with the two variables set (nil unsets), then restores them.
    /// Holds `ProcessEnvironment`'s lock throughout, so no other test starts a process while the
    /// environment changes under it.
    static func withEnvironment(file: String?, directory: String?, _ body: () throws -> Void) rethrows {
        try ProcessEnvironment.withLock {
            let saved: [(String, String?)] = ["SSL_CERT_FILE", "SSL_CERT_DIR"].map { name in
                (name, ProcessInfo.processInfo.environment[name])
            }
            defer {
                for (name, value) in saved {
                    if let value { setenv(name, value, 1) } else { unsetenv(name) }
                }
            }
            for (name, value) in [("SSL_CERT_FILE", file), ("SSL_CERT_DIR", directory)] {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
            try body()
        }
    }

    @Test func theSystemStoreDoesNotTrustTheTestRootButAnAdditionalRootDoes() async throws {
        let pair = try InMemoryTLS(clientContext: try TLSContext(), serverContext: try await TLSEngineTests.serverContext())
        try pair.handshake()
        let error = try #require(throws: TLSError.self) { try pair.client.evaluateTrust(using: nil) }
        guard case .serverTrustFailed(let trustError) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(trustError.issues.contains { if case .untrustedRoot = $0 { true } else { false } })

        var configuration = TLSConfiguration()
        configuration.additionalTrustRoots = [try await TLSFixture.get().root()]
        let withRoot = try InMemoryTLS(
            clientContext: try TLSContext(configuration: configuration),
            serverContext: try await TLSEngineTests.serverContext())
        try withRoot.connect()
    }

    @Test func sslCertFileReplacesTheDefaultBundle() async throws {
        let fixture = try await TLSFixture.get()
        let serverContext = try await TLSEngineTests.serverContext()
        try Self.withEnvironment(file: fixture.pki.root.certificate.path, directory: "/nonexistent") {
            let pair = try InMemoryTLS(clientContext: try TLSContext(), serverContext: serverContext)
            try pair.connect()
        }
    }

    @Test func sslCertDirIsSearchedByHash() async throws {
        let fixture = try await TLSFixture.get()
        let directory = fixture.pki.directory.appendingPathComponent("hashed-roots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(
            at: fixture.pki.root.certificate, to: directory.appendingPathComponent("root.pem"))
        try runCommand("/usr/bin/openssl", ["rehash", directory.path])
        let serverContext = try await TLSEngineTests.serverContext()
        try Self.withEnvironment(file: "/nonexistent", directory: directory.path) {
            let pair = try InMemoryTLS(clientContext: try TLSContext(), serverContext: serverContext)
            try pair.connect()
        }
    }
}
