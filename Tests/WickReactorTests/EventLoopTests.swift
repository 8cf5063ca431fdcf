// Event loops: tasks from any thread, timers in order and cancellable, idle sleep, shutdown.
import Synchronization
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EventLoopTests {
    @Test func executeFromManyThreadsRunsEveryTaskOnTheLoopInPerThreadOrder() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let threads = 8
        let perThread = 1_000
        let lastSeen = Locked([Int](repeating: -1, count: threads))
        let ran = Atomic<Int>(0)
        let offLoop = Atomic<Int>(0)
        let outOfOrder = Atomic<Int>(0)
        let workers = (0..<threads).map { thread in
            TestThread {
                for index in 0..<perThread {
                    loop.execute {
                        if !loop.inEventLoop { offLoop.add(1, ordering: .relaxed) }
                        lastSeen.withLock {
                            if $0[thread] != index - 1 { outOfOrder.add(1, ordering: .relaxed) }
                            $0[thread] = index
                        }
                        ran.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        for worker in workers { worker.join() }
        #expect(await eventually { ran.load(ordering: .relaxed) == threads * perThread })
        #expect(offLoop.load(ordering: .relaxed) == 0)
        #expect(outOfOrder.load(ordering: .relaxed) == 0)
        #expect(!loop.inEventLoop)
        #expect(try await loop.submit { loop.inEventLoop })
    }

    @Test func groupHandsOutLoopsRoundRobin() throws {
        let group = try makeGroup(threads: 2)
        defer { group.shutdownGracefully() }
        let first = group.next()
        let second = group.next()
        #expect(first !== second)
        #expect(group.next() === first)
        #expect(EventLoopGroup.defaultThreadCount >= 1 && EventLoopGroup.defaultThreadCount <= 2)
    }

    @Test func timersFireInDeadlineOrderAndNeverEarly() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let count = 5_000
        let fired = Locked<[(Int, Deadline)]>([])
        // Deadlines 20 ms ahead and scheduled in one loop task, so none is already due when the
        // later ones are inserted.
        let start = Deadline.now() + .milliseconds(20)
        var random = SeededRandom(seed: 42)
        let deadlines = (0..<count).map { _ in start + .microseconds(Int64(random.next() % 100_000)) }
        try await loop.submit {
            for index in 0..<count {
                loop.schedule(at: deadlines[index]) { fired.withLock { $0.append((index, .now())) } }
            }
        }
        #expect(await eventually { fired.withLock { $0.count } == count })
        let record = fired.withLock { $0 }
        let early = record.filter { index, firedAt in firedAt < deadlines[index] }.count
        #expect(early == 0, "\(early) timers fired before their deadline")
        let order = record.map { deadlines[$0.0] }
        let inOrder = zip(order, order.dropFirst()).allSatisfy { $0 <= $1 }
        #expect(inOrder, "timers fired out of deadline order")
        #expect(try await loop.submit { loop.timerCount } == 0)
    }

    @Test func equalDeadlinesFireInSchedulingOrder() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let deadline = Deadline.now() + .milliseconds(10)
        let order = Locked<[Int]>([])
        for index in 0..<100 { loop.schedule(at: deadline) { order.withLock { $0.append(index) } } }
        #expect(await eventually { order.withLock { $0.count } == 100 })
        let inSchedulingOrder = order.withLock { $0 } == Array(0..<100)
        #expect(inSchedulingOrder)
    }

    @Test func cancelledTimersNeverFire() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let fired = Locked<Set<Int>>([])
        let handles = (0..<2_000).map { index in
            // Far enough ahead that every cancel below lands first, even under ThreadSanitizer.
            loop.schedule(after: .milliseconds(400)) { fired.withLock { _ = $0.insert(index) } }
        }
        for index in stride(from: 1, to: handles.count, by: 2) {
            #expect(handles[index].cancel())
            #expect(!handles[index].cancel(), "a second cancel reports it did nothing")
        }
        // Cancels from the loop's own thread too.
        let onLoop = try await loop.submit { () -> Bool in
            let handle = loop.schedule(after: .milliseconds(1)) { fired.withLock { _ = $0.insert(-1) } }
            return handle.cancel()
        }
        #expect(onLoop)
        #expect(await eventually { fired.withLock { $0.count } == 1_000 })
        try await Task.sleep(for: .milliseconds(50))
        let onlyEvens = fired.withLock { $0 } == Set(stride(from: 0, to: 2_000, by: 2))
        #expect(onlyEvens, "exactly the timers that were not cancelled fired")
        #expect(handles[0].outcome == .fired)
        #expect(handles[1].outcome == .cancelled)
        #expect(!handles[0].cancel(), "a fired timer cannot be cancelled")
        #expect(try await loop.submit { loop.timerCount } == 0, "cancelled timers are forgotten at once")
    }

    @Test func staleEventsForAReusedDescriptorAreDropped() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let (first, second) = try await loop.submit { () -> (Int, Int) in
            let old = CountingHandler()
            let new = CountingHandler()
            let fd = try Syscalls.eventfd()
            let oldGeneration = try loop.register(fd: fd, interest: 0, handler: old)
            // A new registration under the same number, as when a closed descriptor's number is
            // reused (the same number is kept here so that parallel tests cannot take it).
            loop.deregister(fd: fd)
            let reused = fd
            let newGeneration = try loop.register(fd: reused, interest: 0, handler: new)
            #expect(newGeneration != oldGeneration)
            loop.deliver(Epoll.readable, data: EventLoop.eventData(fd: fd, generation: oldGeneration))
            loop.deliver(Epoll.readable, data: EventLoop.eventData(fd: reused, generation: newGeneration))
            loop.deregister(fd: reused)
            try Syscalls.close(reused)
            return (old.events, new.events)
        }
        #expect(first == 0, "the event queued for the closed registration is dropped")
        #expect(second == 1)
    }

    @Test func oneEventPerWaitStillServesEveryConnection() async throws {
        let group = try EventLoopGroup(configuration: .init(threadCount: 1, maximumEventsPerWait: 1))
        defer { group.shutdownGracefully() }
        let listener = try TestListener()
        defer { listener.close() }
        let connector = Connector(resolver: group.resolver)
        var recorders: [Recorder] = []
        var servers: [Int32] = []
        for _ in 0..<4 {
            let channel = try await connector.connect(to: listener.address, on: group.next())
            let recorder = Recorder()
            try await start(channel, recorder)
            recorders.append(recorder)
            servers.append(try #require(listener.accept()))
        }
        defer { for fd in servers { close(fd) } }
        for fd in servers { TestSockets.writeAll(fd, Array("ready".utf8)) }
        for recorder in recorders {
            #expect(await eventually { recorder.snapshot.bytes == Array("ready".utf8) })
        }
    }

    @Test func loopBoundValuesTravelThroughSendableClosures() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let bound = try await loop.submit { () -> LoopBound<CountingHandler> in
            let bound = LoopBound(CountingHandler(), loop: loop)  // CountingHandler is not Sendable
            loop.execute { bound.value.events += 1 }
            loop.schedule(after: .zero) { bound.value.events += 1 }
            #expect(bound.value.events == 0, "nothing runs inline")
            return bound
        }
        var events = 0
        for _ in 0..<1_000 where events < 2 {
            events = try await loop.submit { bound.value.events }
        }
        #expect(events == 2)
        await #expect(processExitsWith: .failure) {
            let group = try! EventLoopGroup(threadCount: 1)
            let bound = try! await group.next().submit { LoopBound(0, loop: group.next()) }
            _ = bound.value  // off the loop: traps
        }
    }

    @Test func anIdleLoopSleepsInEpollWait() async throws {
        let group = try EventLoopGroup(configuration: .init(threadCount: 1, name: "idle-probe"))
        defer { group.shutdownGracefully() }
        // A far timer: the loop must sleep until it, not poll.
        group.next().schedule(after: .seconds(60)) {}
        try await Task.sleep(for: .milliseconds(20))
        let before = try #require(threadCPUTicks(named: "idle-probe-0"))
        try await Task.sleep(for: .milliseconds(500))
        let after = try #require(threadCPUTicks(named: "idle-probe-0"))
        #expect(after - before <= 1, "an idle loop used \(after - before) clock ticks in 500 ms")
    }

    @Test func shutdownRunsAcceptedTasksCancelsTimersAndRefusesNewWork() async throws {
        let group = try makeGroup()
        let loop = group.next()
        let ran = Atomic<Int>(0)
        // Hold the loop busy so the tasks below are still queued when shutdown begins.
        loop.execute { usleep(50_000) }
        for _ in 0..<100 { loop.execute { ran.add(1, ordering: .relaxed) } }
        let timerFired = Atomic<Bool>(false)
        let timer = loop.schedule(after: .seconds(30)) { timerFired.store(true, ordering: .relaxed) }
        group.shutdownGracefully()
        let ranCount = ran.load(ordering: .relaxed)
        #expect(ranCount == 100)
        #expect(timer.outcome == .cancelled)
        let didFire = timerFired.load(ordering: .relaxed)
        #expect(!didFire)
        #expect(!loop.execute {})
        await #expect(throws: ReactorError.loopShutDown) { try await loop.submit {} }
        #expect(loop.schedule(after: .zero) {}.outcome == .cancelled)
        group.shutdownGracefully()  // a second call does nothing
    }
}

