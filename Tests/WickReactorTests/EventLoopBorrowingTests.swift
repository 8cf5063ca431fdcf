// Borrowing a sleeping loop (`runIfAsleep`): who runs the work, and what still reaches the loop.
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EventLoopBorrowingTests {
    /// Borrows `loop` once it sleeps: it goes to sleep shortly after its last task, so this
    /// retries (bounded) until the try-lock finds it asleep. Returns the thread that borrowed
    /// it (a retry's `await` may move the task to another thread), or nil if no try did.
    private func borrowingThread(_ loop: EventLoop, _ body: () -> Void) async throws -> UInt? {
        for _ in 0..<500 {
            let caller = JoinableThread.currentID
            if loop.runIfAsleep({
                body()
                return true
            }) {
                return caller
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// Whether `borrowingThread` borrowed `loop` for `body`.
    private func borrow(_ loop: EventLoop, _ body: () -> Void) async throws -> Bool {
        try await borrowingThread(loop, body) != nil
    }

    @Test func aSleepingLoopIsBorrowedByTheCallersThreadAndGivenBack() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let loopThread = try await loop.submit { JoinableThread.currentID }
        var seen: (inLoop: Bool, thread: UInt)?
        let caller = try await borrowingThread(loop) { seen = (loop.inEventLoop, JoinableThread.currentID) }
        #expect(caller != nil)
        #expect(seen?.inLoop == true)
        #expect(seen?.thread == caller && caller != loopThread)
        #expect(!loop.inEventLoop)
        // The loop's own thread is the loop again.
        #expect(try await loop.submit { loop.inEventLoop && JoinableThread.currentID == loopThread })
    }

    @Test func aBusyLoopIsNotBorrowed() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let started = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let gaveUp = Atomic<Bool>(false)
        loop.execute {
            started.store(true, ordering: .relaxed)
            // Bounded: released below, or given up after about 120 s (a starved test thread).
            for _ in 0..<120_000 {
                if release.load(ordering: .relaxed) { return }
                usleep(1_000)
            }
            gaveUp.store(true, ordering: .relaxed)
        }
        #expect(await eventually(timeout: .seconds(60)) { started.load(ordering: .relaxed) })
        var ran = false
        let borrowed = loop.runIfAsleep {
            ran = true
            return true
        }
        let stillBusy = !gaveUp.load(ordering: .relaxed)
        release.store(true, ordering: .relaxed)
        try #require(stillBusy, "the loop's task gave up before the test thread ran")
        #expect(!borrowed)
        #expect(!ran)
    }

    @Test func theLoopsOwnThreadDoesNotBorrowIt() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        #expect(try await loop.submit { !loop.runIfAsleep { true } })
    }

    @Test func aShutDownLoopIsNotBorrowed() async throws {
        let group = try makeGroup()
        let loop = group.next()
        group.shutdownGracefully()
        var ran = false
        #expect(
            !loop.runIfAsleep {
                ran = true
                return true
            })
        #expect(!ran)
    }

    /// What a borrower writes leaves at once when it says so, and otherwise with the loop's
    /// next iteration, which the borrower wakes the sleeping loop for.
    @Test(arguments: [true, false])
    func aBorrowersWritesLeave(sentByTheBorrower: Bool) async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let listener = try TestListener()
        let channel = try await Connector(resolver: group.resolver, options: ConnectOptions())
            .connect(to: listener.address, on: loop)
        let server = try #require(listener.accept())
        defer { close(server) }
        try await start(channel, Recorder())
        var borrowed = false
        for _ in 0..<500 where !borrowed {
            borrowed = loop.runIfAsleep {
                try? channel.write(Array("hello".utf8))
                return sentByTheBorrower
            }
            if !borrowed { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(borrowed)
        // Without the wake-up, a loop with nothing else to do would keep the bytes forever.
        #expect(TestSockets.readToEnd(server, limit: 5, timeout: .seconds(20)) == Array("hello".utf8))
        channel.loop.execute { channel.close() }
    }

    /// A task queued while borrowing runs on the loop's own thread, and soon: the borrower
    /// wakes the loop, which would otherwise sleep with no timer until the next event.
    @Test func aTaskQueuedWhileBorrowingRunsOnTheLoopsThread() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let loopThread = try await loop.submit { JoinableThread.currentID }
        let ranOn = Atomic<UInt>(0)
        var queuedInline = false
        #expect(
            try await borrow(loop) {
                loop.execute { ranOn.store(JoinableThread.currentID, ordering: .relaxed) }
                queuedInline = ranOn.load(ordering: .relaxed) != 0
            })
        #expect(!queuedInline)
        #expect(await eventually { ranOn.load(ordering: .relaxed) == loopThread })
    }

    /// A timer set while borrowing, due before the loop's wait ends, wakes it: both when the
    /// loop sleeps with no timer at all and when it sleeps until a later one.
    @Test(arguments: [false, true])
    func aTimerSetWhileBorrowingFiresOnTime(loopHasALaterTimer: Bool) async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        if loopHasALaterTimer { loop.schedule(after: .seconds(60)) {} }
        let fired = Atomic<Bool>(false)
        #expect(
            try await borrow(loop) {
                loop.schedule(after: .milliseconds(20)) { fired.store(true, ordering: .relaxed) }
            })
        // Without the wake-up the loop would sleep for 60 s, or until the next event.
        #expect(await eventually(timeout: .seconds(20)) { fired.load(ordering: .relaxed) })
    }

    /// A borrower does not overtake work queued before it: tasks submitted from one thread,
    /// some queued and some borrowing, still run in submission order.
    @Test func aBorrowerWaitsBehindQueuedTasks() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let order = LoopConfinedCounter(loop: loop)
        let outOfOrder = Atomic<Int>(0)
        let borrowedAfterQueueing = Atomic<Int>(0)
        let worker = TestThread {
            for index in 0..<2_000 {
                let check: @Sendable () -> Void = {
                    if order.value != index { outOfOrder.add(1, ordering: .relaxed) }
                    order.increment()
                }
                if index % 2 == 0 {
                    loop.execute(check)
                } else if loop.runIfAsleep({
                    check()
                    return true
                }) {
                    borrowedAfterQueueing.add(1, ordering: .relaxed)
                } else {
                    loop.execute(check)
                }
            }
        }
        worker.join()
        #expect(try await loop.submit { order.value } == 2_000)
        #expect(outOfOrder.load(ordering: .relaxed) == 0)
    }

    /// Borrowers on many threads and tasks queued from them share loop-confined state with
    /// the loop without a race (ThreadSanitizer checks the ordering), and nothing is lost.
    @Test func borrowersAndTheLoopTakeTurnsWithLoopConfinedState() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let counter = LoopConfinedCounter(loop: loop)
        let threads = 4
        let perThread = 2_000
        let borrowed = Atomic<Int>(0)
        let workers = (0..<threads).map { _ in
            TestThread {
                for _ in 0..<perThread {
                    if loop.runIfAsleep({
                        counter.increment()
                        return true
                    }) {
                        borrowed.add(1, ordering: .relaxed)
                    } else {
                        loop.execute { counter.increment() }
                    }
                }
            }
        }
        for worker in workers { worker.join() }
        // Every queued increment was queued before this (tasks run in submission order).
        #expect(try await loop.submit { counter.value } == threads * perThread)
        #expect(borrowed.load(ordering: .relaxed) > 0)
    }
}

