// Pin sets that survive rotation: backup pins, curl's `;` lists, expiry, report-only.
import Foundation
import Testing
@_spi(WickTLSTesting) @testable import WickTLS
import WickTestSupport

@Suite struct PinningPolicyTests {
    static let wrongKey = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func validTrust() async throws -> (ServerTrust, [Certificate]) {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.valid)
        return (try await EvaluatorTests.trust(chain), chain)
    }

    @Test func aBackupKeyIsAcceptedLikeALiveOne() async throws {
        let (trust, chain) = try await Self.validTrust()
        let rotated = PublicKeysTrustEvaluator(keys: [Self.wrongKey], backupKeys: [chain[0].publicKey])
        #expect(try rotated.evaluateReporting(trust, forHost: "localhost").isEmpty)
        let error = try #require(throws: ServerTrustError.self) {
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], backupKeys: [Self.wrongKey]).evaluate(
                trust, forHost: "localhost")
        }
        #expect(error.reason == .publicKeyPinningFailed(pinned: [Self.wrongKey, Self.wrongKey], presented: chain.map(\.publicKey)))
        // Backups alone are a pin set too.
        try PublicKeysTrustEvaluator(keys: [], backupKeys: [chain[1].publicKey]).evaluate(trust, forHost: "localhost")
    }

    @Test func curlsPinListIsOneString() async throws {
        let (trust, chain) = try await Self.validTrust()
        let list = "\(Self.wrongKey.pin);\(chain[0].publicKey.pin)"
        try PublicKeysTrustEvaluator(pins: list).evaluate(trust, forHost: "localhost")
        #expect(try PublicKey.pins(fromList: " \(Self.wrongKey.pin) ; \(chain[0].publicKey.pin);") == [Self.wrongKey, chain[0].publicKey])
        #expect(throws: CertificateError.invalidPin("sha256//nope")) { try PublicKey.pins(fromList: "\(Self.wrongKey.pin);sha256//nope") }
        #expect(throws: CertificateError.invalidPin(" ; ")) { try PublicKey.pins(fromList: " ; ") }
    }

    @Test func reportOnlyReportsAMismatchAndTrusts() async throws {
        let (trust, chain) = try await Self.validTrust()
        let evaluator = PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: .reportOnly)
        let reported = try evaluator.evaluateReporting(trust, forHost: "localhost")
        #expect(
            reported == [
                ServerTrustError(
                    host: "localhost", evaluator: "PublicKeysTrustEvaluator",
                    reason: .publicKeyPinningFailed(pinned: [Self.wrongKey], presented: chain.map(\.publicKey))),
            ])
        try evaluator.evaluate(trust, forHost: "localhost")
        // A match reports nothing.
        #expect(try PublicKeysTrustEvaluator(keys: [chain[0].publicKey], policy: .reportOnly).evaluateReporting(trust, forHost: "localhost").isEmpty)
    }

    @Test func reportOnlyStillEnforcesTheChain() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try fixture.chain(fixture.expired)
        let trust = try await EvaluatorTests.trust(chain)
        let error = try #require(throws: ServerTrustError.self) {
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: .reportOnly).evaluate(trust, forHost: "localhost")
        }
        #expect(error.issues.contains { if case .expired = $0 { true } else { false } })
        #expect(throws: ServerTrustError.self) {
            try PinnedCertificatesTrustEvaluator(certificates: [chain[0]], policy: .reportOnly).evaluate(
                trust, forHost: "localhost")
        }
    }

    @Test func anExpiredPinSetFallsBackToDefaultValidationOrRefuses() async throws {
        let (trust, _) = try await Self.validTrust()
        let expired = PinningPolicy(expiration: Self.now.addingTimeInterval(-1))
        let stillValid = PinningPolicy(expiration: Self.now.addingTimeInterval(1))
        // Before expiry the wrong pin refuses; after, the chain alone decides.
        #expect(throws: ServerTrustError.self) {
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: stillValid).evaluateReporting(
                trust, forHost: "localhost", now: Self.now)
        }
        #expect(
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: expired).evaluateReporting(
                trust, forHost: "localhost", now: Self.now
            ).isEmpty)
        // ...but never skips the chain: a wrong host is still refused.
        #expect(throws: ServerTrustError.self) {
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: expired).evaluateReporting(
                trust, forHost: "example.com", now: Self.now)
        }
        let refusing = PinningPolicy(expiration: Self.now.addingTimeInterval(-1), afterExpiration: .refuse)
        #expect(
            throws: ServerTrustError(
                host: "localhost", evaluator: "PublicKeysTrustEvaluator",
                reason: .pinSetExpired(Self.now.addingTimeInterval(-1)))
        ) {
            try PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: refusing).evaluateReporting(
                trust, forHost: "localhost", now: Self.now)
        }
    }

    @Test func anExpiredSelfSignedPinIsNoLongerAnAnchor() async throws {
        let fixture = try await TLSFixture.get()
        let selfSigned = try fixture.certificate(fixture.selfSigned)
        let trust = try await EvaluatorTests.trust([selfSigned])
        let pinned = { (policy: PinningPolicy) in
            PinnedCertificatesTrustEvaluator(
                certificates: [selfSigned], acceptSelfSignedCertificates: true, policy: policy)
        }
        #expect(
            try pinned(PinningPolicy(expiration: Self.now.addingTimeInterval(60))).evaluateReporting(
                trust, forHost: "localhost", now: Self.now
            ).isEmpty)
        #expect(throws: ServerTrustError.self) {
            try pinned(PinningPolicy(expiration: Self.now.addingTimeInterval(-60))).evaluateReporting(
                trust, forHost: "localhost", now: Self.now)
        }
    }

    @Test func aCompositeGathersReports() async throws {
        let (trust, _) = try await Self.validTrust()
        let composite = CompositeTrustEvaluator(evaluators: [
            DefaultTrustEvaluator(),
            PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: .reportOnly),
            PublicKeysTrustEvaluator(keys: [Self.wrongKey], policy: .reportOnly),
        ])
        #expect(try composite.evaluateReporting(trust, forHost: "localhost").count == 2)
    }

    @Test func aKeyFileInPEMOrDERIsTheCertificatesKey() async throws {
        let fixture = try await TLSFixture.get()
        let certificate = try fixture.certificate(fixture.valid)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pem = directory.appendingPathComponent("public.pem").path
        let der = directory.appendingPathComponent("public.der").path
        try runCommand("/usr/bin/openssl", ["pkey", "-in", fixture.valid.privateKey.path, "-pubout", "-out", pem])
        try runCommand(
            "/usr/bin/openssl", ["pkey", "-in", fixture.valid.privateKey.path, "-pubout", "-outform", "DER", "-out", der])
        for path in [pem, der] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(try PublicKey(keyFile: bytes) == certificate.publicKey, "\(path)")
        }
        #expect(throws: CertificateError.self) { try PublicKey(keyFile: Array("not a key".utf8)) }
        #expect(throws: CertificateError.self) { try PublicKey(keyFile: certificate.derBytes) }
    }
}