/// utime + stime, in clock ticks, of this process's thread named `name`. Retries: a listing of
/// /proc/self/task can skip entries while other threads exit.
func threadCPUTicks(named name: String) -> Int? {
    for _ in 0..<20 {
        if let ticks = threadCPUTicksOnce(named: name) { return ticks }
        usleep(1_000)
    }
    return nil
}

private func threadCPUTicksOnce(named name: String) -> Int? {
    for tid in directoryNames("/proc/self/task") {
        guard readSmallFile("/proc/self/task/\(tid)/comm")?.trimmingNewline == name,
            let stat = readSmallFile("/proc/self/task/\(tid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { continue }
        // Fields after the command: state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
    return nil
}

func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
}

extension String {
    var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

/// Counts the readiness events the loop hands it.
final class CountingHandler: Selectable {
    var events = 0
    func readinessChanged(_ events: UInt32) { self.events += 1 }
    func loopIsShuttingDown() {}
}

@Suite struct EventLoopLocalTaskTests {
    /// A task that requeues itself forever runs a bounded number of rounds per iteration, so
    /// timers (and I/O) still get their turn.
    @Test func aTaskThatRequeuesItselfDoesNotStarveTimers() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let loop = group.next()
        let fired = Atomic<Bool>(false)
        let runs = Atomic<Int>(0)
        @Sendable func spin() {
            guard !fired.load(ordering: .relaxed) else { return }
            runs.add(1, ordering: .relaxed)
            loop.execute { spin() }
        }
        loop.execute {
            loop.schedule(after: .milliseconds(20)) { fired.store(true, ordering: .relaxed) }
            spin()
        }
        #expect(await eventually(timeout: .seconds(10)) { fired.load(ordering: .relaxed) })
        // The chain ran across many iterations while the timer waited.
        #expect(runs.load(ordering: .relaxed) > EventLoop.localTaskRounds)
    }
}
