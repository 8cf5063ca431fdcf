// Whether one request is hedged: the session's policy, none, or a policy of its own.

/// How one request is hedged (`HTTPRequest.hedging`), in place of the session's
/// `Session.Configuration.hedging` for it. Whatever the choice, only a request the policy's
/// `methods` name and that has no streamed upload is hedged.
public enum RequestHedging: Sendable, Equatable {
    /// The session's policy, when it has one (the default).
    case sessionPolicy
    /// Never hedged, whatever the session's policy: for a request whose second copy would cost
    /// the server too much, even when it is safe to repeat.
    case disabled
    /// Hedged by `policy`, with or without a session policy; its budget and statistics are its
    /// own, shared by the requests given the same instance.
    case policy(HedgingPolicy)

    /// The policy that applies, given the session's.
    package func resolved(sessionPolicy: HedgingPolicy?) -> HedgingPolicy? {
        switch self {
        case .sessionPolicy: sessionPolicy
        case .disabled: nil
        case .policy(let policy): policy
        }
    }

    /// Equal when both are the same case; two `.policy` values when they hold the same
    /// instance.
    public static func == (lhs: RequestHedging, rhs: RequestHedging) -> Bool {
        switch (lhs, rhs) {
        case (.sessionPolicy, .sessionPolicy), (.disabled, .disabled): true
        case (.policy(let left), .policy(let right)): left === right
        default: false
        }
    }
}
