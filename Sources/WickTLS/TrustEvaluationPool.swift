// A few threads where trust evaluations that may block run, so no event loop ever waits on them.
import WickReactor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs trust evaluations that may block (revocation fetches, custom evaluators; see
/// `TrustEvaluationSite`) on a fixed set of threads, first come first served. The TLS channel
/// hops the result back to its loop.
///
/// `shared` (two threads, started on first use, alive for the process) serves every connector
/// that is not given its own pool. A pool made with `init(threadCount:)` is stopped with
/// `shutdown()`.
public final class TrustEvaluationPool: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
        var running = 0
    }

    /// The process-wide pool: two threads, made when first used.
    public static let shared = TrustEvaluationPool(threadCount: 2)

    /// The number of threads.
    public let threadCount: Int
    private let queue = ConditionLock(Queue())
    private let threads: ConditionLock<[JoinableThread]>

    /// Starts `threadCount` threads.
    public init(threadCount: Int) {
        precondition(threadCount >= 1, "TrustEvaluationPool needs at least one thread")
        self.threadCount = threadCount
        threads = ConditionLock([])
        let started = (0..<threadCount).map { index in
            JoinableThread(name: "wick-trust-\(index)") { [self] in work() }
        }
        threads.withLock { $0 = started }
    }

    /// Queues `job`; returns false (and drops it) once `shutdown()` has begun.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { queue.broadcast() }
        return accepted
    }

    /// The jobs queued or running now (for tests).
    var pendingJobs: Int {
        queue.withLock { $0.jobs.count + $0.running }
    }

    /// Runs the jobs already queued, then stops and joins the threads. Blocks; call it from
    /// none of the pool's threads. Calling it again does nothing.
    public func shutdown() {
        let first = queue.withLock { queue -> Bool in
            defer { queue.stopping = true }
            return !queue.stopping
        }
        guard first else { return }
        queue.broadcast()
        let threads = self.threads.withLock { threads in
            defer { threads.removeAll() }
            return threads
        }
        for thread in threads { thread.join() }
    }

    private func work() {
        while true {
            let job = queue.wait(until: { !$0.jobs.isEmpty || $0.stopping }) { queue -> (@Sendable () -> Void)? in
                guard !queue.jobs.isEmpty else { return nil }
                queue.running += 1
                return queue.jobs.removeFirst()
            }
            guard let job else { return }
            job()
            queue.withLock { $0.running -= 1 }
        }
    }
}
