// A measured piece of work, and how many allocations one of its operations makes.

/// A timed piece of work: `run(n)` performs `n` operations and returns a checksum.
struct Workload {
    let name: String
    let run: (Int) -> Int
}

/// Allocations per operation: `run(n)` after a warm-up, counted by the interposed allocator.
func allocationsPerOperation(_ workload: Workload, operations: Int = 10_000) -> Double {
    blackHole(workload.run(operations / 10 + 1))
    let before = AllocationCounter.allocations
    blackHole(workload.run(operations))
    let after = AllocationCounter.allocations
    return Double(after - before) / Double(operations)
}
