// How a pinning evaluator applies its pins: enforced or only reported, and until when.
public import FoundationEssentials

/// How `PublicKeysTrustEvaluator` and `PinnedCertificatesTrustEvaluator` apply their pins, so a
/// team can roll a pin out and rotate it without locking its clients out:
///
/// 1. Deploy the new pin set with `mode: .reportOnly`: mismatches reach event monitors
///    (`ServerTrustEvaluation.reportedViolations`) while connections still succeed.
/// 2. Enforce it once the reports are clean, with a backup pin (a key kept offline) beside the
///    live one, so the server can move to the backup without a client release.
/// 3. Give the pin set an `expiration` a little past the next planned release, so a client that
///    is never updated falls back to default validation (or, with `afterExpiration: .refuse`,
///    stops connecting) instead of pinning forever to keys that may be gone.
///
/// The chain and host checks the evaluator is configured with are always enforced; the policy
/// changes only how the pins themselves count.
public struct PinningPolicy: Sendable, Hashable {
    /// Whether a pin mismatch fails the connection.
    public enum Mode: Sendable, Hashable {
        /// A mismatch refuses the server (`ServerTrustError`).
        case enforce
        /// A mismatch is reported (`ServerTrustError` in `reportedViolations`) and the server is
        /// trusted if the chain and host checks pass.
        case reportOnly
    }

    /// What an evaluator does once the pin set has expired.
    public enum AfterExpiration: Sendable, Hashable {
        /// The pins are ignored: the chain and host checks alone decide.
        case defaultValidation
        /// Every server is refused (`ServerTrustError.Reason.pinSetExpired`): for deployments
        /// that would rather stop than connect unpinned.
        case refuse
    }

    /// Whether a mismatch fails the connection or is only reported.
    public var mode: Mode
    /// When the pins stop applying; nil for never.
    public var expiration: Date?
    /// What happens after `expiration`.
    public var afterExpiration: AfterExpiration

    /// A policy; the default enforces the pins forever.
    public init(mode: Mode = .enforce, expiration: Date? = nil, afterExpiration: AfterExpiration = .defaultValidation) {
        self.mode = mode
        self.expiration = expiration
        self.afterExpiration = afterExpiration
    }

    /// Pins enforced, with no expiry: Alamofire's behaviour.
    public static let enforced = PinningPolicy()
    /// Pins evaluated and mismatches reported, never failing a connection.
    public static let reportOnly = PinningPolicy(mode: .reportOnly)

    /// Whether the pins have expired at `now`.
    func hasExpired(at now: Date) -> Bool {
        expiration.map { now >= $0 } ?? false
    }
}

extension PinningPolicy {
    /// The pinning part of an evaluation: `matches` says whether a presented certificate or key
    /// is pinned; `mismatch` is the refusal to throw or report. Returns the violations to report.
    /// - Throws: `mismatch` when the mode enforces; `.pinSetExpired` after expiry with `.refuse`.
    func apply(
        host: String, evaluator: String, now: Date, validate: () throws(ServerTrustError) -> Void,
        matches: () -> Bool, mismatch: () -> ServerTrustError
    ) throws(ServerTrustError) -> [ServerTrustError] {
        if hasExpired(at: now), let expiration {
            switch afterExpiration {
            case .refuse:
                throw ServerTrustError(host: host, evaluator: evaluator, reason: .pinSetExpired(expiration))
            case .defaultValidation:
                try validate()
                return []
            }
        }
        try validate()
        guard !matches() else { return [] }
        switch mode {
        case .enforce: throw mismatch()
        case .reportOnly: return [mismatch()]
        }
    }
}
