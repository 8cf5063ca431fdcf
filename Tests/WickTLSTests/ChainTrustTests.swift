// Default validation of hostile chains, end to end: in-memory handshake, then evaluation.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct ChainTrustTests {
    /// What the client should conclude about a server.
    enum Expected: Sendable {
        case trusted
        case expired, notYetValid, hostMismatch, selfSigned, untrustedRoot, missingIntermediate, weakKey, weakSignature

        func matches(_ issue: TrustIssue) -> Bool {
            switch (self, issue) {
            case (.expired, .expired), (.notYetValid, .notYetValid), (.hostMismatch, .hostMismatch),
                (.selfSigned, .selfSigned), (.untrustedRoot, .untrustedRoot),
                (.missingIntermediate, .missingIntermediate), (.weakKey, .weakKey), (.weakSignature, .weakSignature):
                true
            default: false
            }
        }
    }

    /// A server and what it sends.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var chain: @Sendable (TLSFixture) throws -> [Certificate]
        var key: @Sendable (TLSFixture) throws -> String
        var host: String
        var expected: Expected
        var testDescription: String { "\(name) as \(host) → \(expected)" }

        static func leaf(
            _ identity: @escaping @Sendable (TLSFixture) -> TestPKI.Identity, host: String = "localhost",
            _ expected: Expected, name: String
        ) -> Case {
            Case(
                name: name, chain: { try $0.chain(identity($0)) }, key: { try $0.key(identity($0)) },
                host: host, expected: expected)
        }
    }

    static let cases: [Case] = [
        .leaf(\.valid, .trusted, name: "valid chain"),
        .leaf(\.valid, host: "127.0.0.1", .trusted, name: "IPv4 SAN"),
        .leaf(\.valid, host: "::1", .trusted, name: "IPv6 SAN"),
        .leaf(\.valid, host: "example.com", .hostMismatch, name: "wrong host"),
        .leaf(\.valid, host: "10.0.0.1", .hostMismatch, name: "wrong IP"),
        .leaf(\.valid, host: "localhost.evil.test", .hostMismatch, name: "suffix of the name"),
        .leaf(\.expired, .expired, name: "expired"),
        .leaf(\.notYetValid, .notYetValid, name: "not yet valid"),
        .leaf(\.wildcard, host: "api.wick.test", .trusted, name: "wildcard SAN"),
        .leaf(\.wildcard, host: "a.b.wick.test", .hostMismatch, name: "wildcard spans one label only"),
        .leaf(\.wildcard, host: "wick.test", .hostMismatch, name: "wildcard does not match the bare domain"),
        .leaf(\.rsa1024, .weakKey, name: "RSA-1024 leaf"),
        .leaf(\.sha1, .weakSignature, name: "SHA-1 signature"),
        Case(
            name: "self-signed", chain: { [try $0.certificate($0.selfSigned)] }, key: { try $0.key($0.selfSigned) },
            host: "localhost", expected: .selfSigned),
        Case(
            name: "unknown root",
            chain: { f in [try f.certificate(f.stranger.server), try f.certificate(f.stranger.intermediate)] },
            key: { try $0.key($0.stranger.server) }, host: "localhost", expected: .untrustedRoot),
        Case(
            name: "intermediate not sent", chain: { [try $0.certificate($0.valid)] }, key: { try $0.key($0.valid) },
            host: "localhost", expected: .missingIntermediate),
    ]

    static func client() async throws -> TLSContext {
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([try await TLSFixture.get().root()])
        return try TLSContext(configuration: configuration)
    }

    @Test(arguments: cases)
    func defaultEvaluationOfAPresentedChain(_ testCase: Case) async throws {
        let fixture = try await TLSFixture.get()
        let server = try TLSServerContext(
            certificateChain: try testCase.chain(fixture), privateKeyPEM: try testCase.key(fixture))
        let pair = try InMemoryTLS(clientContext: try await Self.client(), serverContext: server, host: testCase.host)
        try pair.handshake()
        if case .trusted = testCase.expected {
            try pair.client.evaluateTrust(using: DefaultTrustEvaluator())
            try pair.client.write([0x42])
            #expect(try pair.readAll(pair.server).bytes == [0x42])
            return
        }
        let error = try #require(throws: TLSError.self) { try pair.client.evaluateTrust(using: nil) }
        guard case .serverTrustFailed(let trustError) = error else {
            Issue.record("expected a trust failure, got \(error)")
            return
        }
        #expect(trustError.host == HostAddressForm.unbracketed(testCase.host))
        #expect(trustError.evaluator == "DefaultTrustEvaluator")
        #expect(trustError.issues.first.map(testCase.expected.matches) == true, "issues: \(trustError.issues)")
        #expect(
            trustError.description.contains(trustError.host) && trustError.description.contains("DefaultTrustEvaluator")
        )
        // The connection is dead: the same error again, and close_notify went to the server.
        var bytes: [UInt8] = []
        #expect(throws: error) { try pair.client.read(into: &bytes) }
        #expect(try pair.readAll(pair.server).closed)
    }

    @Test func theVerifiedChainRunsFromLeafToRoot() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(fixture.valid), trustStore: try fixture.trustStore())
        let evaluation = trust.verifyChain(host: "localhost")
        #expect(evaluation.isTrusted)
        #expect(
            evaluation.verifiedChain.map(\.subject) == [
                "CN=localhost", "CN=Wick Test Intermediate CA", "CN=Wick Test Root CA",
            ])
    }

    @Test func validityIsJudgedAtTheVerifyDate() async throws {
        let fixture = try await TLSFixture.get()
        let store = try fixture.trustStore()
        func issues(_ identity: TestPKI.Identity, at date: Date) throws -> [TrustIssue] {
            ServerTrust(
                host: "localhost", presentedChain: try fixture.chain(identity), trustStore: store, verifyDate: date
            )
            .verifyChain(host: "localhost").issues
        }
        let day: TimeInterval = 86_400
        #expect(try issues(fixture.notYetValid, at: Date() + 45 * day) == [])
        #expect(try issues(fixture.valid, at: Date() + 45 * day).contains { Expected.expired.matches($0) })
        #expect(try issues(fixture.valid, at: Date() - day).contains { Expected.notYetValid.matches($0) })
    }

    @Test func everyIssueIsReportedNotOnlyTheFirst() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(
            host: "example.com", presentedChain: try fixture.chain(fixture.expired),
            trustStore: try fixture.trustStore())
        let issues = trust.verifyChain(host: "example.com").issues
        #expect(issues.contains { Expected.expired.matches($0) })
        #expect(issues.contains { Expected.hostMismatch.matches($0) })
    }

    @Test func withoutHostValidationAnyNameIsAccepted() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(
            host: "example.com", presentedChain: try fixture.chain(fixture.valid), trustStore: try fixture.trustStore())
        try DefaultTrustEvaluator(validateHost: false).evaluate(trust, forHost: "example.com")
        #expect(throws: ServerTrustError.self) { try DefaultTrustEvaluator().evaluate(trust, forHost: "example.com") }
    }

    @Test func anEmptyChainIsNoCertificatesFound() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(host: "localhost", presentedChain: [], trustStore: try fixture.trustStore())
        #expect(
            throws: ServerTrustError(
                host: "localhost", evaluator: "DefaultTrustEvaluator", reason: .noCertificatesFound)
        ) {
            try DefaultTrustEvaluator().evaluate(trust, forHost: "localhost")
        }
    }
}

/// The host as the error names it.
enum HostAddressForm {
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
