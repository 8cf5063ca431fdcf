// OpenSSL's own verification result for a presented chain (SSL_get_verify_result), as the
// handshake leaves it on ServerTrust, on a refusal and on a resumed session: curl's %{ssl_verify_result}.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct OpenSSLVerifyResultTests {
    /// OpenSSL's `X509_V_*` codes the cases expect (include/openssl/x509_vfy.h).
    enum Code {
        static let ok = 0
        static let certificateNotYetValid = 9
        static let certificateHasExpired = 10
        static let depthZeroSelfSignedCertificate = 18
        static let unableToGetIssuerCertificateLocally = 20
        static let endEntityKeyTooSmall = 66
        static let certificateAuthorityDigestTooWeak = 68
    }

    /// A server, the name the client connects to, and the code OpenSSL must record.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var chain: @Sendable (TLSFixture) throws -> [Certificate]
        var key: @Sendable (TLSFixture) throws -> String
        var host = "localhost"
        var code: Int
        var testDescription: String { "\(name) as \(host) → \(code)" }

        /// `identity` served with the intermediate.
        static func leaf(
            _ identity: @escaping @Sendable (TLSFixture) -> TestPKI.Identity, host: String = "localhost", code: Int,
            name: String
        ) -> Case {
            Case(
                name: name, chain: { try $0.chain(identity($0)) }, key: { try $0.key(identity($0)) }, host: host,
                code: code)
        }

        /// `identity` served alone.
        static func alone(_ identity: @escaping @Sendable (TLSFixture) -> TestPKI.Identity, code: Int, name: String)
            -> Case
        {
            Case(
                name: name, chain: { [try $0.certificate(identity($0))] }, key: { try $0.key(identity($0)) },
                code: code)
        }
    }

    static let cases: [Case] = [
        .leaf(\.valid, code: Code.ok, name: "valid chain"),
        // The result is the chain's alone: the host is the evaluators' business.
        .leaf(\.valid, host: "example.com", code: Code.ok, name: "wrong host"),
        .leaf(\.expired, code: Code.certificateHasExpired, name: "expired"),
        .leaf(\.notYetValid, code: Code.certificateNotYetValid, name: "not yet valid"),
        .alone(\.selfSigned, code: Code.depthZeroSelfSignedCertificate, name: "self-signed"),
        Case(
            name: "unknown root",
            chain: { f in [try f.certificate(f.stranger.server), try f.certificate(f.stranger.intermediate)] },
            key: { try $0.key($0.stranger.server) }, code: Code.unableToGetIssuerCertificateLocally),
        .alone(\.valid, code: Code.unableToGetIssuerCertificateLocally, name: "intermediate not sent"),
        // Security level 2 holds for verification too (TLSContext's auth level).
        .leaf(\.rsa1024, code: Code.endEntityKeyTooSmall, name: "RSA-1024 leaf"),
        .leaf(\.sha1, code: Code.certificateAuthorityDigestTooWeak, name: "SHA-1 signature"),
    ]

    /// A client engine that completed its handshake with the case's server, trust not yet evaluated.
    static func handshaken(_ testCase: Case, roots: TrustRoots? = nil) async throws -> InMemoryTLS {
        let fixture = try await TLSFixture.get()
        let server = try TLSServerContext(
            certificateChain: try testCase.chain(fixture), privateKeyPEM: try testCase.key(fixture))
        let client = try await TLSEngineTests.clientContext { configuration in
            if let roots { configuration.trustRoots = roots }
        }
        let pair = try InMemoryTLS(clientContext: client, serverContext: server, host: testCase.host)
        try pair.handshake()
        return pair
    }

    @Test(arguments: cases)
    func theHandshakeRecordsOpenSSLsResultAndARefusalCarriesIt(_ testCase: Case) async throws {
        let pair = try await Self.handshaken(testCase)
        #expect(pair.client.serverTrust.openSSLVerifyResult == testCase.code)
        do {
            try pair.client.evaluateTrust(using: DefaultTrustEvaluator())
            #expect(testCase.code == Code.ok && testCase.host == "localhost", "accepted a chain OpenSSL refused")
        } catch .serverTrustFailed(let refusal) {
            #expect(refusal.openSSLVerifyResult == testCase.code)
            #expect(testCase.code != Code.ok || testCase.host != "localhost", "refused: \(refusal)")
        } catch {
            Issue.record("expected a trust failure, got \(error)")
        }
    }

    @Test(arguments: cases)
    func aDisabledEvaluatorAcceptsAndTheResultStillSaysWhatOpenSSLFound(_ testCase: Case) async throws {
        let pair = try await Self.handshaken(testCase)
        try pair.client.evaluateTrust(using: DisabledTrustEvaluator())
        try pair.client.write([0x42])
        #expect(try pair.readAll(pair.server).bytes == [0x42])
        #expect(pair.client.serverTrust.openSSLVerifyResult == testCase.code)
    }

    /// What `curl -k` sees: it loads no CA certificates, so a chain from any CA has no issuer.
    @Test func withoutTrustRootsAValidChainFindsNoIssuer() async throws {
        let pair = try await Self.handshaken(Self.cases[0], roots: .certificates([]))
        #expect(pair.client.serverTrust.openSSLVerifyResult == Code.unableToGetIssuerCertificateLocally)
    }

    @Test func aResumedSessionCarriesTheResultOfTheHandshakeThatMadeIt() async throws {
        let fixture = try await TLSFixture.get()
        let context = try await TLSEngineTests.clientContext()
        let server = try TLSServerContext(
            certificateChain: [try fixture.certificate(fixture.selfSigned)],
            privateKeyPEM: try fixture.key(fixture.selfSigned))
        var results: [Int?] = []
        var resumed: [Bool] = []
        for _ in 0..<2 {
            let pair = try InMemoryTLS(clientContext: context, serverContext: server)
            try pair.connect(evaluator: DisabledTrustEvaluator())
            try pair.server.write([1])  // TLS 1.3 tickets arrive after the handshake
            _ = try pair.readAll(pair.client)
            results.append(pair.client.serverTrust.openSSLVerifyResult)
            resumed.append(pair.client.isSessionReused)
            pair.client.close()
            pair.server.close()
        }
        #expect(resumed == [false, true])
        #expect(results == [Code.depthZeroSelfSignedCertificate, Code.depthZeroSelfSignedCertificate])
    }

    @Test func aTrustNoHandshakeMadeHasNoResult() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(fixture.valid),
            trustStore: try TrustStore(roots: .certificates([try fixture.root()])))
        #expect(trust.openSSLVerifyResult == nil)
    }
}
