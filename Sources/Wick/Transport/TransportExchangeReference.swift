// Lets the cancellation handler find its request on the runner's loop.
/// A slot for the `TransportExchange` of one `execute` call, filled on the runner's loop when
/// the exchange is made and read there by the cancellation handler, which hops to the loop too.
///
/// `@unchecked Sendable` proof: `value` is written and read only on the runner's loop (both the
/// `execute` task body and the `onCancel` hop run there), and loop tasks run one at a time.
final class TransportExchangeReference: @unchecked Sendable {
    var value: TransportExchange?

    init() {}
}
