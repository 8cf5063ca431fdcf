// One trust evaluator for every host, as curl applies `-k` and `--pinnedpubkey` to each host
// a transfer reaches (redirects included).
import Wick

/// A trust manager that answers every host with the same evaluator.
final class EveryHostTrustManager: ServerTrustManager, @unchecked Sendable {
    // @unchecked Sendable: as the base class; the one stored property is immutable and Sendable.
    /// The evaluator for all hosts.
    let evaluator: any ServerTrustEvaluating

    /// A manager whose answer is always `evaluator`.
    init(evaluator: any ServerTrustEvaluating) {
        self.evaluator = evaluator
        super.init(allHostsMustBeEvaluated: true, evaluators: [:])
    }

    /// `evaluator`, whatever the host.
    override func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
        evaluator
    }
}
