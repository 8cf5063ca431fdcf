// Several evaluators that must all pass, in order.

/// Runs each evaluator in order; the first failure is the result.
public struct CompositeTrustEvaluator: ServerTrustEvaluating {
    /// The evaluators, in the order they run.
    public let evaluators: [any ServerTrustEvaluating]

    /// A composite of `evaluators`.
    public init(evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// - Throws: the first evaluator's error.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        for evaluator in evaluators { try evaluator.evaluate(trust, forHost: host) }
    }
}
