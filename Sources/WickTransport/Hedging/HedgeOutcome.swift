// What hedging did for one request: not needed, refused by the budget, or which attempt won.

/// What `HedgingPolicy` did for a request it could hedge (`TransactionMetrics.hedge`).
public enum HedgeOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The first attempt's response head came before the hedge delay: nothing more was sent.
    case notNeeded
    /// The delay passed but the policy's budget had no hedge left: nothing more was sent.
    case refusedByBudget
    /// A second attempt was sent, and the first attempt's response came first; the second was
    /// cancelled (its connection closed).
    case firstWon
    /// A second attempt was sent and its response came first; the first was cancelled (its
    /// connection closed).
    case hedgeWon

    /// `hedge won`, ...
    public var description: String {
        switch self {
        case .notNeeded: "hedge not needed"
        case .refusedByBudget: "hedge refused by the budget"
        case .firstWon: "hedged, first attempt won"
        case .hedgeWon: "hedge won"
        }
    }
}
