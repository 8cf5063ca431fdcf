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
    /// CN=localhost and no subjectAltName at all (a CN-ID only).
    let commonNameOnly: TestPKI.Identity
    /// CN=127.0.0.1 and no subjectAltName.
    let commonNameIPOnly: TestPKI.Identity
    /// `127.0.0.1` as a dNSName, not an iPAddress.
    let ipAsDNSName: TestPKI.Identity
    /// An RSA-2048 leaf for localhost, so that a server can offer static RSA key transport.
    let rsa2048: TestPKI.Identity
    /// Chains whose policyConstraints require an explicit policy (RFC 5280 §6.1).
    let policy: PolicyChains
    /// A path whose intermediates name their own revocation sources (RFC 5280 §6.3).
    let path: RevocationPath

    /// Two intermediates under the root that both require an explicit policy
    /// (`policyConstraints=critical,requireExplicitPolicy:0`), and a leaf under each.
    struct PolicyChains: Sendable {
        /// The policy every certificate of `withPolicy`'s path carries.
        static let oid = "2.23.140.1.2.1"
        /// Requires an explicit policy and carries none.
        let emptyCA: TestPKI.Identity
        /// Under `emptyCA`, carries no policy: no certificate carries one, so the path fails.
        let withoutPolicy: TestPKI.Identity
        /// Requires an explicit policy and carries `oid`.
        let policyCA: TestPKI.Identity
        /// Under `policyCA`, carries `oid`: the path is valid.
        let withPolicy: TestPKI.Identity
    }

    /// The root as an `openssl ca`, issuing two intermediates that name the root's OCSP
    /// responder and CRL, one of them revoked; under each a leaf naming two responders and two
    /// distribution points of its intermediate. Every answer the tests serve is made here, on
    /// the fixture's own thread, so that no test runs openssl on the cooperative pool.
    struct RevocationPath: Sendable {
        static let rootOCSP = "http://ocsp.root.wick.test/"
        static let rootCRL = "http://crl.wick.test/root.crl"
        static let ocsp = ["http://ocsp-1.wick.test/", "http://ocsp-2.wick.test/"]
        static let crl = ["http://crl.wick.test/first.crl", "http://crl.wick.test/second.crl"]
        let goodCA: TestPKI.Identity
        /// Under `goodCA`, not revoked.
        let leaf: TestPKI.Identity
        /// Under `goodCA`, revoked by it.
        let revokedLeaf: TestPKI.Identity
        /// Revoked by the root.
        let revokedCA: TestPKI.Identity
        /// Under `revokedCA`, itself not revoked.
        let leafUnderRevokedCA: TestPKI.Identity
        let answers: Answers

        /// DER OCSP responses (valid for a day) and CRLs, truthful unless named otherwise.
        struct Answers: Sendable {
            let leafOCSP, revokedLeafOCSP, leafUnderRevokedCAOCSP, goodCAOCSP, revokedCAOCSP: [UInt8]
            let goodCACRL, revokedCACRL, rootCRL: [UInt8]
            /// About `leaf`: signed by another PKI's CA.
            let forgedOCSP: [UInt8]
            /// About `leaf`: signed by a delegated responder of `goodCA` with id-kp-OCSPSigning.
            let delegatedOCSP: [UInt8]
            /// About `leaf`: signed by a certificate of `goodCA` without id-kp-OCSPSigning.
            let unauthorizedOCSP: [UInt8]
            /// `leafOCSP` with `OCSPResponseEditor`'s private extension, critical or not.
            let criticalExtensionOCSP, nonCriticalExtensionOCSP: [UInt8]
            /// `goodCA`'s CRL with a `CertificateAuthority.CRLExtension` each.
            let unknownCriticalCRL, onlyCACRL, ownPointCRL, otherPointCRL: [UInt8]
            /// `goodCA`'s CRL whose window ended a day ago.
            let staleCRL: [UInt8]
        }
    }

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
        let root = try CertificateAuthority(
            pki: pki, issuer: pki.root, name: "root-ca", ocspURLs: [RevocationPath.rootOCSP],
            crlURLs: [RevocationPath.rootCRL])
        let emptyCA = try root.issueIntermediate(
            named: "policy-empty-ca", policyConstraints: "requireExplicitPolicy:0", revocationInfo: false)
        let policyCA = try root.issueIntermediate(
            named: "policy-ca", policyConstraints: "requireExplicitPolicy:0",
            certificatePolicies: [PolicyChains.oid], revocationInfo: false)
        func subAuthority(_ issuer: TestPKI.Identity, _ name: String, ocsp: [String] = [], crl: [String] = [])
            throws -> CertificateAuthority
        {
            try CertificateAuthority(pki: pki, issuer: issuer, name: name, ocspURLs: ocsp, crlURLs: crl)
        }
        let policy = PolicyChains(
            emptyCA: emptyCA,
            withoutPolicy: try subAuthority(emptyCA, "policy-empty-ca-db").issueLeaf(
                named: "no-policy", dnsNames: ["localhost"], revocationInfo: false),
            policyCA: policyCA,
            withPolicy: try subAuthority(policyCA, "policy-ca-db").issueLeaf(
                named: "with-policy", dnsNames: ["localhost"], revocationInfo: false,
                certificatePolicies: [PolicyChains.oid]))
        let goodCA = try root.issueIntermediate(named: "good-ca")
        let good = try subAuthority(goodCA, "good-ca-db", ocsp: RevocationPath.ocsp, crl: RevocationPath.crl)
        let revokedCA = try root.issueIntermediate(named: "revoked-ca")
        let underRevoked = try subAuthority(
            revokedCA, "revoked-ca-db", ocsp: RevocationPath.ocsp, crl: RevocationPath.crl)
        let leaf = try good.issueLeaf(named: "path-leaf", dnsNames: ["localhost"])
        let revokedLeaf = try good.issueLeaf(named: "path-revoked-leaf", dnsNames: ["localhost"])
        let leafUnderRevokedCA = try underRevoked.issueLeaf(named: "under-revoked-ca", dnsNames: ["localhost"])
        try root.revoke(revokedCA)
        try good.revoke(revokedLeaf)
        let stranger = try TestPKI.generate(in: directory.appendingPathComponent("stranger"))
        let leafOCSP = Array(try good.ocspResponse(for: leaf))
        func edited(critical: Bool) throws -> [UInt8] {
            try OCSPResponseEditor.addingExtension(
                critical: critical, to: leafOCSP, signer: goodCA, in: pki.directory)
        }
        let answers = RevocationPath.Answers(
            leafOCSP: leafOCSP, revokedLeafOCSP: Array(try good.ocspResponse(for: revokedLeaf)),
            leafUnderRevokedCAOCSP: Array(try underRevoked.ocspResponse(for: leafUnderRevokedCA)),
            goodCAOCSP: Array(try root.ocspResponse(for: goodCA)),
            revokedCAOCSP: Array(try root.ocspResponse(for: revokedCA)),
            goodCACRL: Array(try good.crl()), revokedCACRL: Array(try underRevoked.crl()),
            rootCRL: Array(try root.crl()),
            forgedOCSP: Array(try good.ocspResponse(for: leaf, signer: stranger.intermediate)),
            delegatedOCSP: Array(
                try good.ocspResponse(for: leaf, signer: try good.issueOCSPResponder(named: "responder"))),
            unauthorizedOCSP: Array(
                try good.ocspResponse(
                    for: leaf, signer: try good.issueOCSPResponder(named: "responder-no-eku", ocspSigning: false))),
            criticalExtensionOCSP: try edited(critical: true), nonCriticalExtensionOCSP: try edited(critical: false),
            unknownCriticalCRL: Array(try good.crl(extension: .unknownCritical)),
            onlyCACRL: Array(try good.crl(extension: .onlyCACertificates)),
            ownPointCRL: Array(try good.crl(extension: .ownDistributionPoint)),
            otherPointCRL: Array(try good.crl(extension: .otherDistributionPoint)),
            staleCRL: Array(try good.crl(between: (now - 3 * day, now - day))))
        let path = RevocationPath(
            goodCA: goodCA, leaf: leaf, revokedLeaf: revokedLeaf, revokedCA: revokedCA,
            leafUnderRevokedCA: leafUnderRevokedCA, answers: answers)
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
            stranger: stranger,
            crl: [],
            commonNameOnly: try authority.issueLeaf(named: "cn-only", dnsNames: [], commonName: "localhost"),
            commonNameIPOnly: try authority.issueLeaf(named: "cn-ip-only", dnsNames: [], commonName: "127.0.0.1"),
            ipAsDNSName: try authority.issueLeaf(named: "ip-as-dns", dnsNames: ["127.0.0.1"]),
            rsa2048: try authority.issueLeaf(named: "rsa2048", dnsNames: ["localhost"], key: .rsa(bits: 2048)),
            policy: policy, path: path)
        try authority.revoke(fixture.revoked)
        return TLSFixture(
            pki: fixture.pki, authority: fixture.authority, valid: fixture.valid, expired: fixture.expired,
            notYetValid: fixture.notYetValid, wildcard: fixture.wildcard, rsa1024: fixture.rsa1024, sha1: fixture.sha1,
            selfSigned: fixture.selfSigned, revoked: fixture.revoked, client: fixture.client,
            stranger: fixture.stranger,
            crl: Array(try authority.crl()), commonNameOnly: fixture.commonNameOnly,
            commonNameIPOnly: fixture.commonNameIPOnly, ipAsDNSName: fixture.ipAsDNSName, rsa2048: fixture.rsa2048,
            policy: policy, path: path)
    }

    /// The certificate of an identity.
    func certificate(_ identity: TestPKI.Identity) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOf: identity.certificate, encoding: .utf8))
    }

    /// The chain a server sends for a leaf of this PKI: leaf then intermediate (`issuer`,
    /// the main intermediate unless given).
    func chain(_ identity: TestPKI.Identity, issuer: TestPKI.Identity? = nil) throws -> [Certificate] {
        [try certificate(identity), try certificate(issuer ?? pki.intermediate)]
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
