// Medians and percentiles of samples.

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "median of no values")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The value at `fraction` (0...1) of `sorted`, nearest rank.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    precondition(!sorted.isEmpty, "percentile of no values")
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
