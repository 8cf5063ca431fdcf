// Per-request metrics: one transaction per exchange (attempts, redirects, challenge answers).
/// The metrics of a request: one `TransactionMetrics` per exchange sent, in order (every
/// attempt, redirect hop and challenge answer), like `URLSessionTaskMetrics.transactionMetrics`.
/// The last transaction's properties read directly: `metrics.isReused`, `metrics.total`.
@dynamicMemberLookup
public struct RequestMetrics: Sendable, CustomStringConvertible {
    /// Every exchange, in order; never empty.
    public let transactions: [TransactionMetrics]

    init(transactions: [TransactionMetrics]) {
        precondition(!transactions.isEmpty, "RequestMetrics: no transaction")
        self.transactions = transactions
    }

    /// The last exchange's metrics.
    public var last: TransactionMetrics { transactions[transactions.count - 1] }

    /// A property of the last exchange.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TransactionMetrics, Value>) -> Value {
        last[keyPath: keyPath]
    }

    /// The transactions' descriptions, one per line when there are several.
    public var description: String {
        transactions.map(\.description).joined(separator: "\n")
    }
}
