// Certificate pinning: trust a server only if it presents one of the pinned certificates.
import FoundationEssentials

/// Trusts a server that presents at least one of `certificates` (compared by DER), after
/// default and host validation as configured. Alamofire's semantics: with
/// `acceptSelfSignedCertificates`, the pinned certificates are also trusted as anchors, so a
/// pinned self-signed certificate passes validation. `policy` can make the pins report-only or
/// expire (`PinningPolicy`, which also describes a safe rotation).
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates.
    public let certificates: [Certificate]
    /// Whether the pinned certificates also act as trust anchors.
    public let acceptSelfSignedCertificates: Bool
    /// Whether the chain must verify to a trusted root.
    public let performDefaultValidation: Bool
    /// Whether the leaf must be valid for the host (this checks the chain too).
    public let validateHost: Bool
    /// Whether mismatches fail or are reported, and when the pins expire.
    public let policy: PinningPolicy

    /// A pinning evaluator.
    public init(
        certificates: [Certificate], acceptSelfSignedCertificates: Bool = false,
        performDefaultValidation: Bool = true, validateHost: Bool = true, policy: PinningPolicy = .enforced
    ) {
        self.certificates = certificates
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
        self.policy = policy
    }

    /// - Throws: `ServerTrustError` with `.noCertificatesFound`, `.untrusted`,
    ///   `.certificatePinningFailed` (unless report-only) or `.pinSetExpired`.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        _ = try evaluateReporting(trust, forHost: host)
    }

    /// Evaluates and returns the mismatch a report-only policy saw, if any.
    /// - Throws: as `evaluate`.
    public func evaluateReporting(_ trust: ServerTrust, forHost host: String) throws -> [ServerTrustError] {
        try evaluateReporting(trust, forHost: host, now: Date())
    }

    /// The evaluation at `now` (the pins' expiry is checked against it).
    func evaluateReporting(_ trust: ServerTrust, forHost host: String, now: Date) throws(ServerTrustError)
        -> [ServerTrustError]
    {
        let name = "PinnedCertificatesTrustEvaluator"
        guard !certificates.isEmpty else {
            throw ServerTrustError(host: host, evaluator: name, reason: .noCertificatesFound)
        }
        // Pinned self-signed certificates are anchors only while the pins apply.
        let anchors = acceptSelfSignedCertificates && !policy.hasExpired(at: now) ? certificates : []
        return try policy.apply(
            host: host, evaluator: name, now: now,
            validate: { () throws(ServerTrustError) in
                _ = try trust.validate(
                    performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host,
                    evaluator: name, additionalAnchors: anchors)
            },
            matches: { !Set(trust.presentedChain).isDisjoint(with: certificates) },
            mismatch: {
                ServerTrustError(
                    host: host, evaluator: name,
                    reason: .certificatePinningFailed(pinned: certificates, presented: trust.presentedChain))
            })
    }
}
