// One workload's per-round costs, and the paired ratio between two workloads.

/// One workload's cost per operation in each round, in nanoseconds.
struct Samples {
    let values: [Double]

    init(_ values: [Double]) { self.values = values }

    var median: Double { wick_bench.median(values) }

    /// The median over rounds of `other`'s cost divided by this one's in the same round: the
    /// speed ratio of this workload to `other`, paired round by round so that a noisy moment
    /// slows both sides of the ratio.
    func speedRatio(to other: Samples) -> Double {
        wick_bench.median(zip(values, other.values).map { $1 / $0 })
    }
}
