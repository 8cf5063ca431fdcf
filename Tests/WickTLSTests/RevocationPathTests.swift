// Revocation over the whole path (RFC 5280 §6.3, RFC 6960): intermediates, several sources, answers judged before use.
import Foundation
import Synchronization
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

/// A fetcher that answers each URL as a test scripts it, from memory (the fixture made every
/// answer), and records the URLs asked.
final class ScriptedFetcher: RevocationFetching {
    enum Answer: Sendable {
        /// These bytes, whatever was asked.
        case bytes([UInt8])
        /// The responder cannot be reached.
        case unreachable
    }

    struct Unreachable: Error {}

    let answers: [String: Answer]
    let asked = Mutex<[String]>([])

    init(_ answers: [String: Answer]) { self.answers = answers }

    func fetch(_ request: RevocationRequest) throws -> [UInt8] {
        asked.withLock { $0.append(request.url) }
        switch answers[request.url] ?? .unreachable {
        case .bytes(let bytes):
            return bytes
        case .unreachable:
            throw Unreachable()
        }
    }

    var urls: [String] { asked.withLock { $0 } }
}

@Suite struct RevocationPathTests {
    typealias Path = TLSFixture.RevocationPath

    /// The chains the tests present, each with its intermediate.
    enum Chain {
        /// `leaf` under `goodCA`.
        case good
        /// `revokedLeaf` under `goodCA`.
        case revokedLeaf
        /// `leafUnderRevokedCA` under `revokedCA`.
        case underRevokedCA
    }

    /// Every source of `chain` answering truthfully: the root's responder and CRL for the
    /// intermediate, its intermediate's for the leaf; `overriding` replaces some.
    static func fetcher(_ overriding: [String: ScriptedFetcher.Answer] = [:], chain: Chain = .good) async throws
        -> ScriptedFetcher
    {
        let answers = try await TLSFixture.get().path.answers
        let (leafOCSP, leafCRL, caOCSP) =
            switch chain {
            case .good: (answers.leafOCSP, answers.goodCACRL, answers.goodCAOCSP)
            case .revokedLeaf: (answers.revokedLeafOCSP, answers.goodCACRL, answers.goodCAOCSP)
            case .underRevokedCA: (answers.leafUnderRevokedCAOCSP, answers.revokedCACRL, answers.revokedCAOCSP)
            }
        var scripted: [String: ScriptedFetcher.Answer] = [
            Path.rootOCSP: .bytes(caOCSP), Path.rootCRL: .bytes(answers.rootCRL),
        ]
        for url in Path.ocsp { scripted[url] = .bytes(leafOCSP) }
        for url in Path.crl { scripted[url] = .bytes(leafCRL) }
        return ScriptedFetcher(scripted.merging(overriding) { $1 })
    }

    static func trust(
        _ leaf: KeyPath<Path, TestPKI.Identity> = \.leaf, under ca: KeyPath<Path, TestPKI.Identity> = \.goodCA,
        fetcher: ScriptedFetcher, cache: RevocationCache = RevocationCache(), at date: Date? = nil
    ) async throws -> ServerTrust {
        let fixture = try await TLSFixture.get()
        return ServerTrust(
            host: "localhost",
            presentedChain: try fixture.chain(fixture.path[keyPath: leaf], issuer: fixture.path[keyPath: ca]),
            trustStore: try fixture.trustStore(), revocationFetcher: fetcher, revocationCache: cache, verifyDate: date)
    }

