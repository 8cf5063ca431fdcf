// A few threads where trust evaluations that may block run, so no event loop ever waits on them.
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
    private let threads: ConditionLock<[WorkerThread]>

    /// Starts `threadCount` threads.
    public init(threadCount: Int) {
        precondition(threadCount >= 1, "TrustEvaluationPool needs at least one thread")
        self.threadCount = threadCount
        threads = ConditionLock([])
        let started = (0..<threadCount).map { _ in
            WorkerThread { [self] in work() }
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

/// A joinable pthread running one closure.
private struct WorkerThread: @unchecked Sendable {
    // @unchecked Sendable: a pthread_t is an opaque identifier; it is joined once, by its owner.
    private let handle: pthread_t

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body: body)).toOpaque()
        var handle = pthread_t()
        // SAFETY: the box is retained until the thread takes it back exactly once;
        // pthread_create copies the opaque pointer.
        let result = pthread_create(
            &handle, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: errno \(result)")
        self.handle = handle
    }

    func join() {
        precondition(pthread_equal(handle, pthread_self()) == 0, "a thread cannot join itself")
        // SAFETY: handle came from pthread_create and is joined once.
        let result = pthread_join(handle, nil)
        precondition(result == 0, "pthread_join failed: errno \(result)")
    }
}
