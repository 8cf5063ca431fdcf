// A retry budget: retries may add at most a set fraction of a session's requests over a window.
import WickCore
import WickReactor

/// A limit on retries that keeps a failing dependency from meeting a retry storm: over a
/// sliding `window`, the retries a session makes (or makes to one host, with `scope: .host`) may
/// number at most `minimumRetriesPerSecond × window + ratio × requests`, counting as requests
/// the first attempts started in that window. gRPC's retry throttling and Finagle's
/// `RetryBudget` work the same way.
///
/// Set it as `Session.Configuration.retryBudget`. It applies to every retrier's decision (a
/// `RetryPolicy`, an `AuthenticationInterceptor`'s refresh, a retrier of the user's): a retry
/// the budget refuses ends the request with the attempt's error, and event monitors hear
/// `requestRetryWasRefusedByBudget(_:)`. With the defaults (ratio 0.2, 10 retries a second,
/// a 10 s window), a dependency that fails every request gets at most 20 % more requests plus
/// 10 a second, instead of the `retryLimit` times more that a plain policy sends.
///
/// Thread-safe: the counts are kept under a lock taken once per request and once per retry.
public final class RetryBudget: Sendable {
    /// What one budget covers.
    public enum Scope: Sendable, Hashable {
        /// One budget for all of a session's requests.
        case session
        /// One budget per host (the request URL's host, case-insensitive), so one failing host
        /// does not use up the retries of the others.
        case host
    }

    /// The budget's counts since it was created.
    public struct Statistics: Sendable, Hashable {
        /// Requests counted (first attempts).
        public var requests = 0
        /// Retries the budget allowed.
        public var retriesAllowed = 0
        /// Retries the budget refused.
        public var retriesRefused = 0

        /// Counts with these values.
        public init(requests: Int = 0, retriesAllowed: Int = 0, retriesRefused: Int = 0) {
            self.requests = requests
            self.retriesAllowed = retriesAllowed
            self.retriesRefused = retriesRefused
        }
    }

    /// How many hosts a `.host` budget tracks; past that, hosts idle for a whole window are
    /// forgotten, and new hosts share one budget while none is idle.
    public static let maximumTrackedHosts = 1024

    /// The fraction of requests that retries may add (0.2: one retry per five requests).
    public let ratio: Double
    /// The retries per second allowed whatever the traffic, so a quiet session still retries.
    public let minimumRetriesPerSecond: Double
    /// How far back requests and retries count.
    public let window: Duration
    /// Whether the budget is the session's or each host's.
    public let scope: Scope

    private struct State {
        var ledgers: [String: RetryBudgetLedger] = [:]
        var statistics = Statistics()
    }

    /// Where hosts go when `maximumTrackedHosts` are tracked and none is idle.
    private static let sharedKey = ""
    private let state = Locked(State())

    /// A budget: retries may add `ratio` of the requests over `window`, and
    /// `minimumRetriesPerSecond` whatever the traffic.
    ///
    /// Traps if `ratio` or `minimumRetriesPerSecond` is negative or not finite, or `window`
    /// is not positive.
    public init(
        ratio: Double = 0.2, minimumRetriesPerSecond: Double = 10, window: Duration = .seconds(10),
        scope: Scope = .session
    ) {
        precondition(ratio >= 0 && ratio.isFinite, "RetryBudget: ratio must be finite and not negative")
        precondition(
            minimumRetriesPerSecond >= 0 && minimumRetriesPerSecond.isFinite,
            "RetryBudget: minimumRetriesPerSecond must be finite and not negative")
        precondition(window > .zero, "RetryBudget: window must be positive")
        self.ratio = ratio
        self.minimumRetriesPerSecond = minimumRetriesPerSecond
        self.window = window
        self.scope = scope
    }

    /// The counts so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Counts a request's first attempt to `host`.
    func recordRequest(host: String?, at now: Deadline = .now()) {
        state.withLock { state in
            state.statistics.requests += 1
            let key = ledgerKey(host, in: &state, at: now)
            state.ledgers[key, default: newLedger()].recordRequest(at: now)
        }
    }

    /// Counts a retry to `host` and returns true if the budget allows it; false if not.
    func withdrawRetry(host: String?, at now: Deadline = .now()) -> Bool {
        state.withLock { state in
            let key = ledgerKey(host, in: &state, at: now)
            let allowed = state.ledgers[key, default: newLedger()].withdrawRetry(at: now)
            if allowed { state.statistics.retriesAllowed += 1 } else { state.statistics.retriesRefused += 1 }
            return allowed
        }
    }

    private func newLedger() -> RetryBudgetLedger {
        RetryBudgetLedger(ratio: ratio, minimumRetriesPerSecond: minimumRetriesPerSecond, window: window)
    }

    /// The ledger `host` is counted in, making room for it if the table of hosts is full.
    private func ledgerKey(_ host: String?, in state: inout State, at now: Deadline) -> String {
        guard scope == .host, let host, !host.isEmpty else { return Self.sharedKey }
        let key = host.lowercased()
        guard state.ledgers[key] == nil, state.ledgers.count >= Self.maximumTrackedHosts else { return key }
        state.ledgers = state.ledgers.filter { $0.key == Self.sharedKey || $0.value.lastActivity + window > now }
        return state.ledgers.count < Self.maximumTrackedHosts ? key : Self.sharedKey
    }
}
