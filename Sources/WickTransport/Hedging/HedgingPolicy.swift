// When idempotent requests send a second attempt, and the budget that keeps hedges a small share.
public import WickCore
import WickReactor

/// Hedged requests (as in "The Tail at Scale"): a request whose response head has not arrived
/// after `delay` sends a second attempt to the same origin on another connection; the first
/// complete response wins and the other attempt is cancelled, its connection closed (never
/// returned to the pool mid-response). Set it as `Session.Configuration.hedging`; nil (the
/// default) hedges nothing.
///
/// Only requests that may safely be sent twice are hedged: methods in `methods` (idempotent
/// ones by default), with no streamed body (uploads from a file or stream are not hedged), and
/// whose response is collected whole (data requests; downloads and streams are not hedged).
///
/// **The budget** keeps hedges from doubling the load on a slow backend: each request adds
/// `budgetRatio` of a hedge to a bucket holding at most `maximumBurst` (and starting full); a
/// hedge takes one. Over time hedges add at most `budgetRatio` of the requests.
///
/// `statistics` counts requests, hedges sent and won, and refusals. Thread-safe: one lock,
/// taken a few times per hedgeable request.
public final class HedgingPolicy: Sendable {
    /// The policy's counts since it was created.
    public struct Statistics: Sendable, Hashable {
        /// Requests the policy could hedge.
        public var requests = 0
        /// Second attempts sent.
        public var hedgesSent = 0
        /// Second attempts whose response came first.
        public var hedgesWon = 0
        /// Hedges the budget refused.
        public var refusedByBudget = 0

        /// Counts with these values.
        public init(requests: Int = 0, hedgesSent: Int = 0, hedgesWon: Int = 0, refusedByBudget: Int = 0) {
            self.requests = requests
            self.hedgesSent = hedgesSent
            self.hedgesWon = hedgesWon
            self.refusedByBudget = refusedByBudget
        }
    }

    /// How many recent latencies per host a `.percentile` delay is taken from.
    public static let latencySamples = 100
    /// How many hosts keep latencies; past that, the host tracked longest is forgotten.
    public static let maximumTrackedHosts = 256

    /// When the second attempt starts.
    public let delay: HedgeDelay
    /// The share of requests hedges may add over time (0.1: one hedge per ten requests).
    public let budgetRatio: Double
    /// The most hedges the budget holds at once (and holds at the start).
    public let maximumBurst: Double
    /// The methods hedged.
    public let methods: Set<HTTPMethod>

    private struct State {
        var tokens: Double
        var statistics = Statistics()
        /// Each host's last latencies, oldest first, and the order hosts were last recorded in.
        var latencies: [String: [Duration]] = [:]
        var recordOrder: [String] = []
    }

    private let state: Locked<State>

    /// A policy hedging `methods` after `delay`, within a budget of `budgetRatio` of the
    /// requests and bursts of `maximumBurst`. Traps if `budgetRatio` is negative or not finite,
    /// or `maximumBurst` is below 0, or a percentile is outside 0...1.
    public init(
        delay: HedgeDelay = .percentile(0.95, fallback: .milliseconds(100)), budgetRatio: Double = 0.1,
        maximumBurst: Double = 10, methods: Set<HTTPMethod> = [.get, .head, .options, .trace, .put, .delete]
    ) {
        precondition(budgetRatio >= 0 && budgetRatio.isFinite, "HedgingPolicy: budgetRatio must be finite and not negative")
        precondition(maximumBurst >= 0 && maximumBurst.isFinite, "HedgingPolicy: maximumBurst must be finite and not negative")
        if case .percentile(let percentile, _, _) = delay {
            precondition((0...1).contains(percentile), "HedgingPolicy: percentile \(percentile) is not within 0...1")
        }
        self.delay = delay
        self.budgetRatio = budgetRatio
        self.maximumBurst = maximumBurst
        self.methods = methods
        state = Locked(State(tokens: maximumBurst))
    }

    /// The counts so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Counts a hedgeable request to `host` (it adds to the budget) and returns how long it
    /// waits for its response head before a hedge.
    package func requestStarted(host: String) -> Duration {
        state.withLock { state in
            state.statistics.requests += 1
            state.tokens = min(maximumBurst, state.tokens + budgetRatio)
            switch delay {
            case .fixed(let wait):
                return wait
            case .percentile(let percentile, let minimumSamples, let fallback):
                guard let samples = state.latencies[host.lowercased()], samples.count >= max(1, minimumSamples) else {
                    return fallback
                }
                let sorted = samples.sorted()
                let rank = Int((Double(sorted.count) * percentile).rounded(.up)) - 1
                return sorted[max(0, min(sorted.count - 1, rank))]
            }
        }
    }

    /// Takes a hedge from the budget: false (counted as a refusal) when none is left.
    package func withdrawHedge() -> Bool {
        state.withLock { state in
            guard state.tokens >= 1 else {
                state.statistics.refusedByBudget += 1
                return false
            }
            state.tokens -= 1
            state.statistics.hedgesSent += 1
            return true
        }
    }

    /// Records a request's latency (start to response head) for `host`, and whether a hedge won it.
    package func requestEnded(host: String, latency: Duration, hedgeWon: Bool) {
        state.withLock { state in
            if hedgeWon { state.statistics.hedgesWon += 1 }
            let key = host.lowercased()
            if state.latencies[key] == nil, state.latencies.count >= Self.maximumTrackedHosts,
                let oldest = state.recordOrder.first
            {
                state.latencies[oldest] = nil
                state.recordOrder.removeFirst()
            }
            if state.latencies[key] == nil { state.recordOrder.append(key) }
            var samples = state.latencies.removeValue(forKey: key) ?? []
            if samples.count == Self.latencySamples { samples.removeFirst() }
            samples.append(latency)
            state.latencies[key] = samples
        }
    }
}
