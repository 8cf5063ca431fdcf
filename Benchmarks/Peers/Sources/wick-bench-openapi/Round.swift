// One timed round: wall time, the process's CPU time and its allocations while a body ran.
import CAllocationCounter
import Dispatch
import Glibc

/// What one round cost the whole process.
struct Round {
    var wallNanoseconds: UInt64
    var cpuNanoseconds: UInt64
    var allocations: UInt64

    /// The answer's values: wall ns, CPU ns, allocations.
    var answer: String { "\(wallNanoseconds) \(cpuNanoseconds) \(allocations)" }

    /// Runs `body` on Swift's concurrency pool, this thread blocked until it ends, and measures it.
    /// - Throws: what `body` throws.
    static func measure(_ body: @escaping @Sendable () async throws -> Void) throws -> Round {
        let allocations = bench_allocation_count()
        let cpu = clock(CLOCK_PROCESS_CPUTIME_ID)
        let start = clock(CLOCK_MONOTONIC)
        try blocking(body)
        return Round(
            wallNanoseconds: clock(CLOCK_MONOTONIC) - start, cpuNanoseconds: clock(CLOCK_PROCESS_CPUTIME_ID) - cpu,
            allocations: bench_allocation_count() - allocations)
    }

    /// `id`'s time in nanoseconds.
    static func clock(_ id: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(id, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Runs `body` on Swift's concurrency pool and blocks this (non-pool) thread until it ends.
/// - Throws: what `body` throws.
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
        do { try await body() } catch { failure.error = error }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
}

/// The error of a `blocking` body, written before the semaphore is signalled and read after.
final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
