// The protocol every trust policy implements, as in Alamofire.

/// A policy deciding whether a server is trusted, run after the TLS handshake and before any
/// request byte is written. Alamofire's protocol, over Wick's `ServerTrust`.
///
/// `evaluate` may block while a revocation fetch runs (`RevocationTrustEvaluator`), so the
/// transport calls it where blocking is allowed, never on an event-loop thread.
public protocol ServerTrustEvaluating: Sendable {
    /// Returns normally if `trust` is acceptable for `host`.
    /// - Throws: `ServerTrustError` naming the host, the evaluator and what failed (custom
    ///   evaluators may throw other errors; the transport reports them as `.custom`).
    func evaluate(_ trust: ServerTrust, forHost host: String) throws

    /// Evaluates as `evaluate` does and returns the violations a report-only policy saw but
    /// did not fail on (`PinningPolicy.Mode.reportOnly`), which reach event monitors. The
    /// default runs `evaluate` and reports nothing.
    /// - Throws: what `evaluate` throws.
    func evaluateReporting(_ trust: ServerTrust, forHost host: String) throws -> [ServerTrustError]
}

extension ServerTrustEvaluating {
    /// Runs `evaluate`; nothing to report.
    public func evaluateReporting(_ trust: ServerTrust, forHost host: String) throws -> [ServerTrustError] {
        try evaluate(trust, forHost: host)
        return []
    }
}

extension ServerTrust {
    /// The chain check an evaluator runs: default validation (a trusted chain) and/or host
    /// validation. As with Apple's `SecTrust`, checking the host also checks the chain (a name
    /// on an untrusted certificate proves nothing); `additionalAnchors` are trusted too.
    /// - Throws: `ServerTrustError.untrusted` with every issue found.
    func validate(
        performDefaultValidation: Bool, validateHost: Bool, host: String, evaluator: String,
        additionalAnchors: [Certificate] = []
    ) throws(ServerTrustError) -> TrustEvaluation? {
        guard !presentedChain.isEmpty else {
            throw ServerTrustError(host: host, evaluator: evaluator, reason: .noCertificatesFound)
        }
        guard performDefaultValidation || validateHost else { return nil }
        let evaluation = verifyChain(host: validateHost ? host : nil, additionalAnchors: additionalAnchors)
        guard evaluation.isTrusted else {
            throw ServerTrustError(host: host, evaluator: evaluator, reason: .untrusted(evaluation.issues))
        }
        return evaluation
    }
}