@Suite struct EventLoopAfterIterationTests {
    /// Work queued for after the iteration runs on the loop's thread once the iteration's own
    /// work is done, as an ordinary thread: not the loop (so it may borrow the loop itself).
    @Test func afterIterationWorkRunsOnTheLoopsThreadOutsideTheLoop() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let loopThread = try await loop.submit { JoinableThread.currentID }
        let log = Locked<[String]>([])
        let work = AfterIterationProbe(loop: loop, log: log)
        loop.execute {
            _ = loop.executeAfterIteration(work)
            // Queued in the same iteration, after it: still runs first.
            loop.execute { log.withLock { $0.append("task") } }
        }
        #expect(await eventually { log.withLock { $0.count } == 2 })
        #expect(log.withLock { $0 } == ["task", "after: not the loop, borrowed it"])
        #expect(work.thread.load(ordering: .relaxed) == loopThread)
    }

    /// A borrower that queues after-iteration work wakes the sleeping loop to run it.
    @Test func afterIterationWorkQueuedByABorrowerRuns() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let log = Locked<[String]>([])
        let work = AfterIterationProbe(loop: loop, log: log)
        var queued = false
        for _ in 0..<500 where !queued {
            queued = loop.runIfAsleep { loop.executeAfterIteration(work) }
            if !queued { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(queued)
        #expect(await eventually(timeout: .seconds(20)) { log.withLock { $0.count } == 1 })
    }
}

/// Records, when run, its thread, whether it ran as the loop and whether it could borrow the
/// loop (also `EventLoopInlineWaitTests`).
final class AfterIterationProbe: LoopRunnable {
    let loop: EventLoop
    let log: Locked<[String]>
    let thread = Atomic<UInt>(0)

    init(loop: EventLoop, log: Locked<[String]>) {
        self.loop = loop
        self.log = log
    }

    func runOnLoop() {
        thread.store(JoinableThread.currentID, ordering: .relaxed)
        let asLoop = loop.inEventLoop
        let borrowed = loop.runIfAsleep { true }
        log.withLock {
            $0.append(
                "after: \(asLoop ? "the loop" : "not the loop"), \(borrowed ? "borrowed it" : "did not borrow it")")
        }
    }
}

/// A plain counter that only the thread acting as `loop` touches (asserted).
///
/// `@unchecked Sendable`: `value` is read and written only while acting as the loop, which
/// `increment` and `value` check.
private final class LoopConfinedCounter: @unchecked Sendable {
    private let loop: EventLoop
    private var count = 0

    init(loop: EventLoop) { self.loop = loop }

    func increment() {
        loop.preconditionInEventLoop()
        count += 1
    }

    var value: Int {
        loop.preconditionInEventLoop()
        return count
    }
}
