// Which requests a fault is injected into: the hosts it applies to and the fraction it hits.

/// One rule of a `FaultInjector`: a fault, the hosts it applies to, and the fraction of the
/// matching dials (connect faults) or exchanges (the others) it hits.
public struct FaultRule: Sendable, Hashable {
    /// What happens.
    public var fault: Fault
    /// The hosts it applies to, compared without regard to case, as requests name them (the
    /// URL's host, never a proxy's); nil: every host.
    public var hosts: [String]?
    /// The fraction of matching dials or exchanges hit, from 0 to 1; 1 hits every one.
    public var fraction: Double
    /// The most times the rule injects its fault (then it stops applying); nil: no limit.
    /// `limit: 2` with `fraction: 1` fails exactly the first two matching exchanges.
    public var limit: Int?

    /// A rule injecting `fault` into `fraction` of the dials or exchanges for `hosts` (nil:
    /// every host), at most `limit` times (nil: no limit). `fraction` must be within 0...1 and
    /// `limit` not negative.
    public init(_ fault: Fault, hosts: [String]? = nil, fraction: Double = 1, limit: Int? = nil) {
        precondition((0...1).contains(fraction), "FaultRule: fraction \(fraction) is not within 0...1")
        precondition((limit ?? 0) >= 0, "FaultRule: limit \(limit ?? 0) is negative")
        self.fault = fault
        self.hosts = hosts
        self.fraction = fraction
        self.limit = limit
    }

    /// Whether the rule applies to `host`.
    func applies(to host: String) -> Bool {
        guard let hosts else { return true }
        return hosts.contains { $0.lowercased() == host.lowercased() }
    }
}
