// Public-key pinning: trust a server only if a presented certificate carries a pinned key.
public import FoundationEssentials

/// Trusts a server when one of its presented certificates has one of `keys` or `backupKeys`
/// (compared by the SHA-256 of the SubjectPublicKeyInfo, so curl `sha256//` pins work), after
/// default and host validation as configured. `policy` can make the pins report-only or
/// expire (`PinningPolicy`, which also describes a safe rotation).
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys the servers use now.
    public let keys: [PublicKey]
    /// Keys accepted as well, kept for the next rotation (a key pair held offline, so the server
    /// can move to it without a client release).
    public let backupKeys: [PublicKey]
    /// Whether the chain must verify to a trusted root.
    public let performDefaultValidation: Bool
    /// Whether the leaf must be valid for the host (this checks the chain too).
    public let validateHost: Bool
    /// Whether mismatches fail or are reported, and when the pins expire.
    public let policy: PinningPolicy

    /// A key-pinning evaluator.
    public init(
        keys: [PublicKey], backupKeys: [PublicKey] = [], performDefaultValidation: Bool = true,
        validateHost: Bool = true, policy: PinningPolicy = .enforced
    ) {
        self.keys = keys
        self.backupKeys = backupKeys
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
        self.policy = policy
    }

    /// A key-pinning evaluator from curl's `--pinnedpubkey` form: `sha256//` pins separated by
    /// `;` (`sha256//A;sha256//B`), all accepted alike.
    /// - Throws: `CertificateError` if a pin is not `sha256//` and the base64 of 32 bytes.
    public init(
        pins: String, performDefaultValidation: Bool = true, validateHost: Bool = true,
        policy: PinningPolicy = .enforced
    ) throws(CertificateError) {
        self.init(
            keys: try PublicKey.pins(fromList: pins), performDefaultValidation: performDefaultValidation,
            validateHost: validateHost, policy: policy)
    }

    /// - Throws: `ServerTrustError` with `.noPublicKeysFound`, `.untrusted`,
    ///   `.publicKeyPinningFailed` (unless report-only) or `.pinSetExpired`.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        _ = try evaluateReporting(trust, forHost: host)
    }

    /// Evaluates and returns the mismatch a report-only policy saw, if any.
    /// - Throws: as `evaluate`.
    public func evaluateReporting(_ trust: ServerTrust, forHost host: String) throws -> [ServerTrustError] {
        try evaluateReporting(trust, forHost: host, now: Date())
    }

    /// The evaluation at `now` (the pins' expiry is checked against it).
    func evaluateReporting(_ trust: ServerTrust, forHost host: String, now: Date) throws(ServerTrustError)
        -> [ServerTrustError]
    {
        let name = "PublicKeysTrustEvaluator"
        let pinned = keys + backupKeys
        guard !pinned.isEmpty else { throw ServerTrustError(host: host, evaluator: name, reason: .noPublicKeysFound) }
        let presented = trust.presentedChain.map(\.publicKey)
        return try policy.apply(
            host: host, evaluator: name, now: now,
            validate: { () throws(ServerTrustError) in
                _ = try trust.validate(
                    performDefaultValidation: performDefaultValidation, validateHost: validateHost, host: host,
                    evaluator: name)
            },
            matches: { !Set(presented).isDisjoint(with: pinned) },
            mismatch: {
                ServerTrustError(
                    host: host, evaluator: name, reason: .publicKeyPinningFailed(pinned: pinned, presented: presented))
            })
    }
}
