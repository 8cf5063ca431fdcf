// The evaluator that checks what every TLS client checks: a trusted chain, and the host.

/// Trusts a server whose chain verifies to a trusted root and (by default) whose leaf is valid
/// for the host. What Wick does when no evaluator is configured for a host.
public struct DefaultTrustEvaluator: ServerTrustEvaluating {
    /// Whether the leaf must be valid for the host.
    public let validateHost: Bool

    /// - Parameter validateHost: whether the leaf must be valid for the host (default true).
    public init(validateHost: Bool = true) {
        self.validateHost = validateHost
    }

    /// - Throws: `ServerTrustError` with `.untrusted` issues or `.noCertificatesFound`.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        _ = try trust.validate(
            performDefaultValidation: true, validateHost: validateHost, host: host, evaluator: "DefaultTrustEvaluator")
    }
}
