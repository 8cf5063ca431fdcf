// RFC 9110 §4.3.4 and RFC 9525: a client matches the server's identity against subjectAltNames only, never the CN.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct HostIdentityTests {
    /// The trust error a client gets from a server presenting `leaf` (with the main
    /// intermediate) when it connects to `host`.
    static func refusal(_ leaf: KeyPath<TLSFixture, TestPKI.Identity>, host: String) async throws -> ServerTrustError {
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext(leaf), host: host)
        let error = try #require(throws: TLSError.self) { try pair.connect() }
        guard case .serverTrustFailed(let trustError) = error else {
            Issue.record("expected a trust failure, got \(error)")
            throw error
        }
        return trustError
    }

    /// RFC 9110 §4.3.4: "A reference identity of type CN-ID MUST NOT be used by clients."
    /// RFC 9525 drops CN-IDs altogether (§6.3 matches DNS-IDs, IP-IDs, SRV-IDs and URI-IDs).
    /// A leaf whose only name is CN=localhost is refused for localhost, with an issue that says so.
    @Test func aCertificateWithOnlyACommonNameIsRefused() async throws {
        let error = try await Self.refusal(\.commonNameOnly, host: "localhost")
        #expect(error.issues == [.noSubjectAlternativeName(host: "localhost", subject: "CN=localhost")])
        #expect(error.description.contains("RFC 9110 §4.3.4") && error.description.contains("subjectAltName"))
    }

    /// The same for an IP-address host: CN=127.0.0.1 names nothing a client may use.
    @Test func anIPAddressInTheCommonNameIsRefused() async throws {
        let error = try await Self.refusal(\.commonNameIPOnly, host: "127.0.0.1")
        #expect(error.issues == [.noSubjectAlternativeName(host: "127.0.0.1", subject: "CN=127.0.0.1")])
    }

    /// RFC 9525 §6.2 / §6.3: an IP address is matched against iPAddress subjectAltNames only;
    /// a dNSName that spells the address does not count.
    @Test func anIPAddressHostMatchesIPAddressNamesOnly() async throws {
        let error = try await Self.refusal(\.ipAsDNSName, host: "127.0.0.1")
        #expect(error.issues == [.hostMismatch(host: "127.0.0.1", dnsNames: ["127.0.0.1"], ipAddresses: [])])
        // The same address as an iPAddress SAN is accepted.
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext(\.valid), host: "127.0.0.1")
        try pair.connect()
    }

    /// Against a real TLS stack: `openssl s_server` presenting the CN-only leaf.
    @Test func opensslServerWithACommonNameOnlyCertificateIsRefused() async throws {
        let fixture = try await TLSFixture.get()
        let server = try await OpenSSLServer.start(
            certificate: fixture.commonNameOnly, chain: fixture.pki.intermediate, arguments: [])
        let context = try await TLSEngineTests.clientContext()
        let error = try await #require(throws: TLSError.self) {
            try await server.handshake(context) { try $0.evaluateTrust(using: nil) }
        }
        #expect(
            error
                == .serverTrustFailed(
                    ServerTrustError(
                        host: "localhost", evaluator: "DefaultTrustEvaluator",
                        reason: .untrusted([.noSubjectAlternativeName(host: "localhost", subject: "CN=localhost")]),
                        // OpenSSL checks no host: the chain itself verifies.
                        openSSLVerifyResult: 0)))
    }
}
