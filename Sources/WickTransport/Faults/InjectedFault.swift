// The record of one fault a `FaultInjector` injected, for tests to assert on.

/// One fault that was injected: what, for which host, and its place among the injector's
/// decisions. Reported to event monitors (`EventMonitor.request(_:didInjectFault:)`), carried
/// by the metrics of the exchange it hit (`TransactionMetrics.injectedFaults`), and logged by
/// the injector (`FaultInjector.injectedFaults`).
public struct InjectedFault: Sendable, Hashable, CustomStringConvertible {
    /// The fault, with a `latency`'s delay as drawn (`.fixed`).
    public let fault: Fault
    /// The request's host (for a connect fault, the host of the connection dialled).
    public let host: String
    /// The injector's decision that chose it, counting from 1: dials and exchanges are
    /// numbered in the order the session made them, so the same seed and the same sequence
    /// of requests give the same numbers.
    public let decision: UInt64

    /// `#3 example.com: reset after 0 response bytes`.
    public var description: String { "#\(decision) \(host): \(fault)" }
}