    static let strictOCSP = RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse])
    static let strictCRL = RevocationTrustEvaluator(options: [.crl, .requirePositiveResponse])

    /// Apple's `kSecRevocation...` values, which Alamofire's options carry.
    @Test func theOptionsHaveApplesValues() {
        typealias Options = RevocationTrustEvaluator.Options
        #expect(
            [Options.ocsp, .crl, .preferCRL, .requirePositiveResponse, .networkAccessDisabled, .useAnyAvailable]
                .map(\.rawValue) == [1, 2, 4, 8, 16, 3])
        #expect(Options.revocationCheck == .useAnyAvailable)
    }

    /// RFC 5280 §6.3 and RFC 6960: the intermediate names the root's responder and CRL, so its
    /// status is asked too, after the leaf's; the anchor is not.
    @Test func everyCertificateOfThePathIsChecked() async throws {
        let ocsp = try await Self.fetcher()
        try Self.strictOCSP.evaluate(try await Self.trust(fetcher: ocsp), forHost: "localhost")
        #expect(ocsp.urls == [Path.ocsp[0], Path.rootOCSP])
        let crl = try await Self.fetcher()
        try Self.strictCRL.evaluate(try await Self.trust(fetcher: crl), forHost: "localhost")
        #expect(crl.urls == [Path.crl[0], Path.rootCRL])
    }

    /// A revoked intermediate fails the path, though the leaf itself is good.
    @Test(arguments: [RevocationTrustEvaluator.Options.ocsp, .crl])
    func aRevokedIntermediateFailsThePath(method: RevocationTrustEvaluator.Options) async throws {
        let fetcher = try await Self.fetcher(chain: .underRevokedCA)
        let trust = try await Self.trust(\.leafUnderRevokedCA, under: \.revokedCA, fetcher: fetcher)
        let error = try #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: method).evaluate(trust, forHost: "localhost")
        }
        guard case .revoked(let subject, let reason) = error.issues.first else {
            Issue.record("expected a revocation, got \(error)")
            return
        }
        #expect(subject == "CN=Wick Test revoked-ca")
        #expect(reason.contains("keyCompromise"), "\(reason)")
    }

    /// A revoked leaf under a good intermediate fails by either method.
    @Test(arguments: [RevocationTrustEvaluator.Options.ocsp, .crl])
    func aRevokedLeafFailsThePath(method: RevocationTrustEvaluator.Options) async throws {
        let trust = try await Self.trust(\.revokedLeaf, fetcher: try await Self.fetcher(chain: .revokedLeaf))
        let error = try #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: method).evaluate(trust, forHost: "localhost")
        }
        #expect(
            error.issues.first
                == .revoked(
                    subject: "CN=localhost", reason: method == .ocsp ? "OCSP: keyCompromise" : "CRL: keyCompromise"))
    }

    /// Through a handshake: the context's fetcher is asked about the intermediate too, and the
    /// server is refused before any application byte.
    @Test func aRevokedIntermediateIsRefusedThroughTheEngine() async throws {
        let fixture = try await TLSFixture.get()
        let fetcher = try await Self.fetcher(chain: .underRevokedCA)
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([try fixture.root()])
        let leaf = fixture.path.leafUnderRevokedCA
        let server = try TLSServerContext(
            certificateChain: try fixture.chain(leaf, issuer: fixture.path.revokedCA),
            privateKeyPEM: try fixture.key(leaf))
        let pair = try InMemoryTLS(
            clientContext: try TLSContext(configuration: configuration, revocationFetcher: fetcher),
            serverContext: server)
        #expect {
            try pair.connect(evaluator: RevocationTrustEvaluator())
        } throws: { error in
            guard case .serverTrustFailed(let trustError) = error as? TLSError,
                case .revoked(let subject, _) = trustError.issues.first
            else { return false }
            return subject == "CN=Wick Test revoked-ca"
        }
        #expect(fetcher.urls == [Path.ocsp[0], Path.rootOCSP])
    }

    /// An unusable answer from one source, and what it must not be taken for.
    struct Unusable: Sendable, CustomTestStringConvertible {
        var name: String
        var method: RevocationTrustEvaluator.Options
        var answer: @Sendable (TLSFixture.RevocationPath.Answers) -> ScriptedFetcher.Answer
        /// Text the reason for refusing it contains.
        var detail: String
        var testDescription: String { name }
    }

    static let unusable: [Unusable] = [
        Unusable(name: "OCSP unreachable", method: .ocsp, answer: { _ in .unreachable }, detail: "failed"),
        Unusable(
            name: "OCSP forged by another CA", method: .ocsp,
            answer: { .bytes($0.forgedOCSP) }, detail: "does not verify"),
        // RFC 6960 §4.2.2.2: a delegated responder must carry id-kp-OCSPSigning.
        Unusable(
            name: "OCSP signed by a certificate of the issuer without OCSPSigning", method: .ocsp,
            answer: { .bytes($0.unauthorizedOCSP) }, detail: "does not verify"),
        Unusable(
            name: "OCSP tryLater", method: .ocsp, answer: { _ in .bytes([0x30, 0x03, 0x0A, 0x01, 0x03]) },
            detail: "trylater"),
        Unusable(name: "OCSP garbage", method: .ocsp, answer: { _ in .bytes([0x01, 0x02]) }, detail: "not DER"),
        // RFC 5280 §4.2's rule, which RFC 6960 §4.4 extensions follow: an answer with a critical
        // extension the client does not recognise is not used.
        Unusable(
            name: "OCSP with an unknown critical extension", method: .ocsp,
            answer: { .bytes($0.criticalExtensionOCSP) },
            detail: "critical extension Wick does not understand (\(OCSPResponseEditor.oid))"),
        Unusable(name: "CRL unreachable", method: .crl, answer: { _ in .unreachable }, detail: "failed"),
        // RFC 5280 §5.2: "a CRL ... with a critical extension it does not process ... must not be used".
        Unusable(
            name: "CRL with an unknown critical extension", method: .crl,
            answer: { .bytes($0.unknownCriticalCRL) },
            detail: "critical extension Wick does not understand (1.3.6.1.4.1.99999.1)"),
        // RFC 5280 §5.2.5: a CRL limited to CA certificates says nothing about a leaf.
        Unusable(
            name: "CRL covering CA certificates only", method: .crl,
            answer: { .bytes($0.onlyCACRL) },
            detail: "covers only CA certificates"),
        // RFC 5280 §6.3.3 (b)(2)(i): a CRL scoped to another distribution point is not this one's.
        Unusable(
            name: "CRL for another distribution point", method: .crl,
            answer: { .bytes($0.otherPointCRL) },
            detail: "is for http://crl.wick.test/other.crl, not \(Path.crl[0]) where it was fetched"),
        // RFC 5280 §6.3.3 (a)(2): the CRL must be current (nextUpdate not passed).
        Unusable(
            name: "CRL past its nextUpdate", method: .crl,
            answer: { .bytes($0.staleCRL) }, detail: "has expired"),
        // RFC 5280 §6.3.3 (b), (f): issued by the certificate's issuer, and its signature verifies.
        Unusable(
            name: "CRL of another issuer", method: .crl, answer: { .bytes($0.rootCRL) },
            detail: "is issued by CN=Wick Test Root CA"),
        Unusable(
            name: "CRL with a broken signature", method: .crl,
            answer: { answers in
                var bytes = answers.goodCACRL
                bytes[bytes.count - 1] ^= 0x01
                return .bytes(bytes)
            }, detail: "signature does not verify"),
    ]

    /// A certificate may name several responders and distribution points: an unusable answer
    /// from the first is not the end, the second decides. When every source is unusable the
    /// status is unknown: a soft failure, and a hard one with `.requirePositiveResponse`.
    @Test(arguments: unusable)
    func anUnusableAnswerMovesOnToTheNextSource(_ testCase: Unusable) async throws {
        let urls = testCase.method == .ocsp ? Path.ocsp : Path.crl
        let bad = testCase.answer(try await TLSFixture.get().path.answers)
        let evaluator = RevocationTrustEvaluator(options: testCase.method.union(.requirePositiveResponse))

        let second = try await Self.fetcher([urls[0]: bad])
        try evaluator.evaluate(try await Self.trust(fetcher: second), forHost: "localhost")
        #expect(second.urls.prefix(2) == [urls[0], urls[1]][...])

        // The second source's answer counts as much as a first one would: a revocation too.
        let revoked = try await Self.fetcher([urls[0]: bad], chain: .revokedLeaf)
        await #expect(throws: ServerTrustError.self) {
            try evaluator.evaluate(try await Self.trust(\.revokedLeaf, fetcher: revoked), forHost: "localhost")
        }

        let none = try await Self.fetcher([urls[0]: bad, urls[1]: bad])
        try RevocationTrustEvaluator(options: testCase.method).evaluate(
            try await Self.trust(fetcher: none), forHost: "localhost")
        let error = try await #require(throws: ServerTrustError.self) {
            try evaluator.evaluate(try await Self.trust(fetcher: none), forHost: "localhost")
        }
        guard case .revocationStatusUnknown(let subject, let detail) = error.issues.first else {
            Issue.record("expected an unknown status, got \(error)")
            return
        }
        #expect(subject == "CN=localhost")
        #expect(detail.contains(urls[0]) && detail.contains(urls[1]) && detail.contains(testCase.detail), "\(detail)")
    }

    /// The edited response is sound but for the flag: the same extension, not critical, is used.
    @Test func anUnknownNonCriticalOCSPExtensionIsIgnored() async throws {
        let answers = try await TLSFixture.get().path.answers
        let fetcher = try await Self.fetcher([Path.ocsp[0]: .bytes(answers.nonCriticalExtensionOCSP)])
        try Self.strictOCSP.evaluate(try await Self.trust(fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.urls == [Path.ocsp[0], Path.rootOCSP])
    }

    /// A CRL whose issuingDistributionPoint names the distribution point it came from is used.
    @Test func aCRLScopedToItsOwnDistributionPointIsUsed() async throws {
        let answers = try await TLSFixture.get().path.answers
        let fetcher = try await Self.fetcher([Path.crl[0]: .bytes(answers.ownPointCRL)])
        try Self.strictCRL.evaluate(try await Self.trust(fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.urls == [Path.crl[0], Path.rootCRL])
    }

    /// RFC 6960 §4.2.2.2: a responder the issuer delegated to, with id-kp-OCSPSigning, may sign.
    @Test func aDelegatedResponderIsAuthorized() async throws {
        let answers = try await TLSFixture.get().path.answers
        let fetcher = try await Self.fetcher([Path.ocsp[0]: .bytes(answers.delegatedOCSP)])
        try Self.strictOCSP.evaluate(try await Self.trust(fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.urls == [Path.ocsp[0], Path.rootOCSP])
    }

    /// An intermediate whose responders cannot be reached soft-fails by default; with
    /// `.requirePositiveResponse` the evaluation fails, naming the intermediate.
    @Test func anUnreachableIntermediateResponderIsSoftFailUnlessAPositiveResponseIsRequired() async throws {
        let fetcher = try await Self.fetcher([Path.rootOCSP: .unreachable, Path.rootCRL: .unreachable])
        try RevocationTrustEvaluator().evaluate(try await Self.trust(fetcher: fetcher), forHost: "localhost")
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.ocsp, .crl, .requirePositiveResponse])
                .evaluate(try await Self.trust(fetcher: fetcher), forHost: "localhost")
        }
        guard case .revocationStatusUnknown(let subject, let detail) = error.issues.first, error.issues.count == 1
        else {
            Issue.record("expected one unknown status, got \(error)")
            return
        }
        #expect(subject == "CN=Wick Test good-ca")
        #expect(
            detail.contains("OCSP POST \(Path.rootOCSP) failed") && detail.contains("CRL GET \(Path.rootCRL) failed"))
    }

    /// Answers about intermediates are cached until their nextUpdate, like the leaf's.
    @Test func answersForEveryCertificateAreCachedUntilTheirNextUpdate() async throws {
        let fetcher = try await Self.fetcher()
        let cache = RevocationCache()
        for _ in 0..<3 {
            try Self.strictOCSP.evaluate(try await Self.trust(fetcher: fetcher, cache: cache), forHost: "localhost")
        }
        #expect(fetcher.urls == [Path.ocsp[0], Path.rootOCSP])
        #expect(cache.count == 2)
        // Past their nextUpdate (answers are valid for one day) both are asked again; the new
        // answers, made now, are still inside their window give or take the 300 s skew.
        try RevocationTrustEvaluator(performDefaultValidation: false, validateHost: false, options: [.ocsp])
            .evaluate(
                try await Self.trust(fetcher: fetcher, cache: cache, at: Date() + 86_400 + 200), forHost: "localhost")
        #expect(fetcher.urls.count == 4)
    }
}
