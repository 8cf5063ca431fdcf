// Whether a figure grew after warm-up: the last third's median against the second third's.

/// The verdict on one sampled figure.
struct SoakGrowth: Sendable {
    let name: String
    /// The second third's median (after warm-up) and the last third's.
    let settled: Double
    let last: Double
    /// How much more than `settled` the last third may hold: a share of it plus a floor.
    let allowed: Double
    /// Whether there were enough samples (six or more) to judge.
    let judged: Bool

    var grew: Bool { judged && last > settled + allowed }

    /// Compares `values` (one per second, in order): the first third is warm-up; the figure grew
    /// if the last third's median exceeds the second third's by more than `share` of it plus
    /// `floor`. Medians, so a burst (a 1 MiB body in flight, a stall) does not count as growth.
    init(_ name: String, _ values: [Double], share: Double, floor: Double) {
        self.name = name
        let third = values.count / 3
        judged = third >= 2
        settled = judged ? Self.median(values[third..<(2 * third)]) : 0
        last = judged ? Self.median(values[(2 * third)...]) : 0
        allowed = settled * share + floor
    }

    private static func median(_ values: ArraySlice<Double>) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
