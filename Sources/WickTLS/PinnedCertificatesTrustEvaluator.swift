// Certificate pinning: trust a server only if it presents one of the pinned certificates.

/// Trusts a server that presents at least one of `certificates` (compared by DER), after
/// default and host validation as configured. Alamofire's semantics: with
/// `acceptSelfSignedCertificates`, the pinned certificates are also trusted as anchors, so a
/// pinned self-signed certificate passes validation.
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates.
    public let certificates: [Certificate]
    /// Whether the pinned certificates also act as trust anchors.
    public let acceptSelfSignedCertificates: Bool
    /// Whether the chain must verify to a trusted root.
    public let performDefaultValidation: Bool
    /// Whether the leaf must be valid for the host (this checks the chain too).
    public let validateHost: Bool

    /// A pinning evaluator.
    public init(
        certificates: [Certificate], acceptSelfSignedCertificates: Bool = false,
        performDefaultValidation: Bool = true, validateHost: Bool = true
    ) {
        self.certificates = certificates
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    /// - Throws: `ServerTrustError` with `.noCertificatesFound`, `.untrusted` or
    ///   `.certificatePinningFailed`.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        let name = "PinnedCertificatesTrustEvaluator"
        guard !certificates.isEmpty else {
            throw ServerTrustError(host: host, evaluator: name, reason: .noCertificatesFound)
        }
        _ = try trust.validate(
            performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host, evaluator: name,
            additionalAnchors: acceptSelfSignedCertificates ? certificates : [])
        guard !Set(trust.presentedChain).isDisjoint(with: certificates) else {
            throw ServerTrustError(
                host: host, evaluator: name,
                reason: .certificatePinningFailed(pinned: certificates, presented: trust.presentedChain))
        }
    }
}
