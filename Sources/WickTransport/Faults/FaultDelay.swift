// How long an injected latency lasts: fixed, or drawn from a distribution with the injector's seed.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The delay of a `Fault.latency`: one duration, or one drawn for each request from a
/// distribution, with the `FaultInjector`'s seeded generator (the same seed and the same
/// sequence of requests draw the same delays).
public enum FaultDelay: Sendable, Hashable, CustomStringConvertible {
    /// Always this long.
    case fixed(Duration)
    /// Uniformly between the bounds (inclusive).
    case uniform(ClosedRange<Duration>)
    /// Exponentially distributed with this mean, capped at `maximum`: mostly short, now and
    /// then long, as the tail of a real server's latency.
    case exponential(mean: Duration, maximum: Duration)

    /// The delay for a draw `unit` in [0, 1).
    package func delay(forUnitDraw unit: Double) -> Duration {
        switch self {
        case .fixed(let duration):
            return duration
        case .uniform(let range):
            return range.lowerBound + (range.upperBound - range.lowerBound) * unit
        case .exponential(let mean, let maximum):
            // Inverse transform sampling: -ln(1 - u) is exponential with mean 1.
            let drawn = mean * -log(1 - unit)
            return min(drawn, maximum)
        }
    }

    /// `120 ms`, `10 ms...200 ms`, `exponential, mean 20 ms, at most 1 s`.
    public var description: String {
        switch self {
        case .fixed(let duration): "\(duration)"
        case .uniform(let range): "\(range.lowerBound)...\(range.upperBound)"
        case .exponential(let mean, let maximum): "exponential, mean \(mean), at most \(maximum)"
        }
    }
}
