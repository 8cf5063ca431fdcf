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

    /// Runs each evaluator in order and gathers what their report-only policies saw.
    /// - Throws: the first evaluator's error.
    public func evaluateReporting(_ trust: ServerTrust, forHost host: String) throws -> [ServerTrustError] {
        var reported: [ServerTrustError] = []
        for evaluator in evaluators { reported += try evaluator.evaluateReporting(trust, forHost: host) }
        return reported
    }
}
