// What a TLS connection's trust rested on: the host, the evaluator that accepted it, the chain.

/// The trust evaluation that let a TLS connection be used: for which host, by which evaluator
/// (its type's name, `DefaultTrustEvaluator`, `PublicKeysTrustEvaluator`...), and the chain the
/// server presented, leaf first. Kept with the connection's `StreamConnectionDetails`.
public struct EvaluatedServerTrust: Sendable, Hashable {
    /// The host the chain was evaluated for.
    public let host: String
    /// The evaluator's type name.
    public let evaluator: String
    /// The certificates the server sent, leaf first.
    public let presentedChain: [Certificate]
    /// What report-only pinning policies saw and did not fail on (`PinningPolicy`).
    public let reportedViolations: [ServerTrustError]
    /// OpenSSL's verification result for the chain in the handshake (`ServerTrust.openSSLVerifyResult`):
    /// 0 when it verified against the context's trust roots, else an `X509_V_ERR_*` code that
    /// the evaluator chose not to enforce (`DisabledTrustEvaluator`, pinning without default
    /// validation). Nil when no handshake computed one.
    public let openSSLVerifyResult: Int?

    /// A record of an accepted evaluation.
    public init(
        host: String, evaluator: String, presentedChain: [Certificate], reportedViolations: [ServerTrustError] = [],
        openSSLVerifyResult: Int? = nil
    ) {
        self.openSSLVerifyResult = openSSLVerifyResult
        self.host = host
        self.evaluator = evaluator
        self.presentedChain = presentedChain
        self.reportedViolations = reportedViolations
    }
}
