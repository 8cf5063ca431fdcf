// RFC 5280 §6.1 policy processing: a path that must carry an explicit policy and does not is refused.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct PolicyConstraintsTests {
    static func trust(_ leaf: TestPKI.Identity, issuer: TestPKI.Identity) async throws -> ServerTrust {
        let fixture = try await TLSFixture.get()
        return ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(leaf, issuer: issuer),
            trustStore: try fixture.trustStore())
    }

    /// RFC 5280 §4.2.1.11: requireExplicitPolicy "indicates the number of additional
    /// certificates that may appear in the path before an explicit policy is required for the
    /// entire path"; §6.1.5 (g): when explicit_policy is 0 and the valid_policy_tree is NULL,
    /// path validation fails. The intermediate requires it (skip 0) and neither it nor the
    /// leaf carries a policy.
    @Test func aPathThatRequiresAnExplicitPolicyAndCarriesNoneFails() async throws {
        let fixture = try await TLSFixture.get()
        let trust = try await Self.trust(fixture.policy.withoutPolicy, issuer: fixture.policy.emptyCA)
        #expect(trust.verifyChain(host: "localhost").issues == [.noExplicitPolicy(subject: "CN=localhost")])
        let error = try #require(throws: ServerTrustError.self) {
            try DefaultTrustEvaluator().evaluate(trust, forHost: "localhost")
        }
        #expect(error.description.contains("RFC 5280 §6.1"))
    }

    /// The same through a handshake: the server is refused before any application byte.
    @Test func theHandshakeWithSuchAServerIsRefused() async throws {
        let fixture = try await TLSFixture.get()
        let leaf = fixture.policy.withoutPolicy
        let server = try TLSServerContext(
            certificateChain: try fixture.chain(leaf, issuer: fixture.policy.emptyCA),
            privateKeyPEM: try fixture.key(leaf))
        let pair = try InMemoryTLS(clientContext: try await TLSEngineTests.clientContext(), serverContext: server)
        #expect(
            throws: TLSError.serverTrustFailed(
                ServerTrustError(
                    host: "localhost", evaluator: "DefaultTrustEvaluator",
                    reason: .untrusted([.noExplicitPolicy(subject: "CN=localhost")]),
                    // OpenSSL's own verification in the handshake processes no policies.
                    openSSLVerifyResult: 0))
        ) { try pair.connect() }
    }

    /// When every certificate below the constraint carries the required policy, the path is valid.
    @Test func aPathCarryingTheRequiredPolicyPasses() async throws {
        let fixture = try await TLSFixture.get()
        let trust = try await Self.trust(fixture.policy.withPolicy, issuer: fixture.policy.policyCA)
        #expect(trust.verifyChain(host: "localhost").issues == [])
        try DefaultTrustEvaluator().evaluate(trust, forHost: "localhost")
    }

    /// Policy processing is on for every path, and an ordinary one (no policies, no
    /// constraints) still passes.
    @Test func anOrdinaryChainStillPasses() async throws {
        let fixture = try await TLSFixture.get()
        let trust = try await Self.trust(fixture.valid, issuer: fixture.pki.intermediate)
        #expect(trust.verifyChain(host: "localhost").isTrusted)
    }
}
