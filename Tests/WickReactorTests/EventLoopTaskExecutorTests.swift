// EventLoop as a TaskExecutor: tasks that prefer it run on the loop, and still run after shutdown.
import Testing
import WickCore

@testable import WickReactor

@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskThatPrefersTheLoopRunsAndResumesOnIt() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let onLoop = await withTaskExecutorPreference(loop) { () async -> [Bool] in
            var seen = [loop.inEventLoop]
            // A continuation the loop itself resumes: the task comes back on the loop.
            for _ in 0..<3 {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    _ = loop.execute { continuation.resume() }
                }
                seen.append(loop.inEventLoop)
            }
            // A child task inherits the preference.
            async let child = loop.inEventLoop
            seen.append(await child)
            return seen
        }
        #expect(onLoop == [true, true, true, true, true])
    }

    @Test func jobsEnqueuedAfterShutdownStillRun() async throws {
        let group = try makeGroup()
        let loop = group.next()
        group.shutdownGracefully()
        let ran = await withTaskExecutorPreference(loop) { () async -> Bool in
            !loop.inEventLoop
        }
        #expect(ran)
    }
}
