// Revocation checking over the whole path: stapled OCSP, then fetched OCSP or CRLs through the injected fetcher.
import FoundationEssentials

/// Checks that no certificate of the server's path is revoked, after default and host
/// validation as configured: Alamofire's `RevocationTrustEvaluator` and Apple's options, over
/// OpenSSL.
///
/// - Every certificate of the verified path but the trust anchor is checked (RFC 5280 §6.3,
///   RFC 6960): the leaf always, an intermediate when it names an OCSP responder or a CRL
///   distribution point. A revoked certificate anywhere fails the path.
/// - For each, the sources are asked in turn: the stapled OCSP response
///   (leaf only), then each responder and each distribution point the certificate names, OCSP
///   first unless `.preferCRL`, from the cache or, unless `.networkAccessDisabled`, the trust's
///   `revocationFetcher`. An unusable answer (unreachable, bad signature, unauthorized
///   responder, stale beyond a 300 s clock-skew allowance, unknown critical extension)
///   moves on to the next source.
/// - A certificate whose status stays unknown soft-fails (passes) unless
///   `.requirePositiveResponse`, which then fails the evaluation naming every reason.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// Which revocation sources to use and how strictly: Apple's `SecPolicyCreateRevocation`
    /// flags, with their raw values (`kSecRevocationOCSPMethod` = 1 ...), as Alamofire names them.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits, Apple's `kSecRevocation...` values.
        public let rawValue: UInt

        /// An option set from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Check with OCSP (stapled or fetched). `kSecRevocationOCSPMethod`.
        public static let ocsp = Options(rawValue: 1 << 0)
        /// Check with CRLs. `kSecRevocationCRLMethod`.
        public static let crl = Options(rawValue: 1 << 1)
        /// Ask CRL distribution points before OCSP responders (OCSP comes first otherwise).
        /// `kSecRevocationPreferCRL`.
        public static let preferCRL = Options(rawValue: 1 << 2)
        /// Fail unless every certificate checked gets a usable "not revoked"; without it an
        /// unreachable or unusable source is a soft failure that lets the path through.
        /// `kSecRevocationRequirePositiveResponse`.
        public static let requirePositiveResponse = Options(rawValue: 1 << 3)
        /// Use only answers already cached or stapled; fetch nothing.
        /// `kSecRevocationNetworkAccessDisabled`.
        public static let networkAccessDisabled = Options(rawValue: 1 << 4)
        /// OCSP and CRLs, whichever answers. `kSecRevocationUseAnyAvailableMethod`.
        public static let useAnyAvailable: Options = [.ocsp, .crl]
        /// OCSP and CRLs, whichever answers (the default); the same as `useAnyAvailable`.
        public static let revocationCheck: Options = .useAnyAvailable
    }

    /// Whether the chain must verify to a trusted root.
    public let performDefaultValidation: Bool
    /// Whether the leaf must be valid for the host (this checks the chain too).
    public let validateHost: Bool
    /// The sources and strictness.
    public let options: Options

    /// A revocation evaluator.
    public init(performDefaultValidation: Bool = true, validateHost: Bool = true, options: Options = .revocationCheck) {
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
        self.options = options
    }

    private static let name = "RevocationTrustEvaluator"

    /// - Throws: `ServerTrustError` with `.noCertificatesFound`, the validation's issues, or
    ///   `.untrusted`: `.revoked` naming the revoked certificate, or with
    ///   `.requirePositiveResponse` one `.revocationStatusUnknown` per certificate whose status
    ///   no source gave, with every source's reason.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        let evaluation = try trust.validate(
            performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host,
            evaluator: Self.name)
        // The path comes from the verified chain; without validation, from what was built or sent.
        let built = evaluation?.verifiedChain ?? trust.verifyChain(host: nil).verifiedChain
        let path = built.isEmpty ? trust.presentedChain : built
        guard !path.isEmpty else {
            throw ServerTrustError(host: host, evaluator: Self.name, reason: .noCertificatesFound)
        }
        let check = RevocationStatusCheck(options: options, trust: trust, now: trust.verifyDate ?? Date(), path: path)
        // The last certificate of a longer path is the trust anchor, trusted as itself (or, when
        // validation is off and the chain reaches no anchor, one whose issuer nobody sent).
        let checked = path.count > 1 ? path.count - 1 : 1
        var unknown: [TrustIssue] = []
        for index in 0..<checked {
            let certificate = path[index]
            let isLeaf = index == 0
            // The leaf is always asked about; an intermediate only if it says where to ask.
            guard isLeaf || !certificate.ocspResponderURLs.isEmpty || !certificate.crlDistributionPoints.isEmpty
            else { continue }
            let issuer = index + 1 < path.count ? path[index + 1] : nil
            switch check.status(of: certificate, issuer: issuer, staple: isLeaf ? trust.stapledOCSPResponse : nil) {
            case .good:
                continue
            case .revoked(let reason, _):
                throw ServerTrustError(
                    host: host, evaluator: Self.name,
                    reason: .untrusted([.revoked(subject: certificate.subject, reason: reason)]))
            case .unknown(let detail):
                unknown.append(.revocationStatusUnknown(subject: certificate.subject, detail: detail))
            }
        }
        if options.contains(.requirePositiveResponse), !unknown.isEmpty {
            throw ServerTrustError(host: host, evaluator: Self.name, reason: .untrusted(unknown))
        }
    }
}
