// Revocation: stapled OCSP, fetched OCSP (real `openssl ocsp` answers), CRLs, caching, soft and hard fail.
import Foundation
import Synchronization
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

/// A fetcher that answers from the fixture's CA, offline, and counts what it was asked.
final class CAFetcher: RevocationFetching {
    let fixture: TLSFixture
    let requests = Mutex<[RevocationRequest]>([])
    let failing: Bool

    init(_ fixture: TLSFixture, failing: Bool = false) {
        self.fixture = fixture
        self.failing = failing
    }

    struct Unreachable: Error {}

    func fetch(_ request: RevocationRequest) throws -> [UInt8] {
        requests.withLock { $0.append(request) }
        if failing { throw Unreachable() }
        switch request.kind {
        case .crl:
            #expect(request.url == CertificateAuthority.crlURL && request.body == nil)
            return fixture.crl
        case .ocsp:
            #expect(request.url == CertificateAuthority.ocspURL)
            return Array(try fixture.authority.ocspResponse(toRequest: Data(request.body ?? [])))
        }
    }

    var kinds: [RevocationRequest.Kind] { requests.withLock { $0.map(\.kind) } }
}

@Suite struct RevocationTests {
    static func trust(
        _ leaf: KeyPath<TLSFixture, TestPKI.Identity>, fetcher: (any RevocationFetching)?, staple: [UInt8]? = nil,
        cache: RevocationCache = RevocationCache()
    ) async throws -> ServerTrust {
        let fixture = try await TLSFixture.get()
        return ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(fixture[keyPath: leaf]), stapledOCSPResponse: staple,
            trustStore: try fixture.trustStore(), revocationFetcher: fetcher, revocationCache: cache)
    }

    static func isRevoked(_ error: ServerTrustError) -> Bool {
        error.evaluator == "RevocationTrustEvaluator"
            && error.issues.contains { if case .revoked = $0 { true } else { false } }
    }

    static func isUnknown(_ error: ServerTrustError) -> Bool {
        error.issues.contains { if case .revocationStatusUnknown = $0 { true } else { false } }
    }

    @Test(arguments: [RevocationTrustEvaluator.Options.crl, .ocsp])
    func aGoodCertificatePasses(options: RevocationTrustEvaluator.Options) async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        try RevocationTrustEvaluator(options: options.union(.requirePositiveResponse))
            .evaluate(try await Self.trust(\.valid, fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.kinds == [options == .crl ? .crl : .ocsp])
    }

    @Test func revokedByCRL() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: .crl).evaluate(
                try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        }
        #expect(Self.isRevoked(error), "\(error)")
        #expect(fetcher.kinds == [.crl])
    }

    @Test func revokedByOCSP() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: .ocsp).evaluate(
                try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        }
        #expect(Self.isRevoked(error), "\(error)")
        #expect(error.description.contains("keyCompromise"))
        #expect(fetcher.kinds == [.ocsp])
    }

    @Test func ocspComesFirstUnlessCRLIsPreferred() async throws {
        let fixture = try await TLSFixture.get()
        let ocspFirst = CAFetcher(fixture)
        try RevocationTrustEvaluator().evaluate(try await Self.trust(\.valid, fetcher: ocspFirst), forHost: "localhost")
        #expect(ocspFirst.kinds == [.ocsp])
        let crlFirst = CAFetcher(fixture)
        try RevocationTrustEvaluator(options: [.ocsp, .crl, .preferCRL])
            .evaluate(try await Self.trust(\.valid, fetcher: crlFirst), forHost: "localhost")
        #expect(crlFirst.kinds == [.crl])
    }

    @Test func answersAreCachedUntilTheirNextUpdate() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        let cache = RevocationCache()
        for options in [RevocationTrustEvaluator.Options.ocsp, .crl] {
            for _ in 0..<3 {
                try RevocationTrustEvaluator(options: options.union(.requirePositiveResponse))
                    .evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
            }
        }
        #expect(fetcher.kinds == [.ocsp, .crl])
        #expect(cache.count == 2)
        // With the network off, the cached answers still count as positive.
        try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
            .evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        #expect(fetcher.kinds.count == 2)
    }

    @Test func aGoodStapleIsEnoughWithoutTheNetwork() async throws {
        let fixture = try await TLSFixture.get()
        let staple = Array(try fixture.authority.ocspResponse(for: fixture.valid))
        let fetcher = CAFetcher(fixture, failing: true)
        try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
            .evaluate(try await Self.trust(\.valid, fetcher: fetcher, staple: staple), forHost: "localhost")
        #expect(fetcher.kinds.isEmpty)
    }

    @Test func aRevokedStapleIsRevoked() async throws {
        let fixture = try await TLSFixture.get()
        let staple = Array(try fixture.authority.ocspResponse(for: fixture.revoked))
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled])
                .evaluate(try await Self.trust(\.revoked, fetcher: nil, staple: staple), forHost: "localhost")
        }
        #expect(Self.isRevoked(error))
    }

    @Test func aStapleForgedOrForAnotherCertificateIsIgnored() async throws {
        let fixture = try await TLSFixture.get()
        let otherStaple = Array(try fixture.authority.ocspResponse(for: fixture.revoked))
        let forged = Array(
            try fixture.authority.ocspResponse(for: fixture.valid, signer: fixture.stranger.intermediate))
        let tryLater: [UInt8] = [0x30, 0x03, 0x0A, 0x01, 0x03]  // OCSPResponse { responseStatus tryLater }
        for staple in [otherStaple, forged, tryLater, [0x01, 0x02]] {
            // Soft fail: no definitive answer, the connection goes on.
            try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled])
                .evaluate(try await Self.trust(\.valid, fetcher: nil, staple: staple), forHost: "localhost")
            // Hard fail when a positive answer is required.
            let error = try await #require(throws: ServerTrustError.self) {
                try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
                    .evaluate(try await Self.trust(\.valid, fetcher: nil, staple: staple), forHost: "localhost")
            }
            #expect(Self.isUnknown(error), "\(error)")
            #expect(error.description.contains("stapled"))
        }
    }

    @Test func unreachableRespondersSoftFailUnlessAPositiveResponseIsRequired() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get(), failing: true)
        try RevocationTrustEvaluator().evaluate(try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.kinds == [.ocsp, .crl])
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.ocsp, .crl, .requirePositiveResponse])
                .evaluate(try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        }
        #expect(Self.isUnknown(error))
        #expect(error.description.contains("OCSP POST") && error.description.contains("CRL GET"))
    }

    @Test func withoutNetworkNothingIsFetched() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        try RevocationTrustEvaluator(options: [.ocsp, .crl, .networkAccessDisabled])
            .evaluate(try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        #expect(fetcher.kinds.isEmpty)
        await #expect(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.ocsp, .crl, .networkAccessDisabled, .requirePositiveResponse])
                .evaluate(try await Self.trust(\.revoked, fetcher: fetcher), forHost: "localhost")
        }
    }

    @Test func aCertificateWithoutRevocationInformationIsUnknown() async throws {
        let fixture = try await TLSFixture.get()
        let trust = ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(fixture.pki.server),
            trustStore: try fixture.trustStore(),
            revocationFetcher: CAFetcher(fixture))
        try RevocationTrustEvaluator().evaluate(trust, forHost: "localhost")
        let error = try #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.ocsp, .crl, .requirePositiveResponse]).evaluate(
                trust, forHost: "localhost")
        }
        #expect(error.description.contains("names no responder") && error.description.contains("no distribution point"))
    }

    @Test func defaultValidationStillComesFirst() async throws {
        let fixture = try await TLSFixture.get()
        let error = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator().evaluate(
                try await Self.trust(\.expired, fetcher: CAFetcher(fixture)), forHost: "localhost")
        }
        #expect(error.issues.contains { if case .expired = $0 { true } else { false } })
    }

    @Test func stapledRevocationThroughTheEngine() async throws {
        let fixture = try await TLSFixture.get()
        let good = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext(
                staple: Array(try fixture.authority.ocspResponse(for: fixture.valid))))
        try good.connect(
            evaluator: RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse]))

        let revoked = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await TLSEngineTests.serverContext(
                \.revoked, staple: Array(try fixture.authority.ocspResponse(for: fixture.revoked))))
        #expect {
            try revoked.connect(evaluator: RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled]))
        } throws: { error in
            guard case .serverTrustFailed(let trustError) = error as? TLSError else { return false }
            return Self.isRevoked(trustError)
        }
    }

    @Test func fetchedRevocationThroughTheEngineUsesTheContextsFetcher() async throws {
        let fixture = try await TLSFixture.get()
        let fetcher = CAFetcher(fixture)
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([try fixture.root()])
        let context = try TLSContext(configuration: configuration, revocationFetcher: fetcher)
        let pair = try InMemoryTLS(clientContext: context, serverContext: try await TLSEngineTests.serverContext(\.revoked))
        #expect(throws: TLSError.self) { try pair.connect(evaluator: RevocationTrustEvaluator()) }
        #expect(fetcher.kinds == [.ocsp])
    }

    /// The cache holds `capacity` answers; one more drops the one expiring first.
    @Test func theRevocationCacheIsBounded() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        let cache = RevocationCache(capacity: 1)
        let ocsp = RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse])
        let crl = RevocationTrustEvaluator(options: [.crl, .requirePositiveResponse])
        try ocsp.evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        try ocsp.evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        #expect(cache.count == 1 && fetcher.kinds == [.ocsp])
        try crl.evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        #expect(cache.count == 1)
        try ocsp.evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        #expect(fetcher.kinds == [.ocsp, .crl, .ocsp])
    }

    static func trust(
        _ leaf: KeyPath<TLSFixture, TestPKI.Identity>, fetcher: (any RevocationFetching)?, staple: [UInt8]? = nil,
        cache: RevocationCache = RevocationCache(), at date: Date
    ) async throws -> ServerTrust {
        let fixture = try await TLSFixture.get()
        return ServerTrust(
            host: "localhost", presentedChain: try fixture.chain(fixture[keyPath: leaf]), stapledOCSPResponse: staple,
            trustStore: try fixture.trustStore(), revocationFetcher: fetcher, revocationCache: cache, verifyDate: date)
    }

    /// Answers are valid for one day: two days on, each is outside its window.
    @Test func answersPastTheirNextUpdateAreNotUsed() async throws {
        let fixture = try await TLSFixture.get()
        let later = Date() + 2 * 86_400
        let staple = Array(try fixture.authority.ocspResponse(for: fixture.valid))
        let strict = RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
        try strict.evaluate(try await Self.trust(\.valid, fetcher: nil, staple: staple, at: Date()), forHost: "localhost")
        let stale = try await #require(throws: ServerTrustError.self) {
            try strict.evaluate(try await Self.trust(\.valid, fetcher: nil, staple: staple, at: later), forHost: "localhost")
        }
        #expect(stale.description.contains("outside its thisUpdate/nextUpdate window"))
        // Soft fail lets it through.
        try RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled])
            .evaluate(try await Self.trust(\.valid, fetcher: nil, staple: staple, at: later), forHost: "localhost")

        let fetcher = CAFetcher(fixture)
        let staleCRL = try await #require(throws: ServerTrustError.self) {
            try RevocationTrustEvaluator(options: [.crl, .requirePositiveResponse])
                .evaluate(try await Self.trust(\.valid, fetcher: fetcher, at: later), forHost: "localhost")
        }
        #expect(
            staleCRL.description.contains("the CRL is outside its thisUpdate/nextUpdate window: it has expired"),
            "\(staleCRL)")
    }

    /// RFC 6960 §4.2.2.1: without nextUpdate "newer revocation information is available all
    /// the time"; Wick uses such an answer for a day after its thisUpdate (plus the skew), so an
    /// old one cannot pass forever.
    @Test func anAnswerWithoutNextUpdateIsUsedForADay() async throws {
        let fixture = try await TLSFixture.get()
        let staple = try await onOwnThread { Array(try fixture.authority.ocspResponse(for: fixture.valid, days: nil)) }
        let strict = RevocationTrustEvaluator(
            performDefaultValidation: false, validateHost: false,
            options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
        try strict.evaluate(
            try await Self.trust(\.valid, fetcher: nil, staple: staple, at: Date() + 86_000), forHost: "localhost")
        let stale = try await #require(throws: ServerTrustError.self) {
            try strict.evaluate(
                try await Self.trust(\.valid, fetcher: nil, staple: staple, at: Date() + 86_400 + 400),
                forHost: "localhost")
        }
        #expect(stale.description.contains("states no nextUpdate"), "\(stale)")
    }

    @Test func aCachedAnswerExpiresWithItsNextUpdate() async throws {
        let fetcher = CAFetcher(try await TLSFixture.get())
        let cache = RevocationCache()
        let evaluator = RevocationTrustEvaluator(options: [.ocsp])
        try evaluator.evaluate(try await Self.trust(\.valid, fetcher: fetcher, cache: cache), forHost: "localhost")
        try evaluator.evaluate(
            try await Self.trust(\.valid, fetcher: fetcher, cache: cache, at: Date() + 3_600), forHost: "localhost")
        #expect(fetcher.kinds == [.ocsp])
        try evaluator.evaluate(
            try await Self.trust(\.valid, fetcher: fetcher, cache: cache, at: Date() + 2 * 86_400), forHost: "localhost")
        #expect(fetcher.kinds == [.ocsp, .ocsp])
    }

    /// The `This Update` or `Next Update` openssl wrote into a DER OCSP response.
    static func update(_ field: String, of response: Data) async throws -> Date {
        let file = try await TLSFixture.get().pki.directory.appendingPathComponent("next-update-\(UUID().uuidString).der")
        try response.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try runCommand("/usr/bin/openssl", ["ocsp", "-respin", file.path, "-resp_text", "-noverify"])
        let line = try #require(text.split(separator: "\n").first { $0.contains("\(field):") })
        let stamp = line.split(separator: ":", maxSplits: 1)[1].split(separator: " ").joined(separator: " ")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        return try #require(formatter.date(from: stamp))
    }

    /// `RevocationWindow.allowedClockSkew` (300 s) outside thisUpdate...nextUpdate is still
    /// accepted; one second more is not.
    @Test func theClockSkewAllowanceIsExactly300Seconds() async throws {
        let fixture = try await TLSFixture.get()
        let response = try fixture.authority.ocspResponse(for: fixture.valid)
        let this = try await Self.update("This Update", of: response)
        let next = try await Self.update("Next Update", of: response)
        // The certificates were made at thisUpdate: judge only the response's window.
        let strict = RevocationTrustEvaluator(
            performDefaultValidation: false, validateHost: false,
            options: [.ocsp, .networkAccessDisabled, .requirePositiveResponse])
        for (date, accepted) in [(next + 300, true), (next + 301, false), (this - 300, true), (this - 301, false)] {
            let trust = try await Self.trust(\.valid, fetcher: nil, staple: Array(response), at: date)
            if accepted {
                try strict.evaluate(trust, forHost: "localhost")
            } else {
                #expect(throws: ServerTrustError.self) { try strict.evaluate(trust, forHost: "localhost") }
            }
        }
    }
}
