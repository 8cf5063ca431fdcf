// Decides, from a seed and a list of rules, which dials and exchanges of a session fail and how.
import WickReactor

/// Injects faults into a session's real transport, for a user's own tests: set one on
/// `Session.Configuration.faultInjector` (nil by default, and nothing else turns it on).
///
/// Each time the session's pool dials a new connection, and each time a request starts on a
/// connection, the injector takes one **decision**: it walks `rules` in order and the first
/// rule for that moment (connect faults for dials, the others for exchanges) that applies to
/// the request's host, has not reached its `limit` and wins its `fraction` draw injects its
/// fault. Draws come from a generator seeded with `seed`, so the same seed and the same
/// sequence of requests (made one after another, or in the same order) inject the same faults
/// with the same drawn delays.
///
/// What was injected is told to event monitors (`EventMonitor.request(_:didInjectFault:)`),
/// carried by the metrics of the exchange it hit (`TransactionMetrics.injectedFaults`) and
/// logged here (`injectedFaults`). One injector may serve several sessions; they then share its
/// sequence of decisions.
public final class FaultInjector: Sendable {
    /// The most faults `injectedFaults` keeps; `injectedFaultCount` counts them all.
    public static let maximumLoggedFaults = 10_000

    /// The generator's seed.
    public let seed: UInt64
    /// The rules, in the order they are tried.
    public let rules: [FaultRule]
    private let state: Locked<State>

    /// The decisions taken so far and what they injected.
    private struct State {
        var decisions: UInt64 = 0
        var draws: UInt64 = 0
        var log: [InjectedFault] = []
        var count = 0
        /// How many times each rule injected its fault, by index.
        var injectedByRule: [Int]

        /// The next number of the seeded sequence, in [0, 1): SplitMix64 over the draw's index.
        mutating func unitDraw(seed: UInt64) -> Double {
            draws += 1
            var z = seed &+ draws &* 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1p-53
        }
    }

    /// An injector trying `rules` in order, its draws seeded with `seed`.
    public init(seed: UInt64, rules: [FaultRule]) {
        self.seed = seed
        self.rules = rules
        state = Locked(State(injectedByRule: Array(repeating: 0, count: rules.count)))
    }

    /// The faults injected so far, in order (the first `maximumLoggedFaults`).
    public var injectedFaults: [InjectedFault] { state.withLock { $0.log } }

    /// How many faults were injected so far.
    public var injectedFaultCount: Int { state.withLock { $0.count } }

    /// The decision for a new connection to `host`: a connect fault, or nil.
    package func connectFault(host: String) -> InjectedFault? {
        decide(host: host, amongConnectFaults: true)
    }

    /// The decision for a request to `host` starting on a connection: an exchange fault, or nil.
    package func exchangeFault(host: String) -> InjectedFault? {
        decide(host: host, amongConnectFaults: false)
    }

    private func decide(host: String, amongConnectFaults connect: Bool) -> InjectedFault? {
        state.withLock { state in
            state.decisions += 1
            for (index, rule) in rules.enumerated()
            where rule.fault.isConnectFault == connect && rule.applies(to: host)
                && state.injectedByRule[index] < rule.limit ?? .max
            {
                if rule.fraction < 1, state.unitDraw(seed: seed) >= rule.fraction { continue }
                state.injectedByRule[index] += 1
                var fault = rule.fault
                if case .latency(let delay) = fault {
                    fault = .latency(.fixed(delay.delay(forUnitDraw: state.unitDraw(seed: seed))))
                }
                let injected = InjectedFault(fault: fault, host: host, decision: state.decisions)
                state.count += 1
                if state.log.count < Self.maximumLoggedFaults { state.log.append(injected) }
                return injected
            }
            return nil
        }
    }
}
