// Wick's SecTrust: the host, the chain the server presented, and the means to evaluate it.
public import FoundationEssentials

/// Everything needed to decide whether to trust a server, handed to `ServerTrustEvaluating`
/// evaluators after the handshake and before any application byte is written: the host, the
/// chain as presented (leaf first), a stapled OCSP response, the trust anchors, and the
/// injected revocation fetcher.
public struct ServerTrust: Sendable {
    /// The host the client connected to (name or IP literal).
    public let host: String
    /// The certificates the server sent, leaf first, exactly as sent.
    public let presentedChain: [Certificate]
    /// The DER OCSP response the server stapled, if any.
    public let stapledOCSPResponse: [UInt8]?
    /// The trust anchors chains are verified against.
    public let trustStore: TrustStore
    /// Fetches OCSP responses and CRLs for `RevocationTrustEvaluator`; nil means revocation
    /// can only use stapled responses.
    public let revocationFetcher: (any RevocationFetching)?
    /// Answers kept until their nextUpdate, shared by the connections of a context.
    public let revocationCache: RevocationCache
    /// The instant validity is judged at (certificates, CRLs, OCSP windows); nil means now.
    /// Apple's `SecTrustSetVerifyDate`.
    public let verifyDate: Date?
    /// What OpenSSL's own verification in the handshake concluded about the presented chain:
    /// `X509_V_OK` (0) when it chains to one of `trustStore`'s anchors with valid dates,
    /// signatures, CA constraints and key strength, or else the first `X509_V_ERR_*` code it met
    /// (10 expired, 18 self-signed leaf, 20 issuer not found, ...): `SSL_get_verify_result`, what
    /// curl's `%{ssl_verify_result}` prints. It checks less than `DefaultTrustEvaluator` (no host,
    /// no certificate policies, no revocation), and it is computed whatever the evaluator,
    /// `DisabledTrustEvaluator` included. It decides nothing: evaluators do. A
    /// resumed session carries the result of the handshake that made it. Nil for a trust that no
    /// handshake made.
    public let openSSLVerifyResult: Int?

    /// A trust to evaluate.
    /// - Parameter openSSLVerifyResult: OpenSSL's verification result for the chain, when a
    ///   handshake computed one.
    public init(
        host: String, presentedChain: [Certificate], stapledOCSPResponse: [UInt8]? = nil, trustStore: TrustStore,
        revocationFetcher: (any RevocationFetching)? = nil, revocationCache: RevocationCache = RevocationCache(),
        verifyDate: Date? = nil, openSSLVerifyResult: Int? = nil
    ) {
        self.verifyDate = verifyDate
        self.openSSLVerifyResult = openSSLVerifyResult
        self.host = host
        self.presentedChain = presentedChain
        self.stapledOCSPResponse = stapledOCSPResponse
        self.trustStore = trustStore
        self.revocationFetcher = revocationFetcher
        self.revocationCache = revocationCache
    }

    /// The leaf, if the server sent any certificate.
    public var leaf: Certificate? { presentedChain.first }

    /// Builds and verifies the chain to a trusted root: validity dates, signatures, CA
    /// constraints, certificate policies (RFC 5280 §6.1, with {anyPolicy} as the initial set),
    /// key and digest strength, and (when `host` is given) matching the leaf's subjectAltNames
    /// against it: dNSNames for a name, iPAddresses for an IP literal, never the subject's CN
    /// (RFC 9110 §4.3.4, RFC 9525).
    /// - Parameter additionalAnchors: certificates trusted as anchors for this evaluation only.
    /// - Returns: the chain as verified and every issue found; no issues means trusted.
    public func verifyChain(host: String?, additionalAnchors: [Certificate] = []) -> TrustEvaluation {
        let result = ChainVerifier.verify(
            presented: presentedChain, store: trustStore,
            policy: ChainVerificationPolicy(host: host, additionalAnchors: additionalAnchors, time: verifyDate))
        return TrustEvaluation(verifiedChain: result.verifiedChain, issues: result.issues)
    }
}

/// The detailed result of verifying a chain.
public struct TrustEvaluation: Sendable, Equatable {
    /// The chain OpenSSL built, leaf first, anchor last; partial when verification failed.
    public let verifiedChain: [Certificate]
    /// Every issue found, in the order found; empty means trusted.
    public let issues: [TrustIssue]

    /// Whether the chain is trusted.
    public var isTrusted: Bool { issues.isEmpty }
}
