// The one PKI the WickTLS tests share: made lazily with the openssl command, once per test run.
import Foundation
import Synchronization
import WickTLS
import WickTestSupport

/// Every certificate the TLS tests use, hostile ones included. Made once (a few seconds of
/// openssl runs) the first time a test asks, then shared read-only by every suite.
struct TLSFixture: Sendable {
    let pki: TestPKI
    let authority: CertificateAuthority
    /// localhost, 127.0.0.1, ::1; signed by the intermediate; names OCSP and CRL URLs.
    let valid: TestPKI.Identity
    let expired: TestPKI.Identity
    let notYetValid: TestPKI.Identity
    /// `*.wick.test`.
    let wildcard: TestPKI.Identity
    let rsa1024: TestPKI.Identity
    let sha1: TestPKI.Identity
    let selfSigned: TestPKI.Identity
    /// Revoked in the database (so by CRL and by OCSP).
    let revoked: TestPKI.Identity
    /// A client identity for mutual TLS, issued by the same intermediate.
    let client: TestPKI.Identity
    /// A PKI nobody trusts; its `server` leaf names localhost.
    let stranger: TestPKI
    /// The intermediate's CRL, listing `revoked`.
    let crl: [UInt8]

    /// The shared fixture, made on first use. Tests suspend while it is made: building it runs
    /// openssl a few dozen times, and doing that on Swift's cooperative threads (two on a 2-core
    /// machine) while other tests waited for the same value blocked every test in the process
    /// for up to 18 s.
    static func get() async throws -> TLSFixture {
        try await FixtureBuild.shared.value()
    }

    fileprivate static func make() throws -> TLSFixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wick-tls-tests-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        atexit {
            try? FileManager.default.removeItem(
                at: FileManager.default.temporaryDirectory.appendingPathComponent("wick-tls-tests-\(getpid())"))
        }
        let pki = try TestPKI.generate(in: directory.appendingPathComponent("main"))
        let authority = try CertificateAuthority(pki: pki)
        let now = Date()
        let day: TimeInterval = 86_400
        let fixture = TLSFixture(
            pki: pki,
            authority: authority,
            valid: try authority.issueLeaf(named: "valid", dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"]),
            expired: try authority.issueLeaf(
                named: "expired", dnsNames: ["localhost"], validity: .between(now - 60 * day, now - 30 * day)),
            notYetValid: try authority.issueLeaf(
                named: "not-yet-valid", dnsNames: ["localhost"], validity: .between(now + 30 * day, now + 60 * day)),
            wildcard: try authority.issueLeaf(named: "wildcard", dnsNames: ["*.wick.test"]),
            rsa1024: try authority.issueLeaf(named: "rsa1024", dnsNames: ["localhost"], key: .rsa(bits: 1024)),
            sha1: try authority.issueLeaf(named: "sha1", dnsNames: ["localhost"], digest: "sha1"),
            selfSigned: try authority.selfSignedLeaf(named: "self-signed", dnsNames: ["localhost"]),
            revoked: try authority.issueLeaf(named: "revoked", dnsNames: ["localhost"]),
            client: try authority.issueLeaf(named: "client", dnsNames: ["client.wick.test"], revocationInfo: false),
            stranger: try TestPKI.generate(in: directory.appendingPathComponent("stranger")),
            crl: [])
        try authority.revoke(fixture.revoked)
        return TLSFixture(
            pki: fixture.pki, authority: fixture.authority, valid: fixture.valid, expired: fixture.expired,
            notYetValid: fixture.notYetValid, wildcard: fixture.wildcard, rsa1024: fixture.rsa1024, sha1: fixture.sha1,
            selfSigned: fixture.selfSigned, revoked: fixture.revoked, client: fixture.client,
            stranger: fixture.stranger,
            crl: Array(try authority.crl()))
    }

    /// The certificate of an identity.
    func certificate(_ identity: TestPKI.Identity) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOf: identity.certificate, encoding: .utf8))
    }

    /// The chain a server sends for a leaf of this PKI: leaf then intermediate.
    func chain(_ identity: TestPKI.Identity) throws -> [Certificate] {
        [try certificate(identity), try certificate(pki.intermediate)]
    }

    /// The root, the one trust anchor.
    func root() throws -> Certificate { try certificate(pki.root) }

    /// The private key of an identity, PEM.
    func key(_ identity: TestPKI.Identity) throws -> String {
        try String(contentsOf: identity.privateKey, encoding: .utf8)
    }

    /// A store trusting only this PKI's root.
    func trustStore() throws -> TrustStore { try TrustStore(roots: .certificates([root()])) }
}

/// Builds the fixture once, on a thread of its own, and hands the result to every test that asks,
/// in the meantime suspending them rather than blocking the cooperative pool.
private final class FixtureBuild: Sendable {
    static let shared = FixtureBuild()

    private enum State {
        case notStarted
        case building(waiters: [CheckedContinuation<TLSFixture, any Error>])
        case built(Result<TLSFixture, any Error>)
    }

    private let state = Mutex<State>(.notStarted)

    func value() async throws -> TLSFixture {
        try await withCheckedThrowingContinuation { continuation in
            let (ready, start): (Result<TLSFixture, any Error>?, Bool) = state.withLock { state in
                switch state {
                case .notStarted:
                    state = .building(waiters: [continuation])
                    return (nil, true)
                case .building(let waiters):
                    state = .building(waiters: waiters + [continuation])
                    return (nil, false)
                case .built(let result):
                    return (result, false)
                }
            }
            if let ready { continuation.resume(with: ready) }
            if start { Thread { self.build() }.start() }
        }
    }

    private func build() {
        let result = Result { try TLSFixture.make() }
        let waiters = state.withLock { state in
            guard case .building(let waiters) = state else { return [CheckedContinuation<TLSFixture, any Error>]() }
            state = .built(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
