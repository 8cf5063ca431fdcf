// Lets the cancellation handler find its request on the runner's loop.

/// A slot for the `TransportExchange` of one `execute` call, filled on the runner's loop when
/// the exchange is made and read there by the cancellation handler, which hops to the loop too.
/// A cancellation that gets there first (the task was cancelled before `execute` began) is
/// remembered in `isCancelledEarly`, and the exchange starts cancelled.
///
/// `@unchecked Sendable` proof: both properties are written and read only on the runner's loop
/// (the `execute` body and the `onCancel` hop both run there), and loop tasks run one at a time.
final class TransportExchangeReference: @unchecked Sendable {
    var value: TransportExchange?
    var isCancelledEarly = false

    init() {}
}
