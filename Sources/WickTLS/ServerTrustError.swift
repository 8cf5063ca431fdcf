// Why a server was not trusted: the host, the evaluator, and what failed.
public import FoundationEssentials

/// A trust evaluation failure. Its description names the host, the evaluator and the reason,
/// e.g. `PinnedCertificatesTrustEvaluator refused example.com: no presented certificate is pinned`.
public struct ServerTrustError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// `allHostsMustBeEvaluated` is set and no evaluator matches the host.
        case noRequiredEvaluator
        /// The server presented no certificate, or a pinning evaluator was given none.
        case noCertificatesFound
        /// A pinning evaluator was given no keys.
        case noPublicKeysFound
        /// Chain, host or revocation checks found these issues (the first is the headline).
        case untrusted([TrustIssue])
        /// None of the presented certificates is pinned.
        case certificatePinningFailed(pinned: [Certificate], presented: [Certificate])
        /// None of the presented certificates has a pinned key.
        case publicKeyPinningFailed(pinned: [PublicKey], presented: [PublicKey])
        /// A pinning evaluator's pin set expired at this date and its `PinningPolicy` refuses
        /// every server afterwards.
        case pinSetExpired(Date)
        /// A custom evaluator threw something else; its description.
        case custom(String)

        /// A readable account.
        public var description: String {
            switch self {
            case .noRequiredEvaluator: "no evaluator is configured for this host and all hosts must be evaluated"
            case .noCertificatesFound: "no certificates"
            case .noPublicKeysFound: "no public keys to pin"
            case .untrusted(let issues): issues.map(\.description).joined(separator: "; ")
            case .certificatePinningFailed(let pinned, let presented):
                "none of the \(presented.count) presented certificates is among the \(pinned.count) pinned ones"
            case .publicKeyPinningFailed(let pinned, let presented):
                "no presented key (\(presented.map(\.pin).joined(separator: ", "))) is among the \(pinned.count) pinned keys"
            case .pinSetExpired(let date): "the pin set expired at \(date) and the policy refuses every server after it"
            case .custom(let text): text
            }
        }
    }

    /// The host evaluated.
    public let host: String
    /// The evaluator's type name, e.g. `DefaultTrustEvaluator`.
    public let evaluator: String
    /// What failed.
    public let reason: Reason
    /// OpenSSL's verification result for the refused chain in the handshake
    /// (`ServerTrust.openSSLVerifyResult`: 0, or the first `X509_V_ERR_*` code); set by the TLS
    /// connection that refused, nil when the error was made elsewhere. 0 with `.untrusted`
    /// issues means the chain verified and the host (or revocation) did not.
    public var openSSLVerifyResult: Int?

    /// An error for `host` from `evaluator`.
    /// - Parameter openSSLVerifyResult: OpenSSL's result for the chain, when a handshake gave one.
    public init(host: String, evaluator: String, reason: Reason, openSSLVerifyResult: Int? = nil) {
        self.host = host
        self.evaluator = evaluator
        self.reason = reason
        self.openSSLVerifyResult = openSSLVerifyResult
    }

    /// The issues found, when the reason is `.untrusted`.
    public var issues: [TrustIssue] {
        if case .untrusted(let issues) = reason { issues } else { [] }
    }

    /// `<evaluator> refused <host>: <reason>`.
    public var description: String { "\(evaluator) refused \(host): \(reason)" }
}
