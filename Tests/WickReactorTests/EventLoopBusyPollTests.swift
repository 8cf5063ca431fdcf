// Busy polling (`busyPollDuration`): a polling loop still runs tasks, timers and shutdown on
// time, and sleeps once its poll ends. Waits inline while the loop polls are in
// EventLoopInlineWaitTests, which runs each of its tests with and without busy polling.
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EventLoopBusyPollTests {
    /// 50 ms: the loop polls through the test's bursts of work and sleeps when the test stalls
    /// (a polling thread holds a core, and the suite runs beside the others in parallel).
    @Test func aPollingLoopRunsTasksFromOtherThreadsAndReadsItsChannels() async throws {
        let group = try makeGroup(busyPollDuration: .milliseconds(50))
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let ran = Atomic<Int>(0)
        let submitters = (0..<4).map { _ in
            TestThread { for _ in 0..<1_000 { loop.execute { ran.add(1, ordering: .relaxed) } } }
        }
        for submitter in submitters { submitter.join() }
        #expect(await eventually(timeout: .seconds(20)) { ran.load(ordering: .relaxed) == 4_000 })

        let listener = try TestListener()
        defer { listener.close() }
        let channel = try await Connector(resolver: group.resolver, options: ConnectOptions())
            .connect(to: listener.address, on: loop)
        let server = try #require(listener.accept())
        defer { Glibc.close(server) }
        let recorder = Recorder()
        try await start(channel, recorder)
        for round in 1...20 {
            TestSockets.writeAll(server, Array("ping".utf8))
            #expect(await eventually(timeout: .seconds(20)) { recorder.events.withLock { $0.bytes.count } == 4 * round })
        }
        loop.execute { channel.close() }
    }

    /// The poll ends at the next timer's deadline: a timer due while the loop polls fires then,
    /// not when the (minute-long) poll would have ended, and not early.
    @Test func aTimerDueWhileTheLoopPollsFiresOnTime() async throws {
        let group = try makeGroup(busyPollDuration: .seconds(60))
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let clock = ContinuousClock()
        let firedAfter = Locked<Duration?>(nil)
        let start = clock.now
        // Once fired, the group shuts down from another thread: nothing else would end the
        // minute-long poll that follows, and a polling thread holds a core while the suite runs
        // beside the others in parallel (a second `shutdownGracefully`, the `defer`'s, does nothing).
        let stopper = Locked<TestThread?>(nil)
        defer { stopper.withLock { $0 }?.join() }
        loop.schedule(after: .milliseconds(20)) {
            firedAfter.withLock { $0 = clock.now - start }
            stopper.withLock { $0 = TestThread { group.shutdownGracefully() } }
        }
        #expect(await eventually(timeout: .seconds(20)) { firedAfter.withLock { $0 } != nil })
        let elapsed = try #require(firedAfter.withLock { $0 })
        #expect(elapsed >= .milliseconds(20))
        #expect(elapsed < .seconds(10), "the timer fired after \(elapsed)")
    }

    @Test func anIdleLoopSleepsOnceItsPollEnds() async throws {
        let group = try makeGroup(busyPollDuration: .milliseconds(20))
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let loopThread = try await loop.submit { pthread_self() }
        let before = cpuTime(of: loopThread)
        // After the task above the loop polls for 20 ms, then sleeps: a loop that kept polling
        // would use the whole 500 ms (or half of it, sharing a core with this thread).
        try await Task.sleep(for: .milliseconds(500))
        let used = cpuTime(of: loopThread) - before
        #expect(used < .milliseconds(150), "an idle polling loop used \(used) of CPU in 500 ms")
    }

    @Test func shutdownEndsAPollAtOnce() throws {
        let group = try makeGroup(busyPollDuration: .seconds(60))
        let loop = group.next()
        loop.execute {}
        let clock = ContinuousClock()
        let start = clock.now
        group.shutdownGracefully()
        #expect(clock.now - start < .seconds(10))
        #expect(!loop.execute {})
    }
}
