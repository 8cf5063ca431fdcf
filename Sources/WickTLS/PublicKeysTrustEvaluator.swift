// Public-key pinning: trust a server only if a presented certificate carries a pinned key.

/// Trusts a server when one of its presented certificates has one of `keys` (compared by the
/// SHA-256 of the SubjectPublicKeyInfo, so curl `sha256//` pins work), after default and host
/// validation as configured.
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys.
    public let keys: [PublicKey]
    /// Whether the chain must verify to a trusted root.
    public let performDefaultValidation: Bool
    /// Whether the leaf must be valid for the host (this checks the chain too).
    public let validateHost: Bool

    /// A key-pinning evaluator.
    public init(keys: [PublicKey], performDefaultValidation: Bool = true, validateHost: Bool = true) {
        self.keys = keys
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    /// - Throws: `ServerTrustError` with `.noPublicKeysFound`, `.untrusted` or
    ///   `.publicKeyPinningFailed`.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        let name = "PublicKeysTrustEvaluator"
        guard !keys.isEmpty else { throw ServerTrustError(host: host, evaluator: name, reason: .noPublicKeysFound) }
        _ = try trust.validate(
            performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host, evaluator: name)
        let presented = trust.presentedChain.map(\.publicKey)
        guard !Set(presented).isDisjoint(with: keys) else {
            throw ServerTrustError(
                host: host, evaluator: name, reason: .publicKeyPinningFailed(pinned: keys, presented: presented))
        }
    }
}
