// Pinning, composite, disabled evaluators and the trust manager, with Alamofire's semantics.
import Foundation
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct EvaluatorTests {
    static func trust(_ chain: [Certificate], host: String = "localhost") async throws -> ServerTrust {
        ServerTrust(host: host, presentedChain: chain, trustStore: try await TLSFixture.get().trustStore())
    }

    @Test func aPinnedCertificateAnywhereInTheChainPasses() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.valid)
        let trust = try await Self.trust(chain)
        try PinnedCertificatesTrustEvaluator(certificates: [chain[0]]).evaluate(trust, forHost: "localhost")
        try PinnedCertificatesTrustEvaluator(certificates: [chain[1]]).evaluate(trust, forHost: "localhost")
    }

    @Test func aWrongPinOnAnOtherwiseValidChainFails() async throws {
        let fixture = try await TLSFixture.get()
        let other = try fixture.certificate(fixture.client)
        let trust = try await Self.trust(try fixture.chain(fixture.valid))
        let error = try #require(throws: ServerTrustError.self) {
            try PinnedCertificatesTrustEvaluator(certificates: [other]).evaluate(trust, forHost: "localhost")
        }
        #expect(error.evaluator == "PinnedCertificatesTrustEvaluator" && error.host == "localhost")
        guard case .certificatePinningFailed(let pinned, let presented) = error.reason else {
            Issue.record("unexpected reason \(error.reason)")
            return
        }
        #expect(pinned == [other] && presented == trust.presentedChain)
    }

    @Test func pinningStillRunsDefaultValidationFirst() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.expired)
        let error = try await #require(throws: ServerTrustError.self) {
            try PinnedCertificatesTrustEvaluator(certificates: [chain[0]]).evaluate(
                try await Self.trust(chain), forHost: "localhost")
        }
        #expect(error.issues.contains { if case .expired = $0 { true } else { false } })
    }

    @Test func aPinnedSelfSignedCertificateWithDefaultValidationOff() async throws {
        let fixture = try await TLSFixture.get()
        let selfSigned = try fixture.certificate(fixture.selfSigned)
        let trust = try await Self.trust([selfSigned])
        // Alamofire's idiom: the pinned certificate becomes an anchor; the host is still checked.
        try PinnedCertificatesTrustEvaluator(
            certificates: [selfSigned], acceptSelfSignedCertificates: true, performDefaultValidation: false
        ).evaluate(trust, forHost: "localhost")
        await #expect(throws: ServerTrustError.self) {
            try PinnedCertificatesTrustEvaluator(
                certificates: [selfSigned], acceptSelfSignedCertificates: true, performDefaultValidation: false
            ).evaluate(try await Self.trust([selfSigned], host: "example.com"), forHost: "example.com")
        }
        // Pin only, no validation at all.
        try PinnedCertificatesTrustEvaluator(
            certificates: [selfSigned], performDefaultValidation: false, validateHost: false
        ).evaluate(trust, forHost: "localhost")
        // Without accepting self-signed certificates, validation refuses it before the pin is looked at.
        let error = try #require(throws: ServerTrustError.self) {
            try PinnedCertificatesTrustEvaluator(certificates: [selfSigned]).evaluate(trust, forHost: "localhost")
        }
        #expect(error.issues.first == .selfSigned(subject: "CN=localhost"))
    }

    @Test func publicKeyPinsMatchByKeyAndFromCurlPins() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.valid)
        let trust = try await Self.trust(chain)
        try PublicKeysTrustEvaluator(keys: [chain[0].publicKey]).evaluate(trust, forHost: "localhost")
        try PublicKeysTrustEvaluator(keys: [try PublicKey(pin: chain[1].publicKey.pin)]).evaluate(
            trust, forHost: "localhost")
        let wrong = try fixture.certificate(fixture.client).publicKey
        let error = try #require(throws: ServerTrustError.self) {
            try PublicKeysTrustEvaluator(keys: [wrong]).evaluate(trust, forHost: "localhost")
        }
        #expect(error.reason == .publicKeyPinningFailed(pinned: [wrong], presented: chain.map(\.publicKey)))
        #expect(error.description.contains(chain[0].publicKey.pin))
    }

    @Test func emptyPinSetsAreRefused() async throws {
        let fixture = try await TLSFixture.get()
        let trust = try await Self.trust(try fixture.chain(fixture.valid))
        #expect(
            throws: ServerTrustError(
                host: "localhost", evaluator: "PinnedCertificatesTrustEvaluator", reason: .noCertificatesFound)
        ) {
            try PinnedCertificatesTrustEvaluator(certificates: []).evaluate(trust, forHost: "localhost")
        }
        #expect(
            throws: ServerTrustError(
                host: "localhost", evaluator: "PublicKeysTrustEvaluator", reason: .noPublicKeysFound)
        ) {
            try PublicKeysTrustEvaluator(keys: []).evaluate(trust, forHost: "localhost")
        }
    }

    @Test func aCompositeFailsWithTheFirstFailingEvaluator() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.valid)
        let trust = try await Self.trust(chain)
        try CompositeTrustEvaluator(evaluators: [
            DefaultTrustEvaluator(), PublicKeysTrustEvaluator(keys: [chain[0].publicKey]),
        ])
        .evaluate(trust, forHost: "localhost")
        let wrong = try fixture.certificate(fixture.client)
        let error = try #require(throws: ServerTrustError.self) {
            try CompositeTrustEvaluator(evaluators: [
                DefaultTrustEvaluator(), PinnedCertificatesTrustEvaluator(certificates: [wrong]),
                PublicKeysTrustEvaluator(keys: []),
            ]).evaluate(trust, forHost: "localhost")
        }
        #expect(error.evaluator == "PinnedCertificatesTrustEvaluator")
    }

    @Test func theDisabledEvaluatorAcceptsAnything() async throws {
        let fixture = try await TLSFixture.get()
        try DisabledTrustEvaluator().evaluate(
            try await Self.trust(try fixture.chain(fixture.expired), host: "x"), forHost: "x")
        try DisabledTrustEvaluator().evaluate(try await Self.trust([]), forHost: "x")
    }

    @Test func theManagerLooksHostsUpExactly() throws {
        let manager = ServerTrustManager(evaluators: ["api.example.com": DisabledTrustEvaluator()])
        #expect(try manager.serverTrustEvaluator(forHost: "api.example.com") is DisabledTrustEvaluator)
        #expect(
            throws: ServerTrustError(
                host: "other.example.com", evaluator: "ServerTrustManager", reason: .noRequiredEvaluator)
        ) {
            try manager.serverTrustEvaluator(forHost: "other.example.com")
        }
        let lenient = ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: [:])
        #expect(try lenient.serverTrustEvaluator(forHost: "other.example.com") == nil)
    }

    /// The documented way to match wildcards: override the lookup.
    final class WildcardServerTrustManager: ServerTrustManager, @unchecked Sendable {
        override func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
            if let exact = evaluators[host] { return exact }
            if let dot = host.firstIndex(of: "."), let evaluator = evaluators["*" + host[dot...]] { return evaluator }
            return try super.serverTrustEvaluator(forHost: host)
        }
    }

    @Test func aSubclassCanMatchWildcards() throws {
        let manager = WildcardServerTrustManager(evaluators: [
            "*.example.com": DefaultTrustEvaluator(validateHost: false)
        ])
        #expect(try manager.serverTrustEvaluator(forHost: "api.example.com") is DefaultTrustEvaluator)
        #expect(throws: ServerTrustError.self) { try manager.serverTrustEvaluator(forHost: "example.org") }
    }

    struct RefusingEvaluator: ServerTrustEvaluating {
        struct Nope: Error, CustomStringConvertible { var description: String { "nope" } }
        func evaluate(_ trust: ServerTrust, forHost host: String) throws { throw Nope() }
    }

    @Test func aCustomEvaluatorsErrorIsReportedThroughTheEngine() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext())
        try pair.handshake()
        #expect(
            throws: TLSError.serverTrustFailed(
                ServerTrustError(
                    host: "localhost", evaluator: "RefusingEvaluator", reason: .custom("nope"), openSSLVerifyResult: 0))
        ) {
            try pair.client.evaluateTrust(using: RefusingEvaluator())
        }
    }

    @Test func pinsThroughTheEngine() async throws {
        let fixture = try await TLSFixture.get()
        let leaf = try fixture.certificate(fixture.valid)
        let right = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext())
        try right.connect(evaluator: PublicKeysTrustEvaluator(keys: [leaf.publicKey]))
        let wrong = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext())
        #expect(throws: TLSError.self) {
            try wrong.connect(
                evaluator: PinnedCertificatesTrustEvaluator(certificates: [try fixture.certificate(fixture.client)]))
        }
    }
}
