// Per-request metrics: one transaction per exchange (attempts, redirects, challenge answers).
/// The metrics of a request: one `TransactionMetrics` per exchange sent, in order (every
/// attempt, redirect hop and challenge answer), like `URLSessionTaskMetrics.transactionMetrics`.
/// The last transaction's properties read directly: `metrics.isReused`, `metrics.total`.
@dynamicMemberLookup
public struct RequestMetrics: Sendable, CustomStringConvertible {
    /// The exchanges before the last one (none for a request that took one exchange, so the
    /// usual request carries no array).
    private let earlier: [TransactionMetrics]
    /// The last exchange's metrics.
    public let last: TransactionMetrics

    init(transactions: InlineList<TransactionMetrics>) {
        guard let last = transactions.last else { preconditionFailure("RequestMetrics: no transaction") }
        self.last = last
        earlier = transactions.earlier
    }

    /// Every exchange, in order; never empty.
    public var transactions: [TransactionMetrics] { earlier + [last] }

    /// A property of the last exchange.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TransactionMetrics, Value>) -> Value {
        last[keyPath: keyPath]
    }

    /// The transactions' descriptions, one per line when there are several.
    public var description: String {
        transactions.map(\.description).joined(separator: "\n")
    }
}

