// Which request a `wick bench` lane sends next, and when it was meant to start.
import Synchronization

/// Hands out request slots to the lanes, up to `-n` or until `-d` has passed; with `--rate`,
/// each slot carries its intended start (`start + index / rate`), so latency counts from when
/// the request should have left, not from when a busy lane got to it.
final class LoadSchedule: Sendable {
    private let limit: Int?
    private let deadline: ContinuousClock.Instant?
    private let start: ContinuousClock.Instant
    private let interval: Duration?
    private let issued = Atomic(0)

    init(options: LoadOptions, start: ContinuousClock.Instant) {
        limit = options.requests
        deadline = options.duration.map { start + $0 }
        self.start = start
        interval = options.rate.map { .nanoseconds(Int64((1e9 / $0).rounded())) }
    }

    /// The next slot: `.some(nil)` to send now, `.some(instant)` to send at that intended
    /// start, nil when the run is over.
    func next() -> ContinuousClock.Instant?? {
        let index = issued.add(1, ordering: .relaxed).oldValue
        if let limit, index >= limit { return nil }
        guard let interval else {
            if let deadline, ContinuousClock.now >= deadline { return nil }
            return .some(nil)
        }
        let intended = start + interval * index
        if let deadline, intended >= deadline { return nil }
        return .some(intended)
    }
}
