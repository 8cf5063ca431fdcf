// Which evaluator applies to which host, as in Alamofire.

/// Maps hosts to evaluators. Subclass and override `serverTrustEvaluator(forHost:)` for
/// wildcard or pattern matching (the base class matches host names exactly).
///
/// When the manager returns nil for a host (allowed only if `allHostsMustBeEvaluated` is
/// false), Wick applies `DefaultTrustEvaluator()`: default validation is never skipped silently.
open class ServerTrustManager: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are immutable and Sendable; subclasses must
    // keep their own state immutable (or synchronised) too.

    /// Whether a host without an evaluator is refused (`.noRequiredEvaluator`). Default true.
    public let allHostsMustBeEvaluated: Bool
    /// Evaluators by exact host name.
    public let evaluators: [String: any ServerTrustEvaluating]

    /// A manager.
    public init(allHostsMustBeEvaluated: Bool = true, evaluators: [String: any ServerTrustEvaluating]) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.evaluators = evaluators
    }

    /// The evaluator for `host`, or nil when there is none and that is allowed.
    /// - Throws: `ServerTrustError` with `.noRequiredEvaluator` when none matches and
    ///   `allHostsMustBeEvaluated`.
    open func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
        if let evaluator = evaluators[host] { return evaluator }
        guard !allHostsMustBeEvaluated else {
            throw ServerTrustError(host: host, evaluator: "ServerTrustManager", reason: .noRequiredEvaluator)
        }
        return nil
    }
}
