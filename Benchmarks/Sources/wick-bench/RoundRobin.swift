// Runs workloads in alternating rounds: how the CPU-bound suites measure.

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
            + (usesWallClock
                ? "wall time"
                : "the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so another process on the core does not count)")
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
