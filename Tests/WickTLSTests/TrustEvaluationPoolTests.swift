// The worker pool for trust evaluations that may block: order, concurrency bound, shutdown.
import Foundation
import Testing

@testable import WickReactor
@testable import WickTLS

@Suite struct TrustEvaluationPoolTests {
    @Test func runsJobsOnItsThreadsAndStopsAfterTheQueuedOnes() async throws {
        let pool = TrustEvaluationPool(threadCount: 2)
        let running = Locked(0)
        let peak = Locked(0)
        let done = Locked<[Int]>([])
        for index in 0..<6 {
            #expect(
                pool.submit {
                    let now = running.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    peak.withLock { $0 = max($0, now) }
                    usleep(20_000)
                    running.withLock { $0 -= 1 }
                    done.withLock { $0.append(index) }
                })
        }
        // Shutdown runs what was queued, then joins the threads.
        await Task.detached { pool.shutdown() }.value
        #expect(done.withLock { $0.sorted() } == Array(0..<6))
        #expect(peak.withLock { $0 } <= 2, "two threads, so at most two jobs at once")
        #expect(pool.pendingJobs == 0)
        #expect(!pool.submit { Issue.record("a job ran after shutdown") })
        pool.shutdown()
    }
}
