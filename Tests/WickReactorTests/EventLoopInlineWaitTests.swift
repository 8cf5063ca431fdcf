// Waiting on the caller's thread (`waitInlineIfAsleep`): who reads, how the wait ends, and
// what the loop sees afterwards.
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EventLoopInlineWaitTests {
    /// Each wait's test runs with the loop sleeping between events, and with it busy polling
    /// (`busyPollDuration`): the loop's thread is then polling, not asleep, when a wait begins
    /// soon after the loop's last event, and the waiter polls before it sleeps. 5 ms, not
    /// more: a polling thread holds a core, and the suite runs beside the others in parallel.
    static let busyPolling: [Duration] = [.zero, .milliseconds(5)]

    /// A started channel to a raw server socket, whose reads record their thread.
    private final class Connection: Sendable {
        let group: EventLoopGroup
        let channel: Channel
        let server: Int32
        let recorder: Recorder
        let readThreads = Locked<[UInt]>([])
        /// Threads a test started from inside a wait, joined by `close`.
        let helpers = Locked<[TestThread]>([])

        init(busyPollDuration: Duration = .zero) async throws {
            group = try makeGroup(busyPollDuration: busyPollDuration)
            let listener = try TestListener()
            channel = try await Connector(resolver: group.resolver, options: ConnectOptions())
                .connect(to: listener.address, on: group.next())
            server = try #require(listener.accept())
            let threads = readThreads
            recorder = Recorder { _ in threads.withLock { $0.append(JoinableThread.currentID) } }
            try await start(channel, recorder)
        }

        var loop: EventLoop { channel.loop }
        var received: Int { recorder.events.withLock { $0.bytes.count } }

        /// Sends `text` from the server's side.
        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { write(server, $0.baseAddress, $0.count) } == bytes.count)
        }

        /// Runs `body` on a thread of its own (joined by `close`).
        func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
            let thread = TestThread(body)
            helpers.withLock { $0.append(thread) }
        }

        func close() {
            for helper in helpers.withLock({ $0 }) { helper.join() }
            loop.execute { [channel] in channel.close() }
            Glibc.close(server)
            group.shutdownGracefully()
        }
    }

    /// What one inline wait did, seen from the waiting thread.
    private struct Outcome: Sendable {
        var borrowed = false
        var end: EventLoop.InlineWaitEnd?
        var thread: UInt = 0
        var elapsed: Duration = .zero
    }

    /// Waits inline on a thread of its own (not the test's Swift pool thread) until `more`
    /// bytes beyond those received so far arrived or `budget` passed, retrying (bounded) until
    /// the loop sleeps; `began` runs as the loop when a wait's first round starts. With
    /// `retryingInterruptions`, a wait the loop's thread interrupted (it was not quite asleep
    /// yet: a busy machine) is tried again, `began` included.
    private func waitInline(
        _ connection: Connection, more: Int, budget: Duration, retryingInterruptions: Bool = true,
        began: @escaping @Sendable () -> Void = {}
    ) -> Outcome {
        let outcome = Locked(Outcome())
        let waiter = TestThread {
            let clock = ContinuousClock()
            for _ in 0..<500 {
                let started = clock.now
                var target: Int?
                var end: EventLoop.InlineWaitEnd?
                let borrowed = connection.loop.waitInlineIfAsleep(
                    until: Deadline.now() + budget,
                    watching: {
                        if target == nil {
                            target = connection.received + more
                            began()
                        }
                        return connection.received >= target ?? 0 ? nil : connection.channel.readinessDescriptor
                    },
                    ended: { end = $0 })
                if borrowed, !(retryingInterruptions && end == .interrupted) {
                    let elapsed = clock.now - started
                    outcome.withLock {
                        $0 = Outcome(borrowed: true, end: end, thread: JoinableThread.currentID, elapsed: elapsed)
                    }
                    return
                }
                usleep(2_000)
            }
        }
        waiter.join()
        return outcome.withLock { $0 }
    }

    @Test(arguments: busyPolling) func theWaiterReadsTheResponseOnItsOwnThread(busyPollDuration: Duration) async throws {
        let connection = try await Connection(busyPollDuration: busyPollDuration)
        defer { connection.close() }
        let loopThread = try await connection.loop.submit { JoinableThread.currentID }
        // The server answers once the wait has begun, from another thread.
        let outcome = waitInline(connection, more: 4, budget: .seconds(20)) {
            connection.onAnotherThread { connection.send("pong") }
        }
        #expect(outcome.borrowed)
        #expect(outcome.end == .workEnded)
        let received = connection.received
        #expect(received >= 4 && received % 4 == 0)
        #expect(connection.readThreads.withLock { $0.last } == outcome.thread)
        // The loop watches the socket again: the next bytes reach its own thread.
        connection.send("more")
        #expect(await eventually(timeout: .seconds(20)) { connection.received == received + 4 })
        #expect(connection.readThreads.withLock { $0.last } == loopThread)
    }

    @Test(arguments: busyPolling) func aWaitWithoutAResponseRunsOutAndTheLoopReadsWhatComesLater(busyPollDuration: Duration) async throws {
        let connection = try await Connection(busyPollDuration: busyPollDuration)
        defer { connection.close() }
        let loopThread = try await connection.loop.submit { JoinableThread.currentID }
        let outcome = waitInline(connection, more: 1, budget: .milliseconds(30))
        #expect(outcome.borrowed)
        #expect(outcome.end == .ranOut)
        #expect(outcome.elapsed >= .milliseconds(30))
        connection.send("late")
        #expect(await eventually(timeout: .seconds(20)) { connection.received == 4 })
        #expect(connection.readThreads.withLock { $0 } == [loopThread])
    }

    /// Work for the loop from another thread ends the wait at once (the loop's thread, woken,
    /// tells the waiter through `yieldFD`), and runs on the loop's thread.
    @Test(arguments: busyPolling) func aWaitLetsGoWhenTheLoopIsGivenWork(busyPollDuration: Duration) async throws {
        let connection = try await Connection(busyPollDuration: busyPollDuration)
        defer { connection.close() }
        let loopThread = try await connection.loop.submit { JoinableThread.currentID }
        let ranOn = Atomic<UInt>(0)
        let outcome = waitInline(connection, more: 1, budget: .seconds(20), retryingInterruptions: false) {
            connection.onAnotherThread {
                connection.loop.execute { ranOn.store(JoinableThread.currentID, ordering: .relaxed) }
            }
        }
        #expect(outcome.borrowed)
        #expect(outcome.end == .interrupted)
        #expect(outcome.elapsed < .seconds(10))
        #expect(await eventually(timeout: .seconds(20)) { ranOn.load(ordering: .relaxed) == loopThread })
    }

    /// A timer of the loop's due before the wait's deadline ends the wait, and fires: the
    /// waiter wakes the loop's thread, which sleeps without a timeout.
    @Test(arguments: busyPolling) func aWaitLetsGoBeforeTheLoopsNextTimer(busyPollDuration: Duration) async throws {
        let connection = try await Connection(busyPollDuration: busyPollDuration)
        defer { connection.close() }
        let fired = Atomic<Bool>(false)
        // Set as the loop when the wait begins (a timer set earlier could fire before a busy
        // machine lets the wait begin); the loop's thread sleeps with no timeout meanwhile.
        let outcome = waitInline(connection, more: 1, budget: .seconds(20), retryingInterruptions: false) {
            connection.loop.schedule(after: .milliseconds(50)) { fired.store(true, ordering: .relaxed) }
        }
        #expect(outcome.borrowed)
        #expect(outcome.end == .interrupted)
        #expect(outcome.elapsed < .seconds(10))
        #expect(await eventually(timeout: .seconds(20)) { fired.load(ordering: .relaxed) })
    }

    /// Work the waiter's reads queue for after the iteration runs on the waiter's thread, once
    /// it let go of the loop (as a completion does).
    @Test(arguments: busyPolling) func afterIterationWorkRunsOnTheWaitersThread(busyPollDuration: Duration) async throws {
        let log = Locked<[String]>([])
        let connection = try await Connection(busyPollDuration: busyPollDuration)
        defer { connection.close() }
        let probe = AfterIterationProbe(loop: connection.loop, log: log)
        // Queued as the loop when the wait begins, as a read that completes a request queues it.
        let outcome = waitInline(connection, more: 4, budget: .seconds(20)) {
            #expect(connection.loop.executeAfterIteration(probe))
            connection.onAnotherThread { connection.send("pong") }
        }
        #expect(outcome.end == .workEnded)
        let entries = log.withLock { $0 }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.hasPrefix("after: not the loop") })
        #expect(probe.thread.load(ordering: .relaxed) == outcome.thread)
    }

    /// A polling loop stops polling while a caller waits inline: the caller polls for its
    /// response, and on a shared core the loop's polling would take time from it. The loop's
    /// thread's CPU time is read from the wait's start (its own clock, read from the waiter).
    @Test func aPollingLoopLetsTheCoreToACallerWaitingInline() async throws {
        // 1 s: longer than the wait, so a loop that kept polling would be seen, and short, since
        // a polling thread holds a core while the suite runs beside the others in parallel.
        let connection = try await Connection(busyPollDuration: .seconds(1))
        defer { connection.close() }
        let loopThread = try await connection.loop.submit { pthread_self() }
        let atStart = Locked<Duration?>(nil)
        let outcome = waitInline(connection, more: 1, budget: .milliseconds(400)) {
            atStart.withLock { $0 = cpuTime(of: loopThread) }
        }
        let used = cpuTime(of: loopThread) - (try #require(atStart.withLock { $0 }))
        #expect(outcome.end == .ranOut)
        // Polling through the wait, the loop's thread would have used most of its 400 ms.
        #expect(used < .milliseconds(100), "the loop's thread used \(used) of CPU during a 400 ms inline wait")
    }

    @Test func noThreadOfALoopWaitsInline() async throws {
        let group = try makeGroup(threads: 2)
        defer { group.shutdownGracefully() }
        let (first, second) = (group.loops[0], group.loops[1])
        #expect(
            try await first.submit {
                // Neither its own loop nor another.
                !first.waitInlineIfAsleep(until: .now() + .seconds(1), watching: { nil }, ended: { _ in })
                    && !second.waitInlineIfAsleep(until: .now() + .seconds(1), watching: { nil }, ended: { _ in })
            })
    }
}
