// A new TLS connection's trust evaluation, as event monitors see it.
public import WickTLS

/// The evaluation of a server's certificate chain on a new TLS connection, as
/// `EventMonitor.request(_:didEvaluateServerTrust:)` reports it: for which host, by which
/// evaluator (the one `ServerTrustManager` chose, or `DefaultTrustEvaluator`), and the outcome.
public struct ServerTrustEvaluation: Sendable {
    /// The host the chain was evaluated for.
    public let host: String
    /// The evaluator's type name (`DefaultTrustEvaluator`, `PublicKeysTrustEvaluator`, ...).
    public let evaluator: String
    /// The certificates the server presented, leaf first; empty when the evaluation failed
    /// (`result`'s error says why, with the issues found).
    public let presentedChain: [Certificate]
    /// Success, or the evaluator's refusal.
    public let result: Result<Void, ServerTrustError>
    /// What report-only pinning policies saw and did not fail on (`PinningPolicy.reportOnly`):
    /// the mismatches a team watches before it enforces a pin set. Empty for a refusal.
    public let reportedViolations: [ServerTrustError]

    /// An accepted evaluation.
    init(_ accepted: EvaluatedServerTrust) {
        host = accepted.host
        evaluator = accepted.evaluator
        presentedChain = accepted.presentedChain
        result = .success(())
        reportedViolations = accepted.reportedViolations
    }

    /// A refusal.
    init(_ refusal: ServerTrustError) {
        host = refusal.host
        evaluator = refusal.evaluator
        presentedChain = []
        result = .failure(refusal)
        reportedViolations = []
    }

    /// Whether the evaluator accepted the chain.
    public var succeeded: Bool {
        if case .success = result { true } else { false }
    }
}
