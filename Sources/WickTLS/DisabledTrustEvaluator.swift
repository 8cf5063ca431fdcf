// The evaluator that trusts everything. For debugging only.

/// **DEBUG ONLY. NEVER SHIP THIS.** Trusts every server: any certificate, any host, expired,
/// self-signed, revoked, or an attacker's. With it, TLS protects against nothing but passive
/// eavesdroppers. Use it against a local test server whose certificate you cannot fix, and
/// remove it before the code leaves your machine.
public struct DisabledTrustEvaluator: ServerTrustEvaluating {
    /// An evaluator that performs no checks at all.
    public init() {}

    /// Never throws: accepts everything.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {}
}
