// Timing, rounds and medians: how every benchmark in wick-bench measures.
import Glibc

/// Monotonic time in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// CPU time of the calling thread in nanoseconds: unlike wall time, it does not grow while
/// another process has the core, which on a shared 2-core VM is most of the noise.
func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Keeps a value alive so the optimiser cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

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

/// A timed piece of work: `run(n)` performs `n` operations and returns a checksum.
struct Workload {
    let name: String
    let run: (Int) -> Int
}

/// Runs workloads in alternation, `rounds` times, and reports each one's median cost.
struct RoundRobin {
    /// Rounds per workload; the median of these is reported.
    var rounds = 41
    /// The time one round of one workload should take.
    var roundNanoseconds: UInt64 = 5_000_000
    /// What a round's time is: the thread's CPU time (the default: CPU-bound work on a shared
    /// machine) or wall time.
    var usesWallClock = false

    /// How the rounds were timed, for the tables' notes.
    var summary: String {
        "Medians of \(rounds) rounds of about \(roundNanoseconds / 1_000_000) ms of "
            + (usesWallClock ? "wall time" : "the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so another process on the core does not count)")
            + " per workload"
    }

    private func now() -> UInt64 { usesWallClock ? monotonicNanoseconds() : threadCPUNanoseconds() }

    /// Nanoseconds per operation in every round, for each workload in order. Each workload is
    /// first calibrated (and warmed up) so that a round takes `roundNanoseconds`.
    func samples(_ workloads: [Workload]) -> [Samples] {
        let counts = workloads.map(calibrate)
        var samples = Array(repeating: [Double](), count: workloads.count)
        for _ in 0..<rounds {
            for (index, workload) in workloads.enumerated() {
                let start = now()
                blackHole(workload.run(counts[index]))
                let elapsed = now() - start
                samples[index].append(Double(elapsed) / Double(counts[index]))
            }
        }
        return samples.map(Samples.init)
    }

    /// The operation count whose run takes about `roundNanoseconds`.
    private func calibrate(_ workload: Workload) -> Int {
        var count = 1
        while true {
            let start = now()
            blackHole(workload.run(count))
            let elapsed = now() - start
            if elapsed >= roundNanoseconds / 8 {
                return max(1, Int(Double(count) * Double(roundNanoseconds) / Double(elapsed)))
            }
            count *= 2
        }
    }
}

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

/// Allocations per operation: `run(n)` after a warm-up, counted by the interposed allocator.
func allocationsPerOperation(_ workload: Workload, operations: Int = 10_000) -> Double {
    blackHole(workload.run(operations / 10 + 1))
    let before = AllocationCounter.allocations
    blackHole(workload.run(operations))
    let after = AllocationCounter.allocations
    return Double(after - before) / Double(operations)
}
