// Per-request metrics: one transaction per exchange (attempts, redirects, challenge answers).
/// The metrics of a request: one `TransactionMetrics` per exchange sent, in order (every
/// attempt, redirect hop and challenge answer), like `URLSessionTaskMetrics.transactionMetrics`.
/// The last transaction's properties read directly: `metrics.isReused`, `metrics.total`.
@dynamicMemberLookup
public struct RequestMetrics: Sendable, CustomStringConvertible {
    /// The transactions, behind one reference: inline, the metrics were too many fields for the
    /// compiler to copy or destroy them (or an optional of them) directly, and it went through
    /// the type's value witnesses, several hundred instructions each time a response, an outcome
    /// or a `DataResponse` holding them was copied or released.
    private final class Storage: Sendable {
        /// The exchanges before the last one (none for a request that took one exchange, so the
        /// usual request carries no array).
        let earlier: [TransactionMetrics]
        let last: TransactionMetrics

        init(earlier: [TransactionMetrics], last: TransactionMetrics) {
            self.earlier = earlier
            self.last = last
        }
    }

    private let storage: Storage

    /// The metrics of `earlier`'s exchanges, if any, then `transaction`'s.
    init(appending transaction: consuming TransactionMetrics, to earlier: RequestMetrics?) {
        storage = Storage(earlier: earlier?.transactions ?? [], last: transaction)
    }

    /// The last exchange's metrics.
    public var last: TransactionMetrics { storage.last }

    /// Every exchange, in order; never empty.
    public var transactions: [TransactionMetrics] { storage.earlier + [storage.last] }

    /// A property of the last exchange.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TransactionMetrics, Value>) -> Value {
        storage.last[keyPath: keyPath]
    }

    /// The transactions' descriptions, one per line when there are several.
    public var description: String {
        transactions.map(\.description).joined(separator: "\n")
    }
}
