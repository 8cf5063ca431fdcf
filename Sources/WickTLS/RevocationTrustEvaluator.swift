// Revocation checking: stapled OCSP, then fetched OCSP or CRL through the injected fetcher.
import FoundationEssentials

/// Checks that the leaf is not revoked, after default and host validation as configured.
/// Alamofire's evaluator and options over OpenSSL:
///
/// - A stapled OCSP response is used first when `.ocsp` is allowed (verified: signature,
///   status, thisUpdate/nextUpdate window).
/// - Otherwise the answer comes from the cache (kept until its nextUpdate) or, unless
///   `.networkAccessDisabled`, from the trust's `revocationFetcher`: OCSP from the leaf's
///   responder URL, the CRL from its distribution point, OCSP first unless `.preferCRL`.
/// - Without a definitive answer the check soft-fails (passes) unless
///   `.requirePositiveResponse`. Only the leaf is checked.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// Which revocation sources to use and how strictly.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt

        /// An option set from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Check with CRLs.
        public static let crl = Options(rawValue: 1 << 0)
        /// Only use answers already cached or stapled; fetch nothing.
        public static let networkAccessDisabled = Options(rawValue: 1 << 1)
        /// Check with OCSP (stapled or fetched).
        public static let ocsp = Options(rawValue: 1 << 2)
        /// Try the CRL before OCSP.
        public static let preferCRL = Options(rawValue: 1 << 3)
        /// Fail unless some source positively says "not revoked".
        public static let requirePositiveResponse = Options(rawValue: 1 << 4)
        /// OCSP and CRL, whichever answers (the default).
        public static let revocationCheck: Options = [.crl, .ocsp]
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

    /// - Throws: `ServerTrustError` with `.untrusted` (`.revoked`, or
    ///   `.revocationStatusUnknown` when a positive response is required and none came).
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        let evaluation = try trust.validate(
            performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host,
            evaluator: Self.name)
        // The issuer comes from the verified chain; without validation, from what was built or sent.
        let chain = evaluation?.verifiedChain ?? trust.verifyChain(host: nil).verifiedChain
        let now = trust.verifyDate ?? Date()
        guard let leaf = trust.leaf else {
            throw ServerTrustError(host: host, evaluator: Self.name, reason: .noCertificatesFound)
        }
        let issuer = chain.count > 1 ? chain[1] : trust.presentedChain.dropFirst().first
        var methods: [RevocationRequest.Kind] = options.contains(.preferCRL) ? [.crl, .ocsp] : [.ocsp, .crl]
        methods.removeAll { $0 == .crl ? !options.contains(.crl) : !options.contains(.ocsp) }
        var details: [String] = []
        for method in methods {
            let outcome =
                method == .ocsp
                ? checkOCSP(trust, leaf: leaf, issuer: issuer, chain: chain, now: now)
                : checkCRL(trust, leaf: leaf, now: now)
            switch outcome {
            case .good:
                return
            case .revoked(let reason, _):
                throw ServerTrustError(
                    host: host, evaluator: Self.name,
                    reason: .untrusted([.revoked(subject: leaf.subject, reason: reason)]))
            case .unknown(let detail):
                details.append(detail)
            }
        }
        if options.contains(.requirePositiveResponse) {
            let detail = details.isEmpty ? "no revocation method is enabled" : details.joined(separator: "; ")
            throw ServerTrustError(
                host: host, evaluator: Self.name,
                reason: .untrusted([.revocationStatusUnknown(subject: leaf.subject, detail: detail)]))
        }
    }

    private func checkOCSP(
        _ trust: ServerTrust, leaf: Certificate, issuer: Certificate?, chain: [Certificate], now: Date
    )
        -> RevocationOutcome
    {
        guard let issuer else { return .unknown("OCSP: the issuer of \(leaf.subject) is unknown") }
        let intermediates = Array(chain.dropFirst())
        var details: [String] = []
        if let staple = trust.stapledOCSPResponse {
            let outcome = OCSPBridge.check(
                response: staple, leaf: leaf, issuer: issuer, intermediates: intermediates, store: trust.trustStore,
                now: now)
            if case .unknown(let detail) = outcome { details.append("stapled: \(detail)") } else { return outcome }
        }
        guard let url = leaf.ocspResponderURLs.first else {
            return .unknown((details + ["OCSP: the certificate names no responder"]).joined(separator: "; "))
        }
        guard let request = OCSPBridge.request(leaf: leaf, issuer: issuer) else {
            return .unknown("OCSP: cannot build the request")
        }
        let key = "ocsp \(url) " + Base64.encode(X509Parsing.sha256(request))
        let answer = fetch(trust, RevocationRequest(kind: .ocsp, url: url, body: request), key: key, now: now) {
            bytes in
            OCSPBridge.check(
                response: bytes, leaf: leaf, issuer: issuer, intermediates: intermediates, store: trust.trustStore,
                now: now)
        }
        if case .unknown(let detail) = answer { return .unknown((details + [detail]).joined(separator: "; ")) }
        return answer
    }

    private func checkCRL(_ trust: ServerTrust, leaf: Certificate, now: Date) -> RevocationOutcome {
        guard let url = leaf.crlDistributionPoints.first else {
            return .unknown("CRL: the certificate names no distribution point")
        }
        return fetch(trust, RevocationRequest(kind: .crl, url: url, body: nil), key: "crl \(url)", now: now) { bytes in
            let verification = ChainVerifier.verify(
                presented: trust.presentedChain, store: trust.trustStore,
                policy: ChainVerificationPolicy(host: nil, crls: [bytes], time: now))
            let next = OCSPBridge.nextUpdate(ofCRL: bytes)
            for issue in verification.issues {
                switch issue {
                case .revoked(_, let reason): return .revoked(reason: "CRL: \(reason)", nextUpdate: next)
                case .revocationStatusUnknown(_, let detail): return .unknown("CRL: \(detail)")
                default: continue
                }
            }
            return .good(nextUpdate: next)
        }
    }

    /// An answer from the cache, else from the fetcher (unless network access is disabled),
    /// judged by `judge`; definitive answers are cached until their nextUpdate.
    private func fetch(
        _ trust: ServerTrust, _ request: RevocationRequest, key: String, now: Date,
        judge: ([UInt8]) -> RevocationOutcome
    ) -> RevocationOutcome {
        if let cached = trust.revocationCache.answer(for: key, at: now) { return judge(cached) }
        guard !options.contains(.networkAccessDisabled) else {
            return .unknown("\(request): network access is disabled and nothing is cached")
        }
        guard let fetcher = trust.revocationFetcher else { return .unknown("\(request): no fetcher is configured") }
        let bytes: [UInt8]
        do {
            bytes = try fetcher.fetch(request)
        } catch {
            return .unknown("\(request) failed: \(error)")
        }
        let outcome = judge(bytes)
        switch outcome {
        case .good(let next?), .revoked(_, let next?):
            trust.revocationCache.store(bytes, for: key, until: next)
        case .good(nil), .revoked(_, nil), .unknown:
            break
        }
        return outcome
    }
}
