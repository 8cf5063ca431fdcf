// One epoll event loop on one thread: readiness, tasks from any thread, timers, shutdown.
//
// Design decisions (documented here because every later layer relies on them):
// - **Level-triggered epoll.** A handler may stop reading after a bounded amount of work (fairness
//   between connections, and read backpressure when a user pauses) without having to drain to
//   EAGAIN: the kernel reports the descriptor again on the next wait. The cost is an `epoll_ctl`
//   MOD when a channel's interest changes (writability wanted only while bytes are queued;
//   reading dropped while paused), which happens far less often than reads.
// - **Timers use the `epoll_wait` timeout**, not a timerfd: a min-heap (`TimerQueue`) gives the
//   next deadline, and the wait's millisecond timeout is rounded *up*, so a timer fires at most
//   ~1 ms late and never early (no busy wake-ups before a deadline). No extra descriptor and no
//   `timerfd_settime` call each time the earliest deadline changes; millisecond precision is ample
//   for network timeouts and the 250 ms Happy Eyeballs delay.
// - **An eventfd wakes the loop** when another thread submits a task, and only when the loop
//   sleeps or is about to: before a blocking `epoll_wait` the loop sets `isWaiting` under the
//   inbox lock (unless tasks are already queued, then it does not block), and clears it when the
//   wait returns. A submitter that finds the loop awake writes nothing: the loop drains the inbox
//   before it next sleeps. A `wakeupPending` flag makes it one `write` per sleep, not per task.
//   The eventfd is registered edge-triggered and never read: every write raises a new edge
//   (the kernel wakes its waiters on each write), so the read that reset a level-triggered
//   eventfd was one system call per wake-up for nothing. Its counter only grows, by one per
//   wake-up; it would reach eventfd's limit (2^64 − 2) after about 580,000 years at a million
//   wake-ups a second.
//   The write happens after the submitter unlocks, so the loop, woken early, never blocks on
//   the lock its waker still holds (with both on one core that cost two futex calls per
//   request). A waker counts itself in `wakesInFlight` under the lock before it unlocks and
//   out again, under the lock, once written; the loop closes the eventfd at shutdown only when
//   none is in flight, after refusing new tasks, so a late write can never hit a closed
//   descriptor, or a reused one that belongs to someone else (it once did, and trapped on
//   EBADF). The count is kept under the lock, not in an atomic, so ThreadSanitizer sees the
//   order between the last write and the close.
// - **Generations in `epoll_data`.** Each registration stores `generation << 32 | fd` in
//   `epoll_data.u64`; an event whose generation no longer matches the table (the descriptor was
//   closed and its number reused within one `epoll_wait` batch) is dropped.
// - **Idle means asleep**: with no task and no timer the loop waits with timeout -1 (0% CPU).
//   Unless asked for busy polling (`busyPollDuration`, off by default): then, before each
//   wait that would sleep, the loop calls `epoll_wait` with a zero timeout until an event comes
//   or the duration (or the next timer's deadline) passes, and only then sleeps. A response due
//   in tens of microseconds is then read by a running thread, not one the scheduler has to wake
//   (on a VM the sleep and wake-up around each response is most of a request's kernel time).
//   The loop's thread uses a core meanwhile; it stops polling at once when a caller starts
//   waiting inline, which needs that core more. A caller waiting inline polls the same way
//   (`ppoll` with a zero timeout) before it sleeps.
// - **A sleeping loop can be borrowed.** The loop thread holds `ownership` (a mutex) for all of
//   its work and lets go of it only around `epoll_wait` (and its after-iteration work, below). Another thread that wants to start
//   something on the loop (`runIfAsleep`: a request from an ordinary Swift task) try-locks it;
//   when that succeeds the loop is asleep or about to be, so the borrower does the work itself,
//   as the loop (`inEventLoop` is true for it meanwhile), flushes what that work wrote, and lets
//   go. The request leaves in the borrower's own `sendmsg`, and the loop sleeps on until the
//   response arrives: no eventfd write, no wake-up, no context switch to the loop and back.
//   The loop, woken by I/O while a borrower works, blocks on the mutex until it is done.
//   A borrower never waits (it only try-locks), and runs no queued task: what its work queued
//   for the loop (a completion, a Swift job) and a timer due before the loop's wait ends make it
//   wake the loop as any submitter would. So a borrower never runs code that expects the loop's
//   own thread beyond the work it brought, and no lock order can deadlock: the only blocking
//   acquire is the loop thread's own, and the loop thread holds no other loop's `ownership`.
// - **A sleeping loop can be waited on by its caller** (`waitInlineIfAsleep`). A borrower that
//   has just sent a request and is about to await the response may keep the loop and wait for
//   it itself, for a bounded time: the loop stops watching that one descriptor (`epoll_ctl` MOD
//   to no events, so its readiness does not wake the loop's thread), the caller `ppoll`s it,
//   handles what it reports as the loop would, runs the local tasks that queued and the
//   completion after it let go, and the loop watches the descriptor again. One sleep and wake
//   of the caller's thread a request, as libcurl's, where handing the response over cost two
//   context switches and two futex calls. The loop's thread, woken meanwhile for anything else
//   (another descriptor, a task, the eventfd), must not wait behind a blocked caller: it says
//   so in `loopWantsOwnership` before it takes `ownership`, and writes `yieldFD` (which the
//   caller polls too) when `hasInlineWaiter` says a caller waits; each side sets its flag
//   before reading the other's (sequentially consistent), so at least one of them sees the
//   other. The caller also stops before the loop's next timer is due. No loop's own thread
//   ever waits this way: a task running on a loop would block that loop's connections.
// - **Completions can wait until the loop lets go** (`executeAfterIteration`). Telling a caller
//   on another thread that its request is done wakes that thread, and on a busy core the woken
//   thread runs at once, while the loop, preempted, still holds `ownership`: the caller's next
//   request then cannot borrow the loop and is queued instead. Work queued this way runs on the
//   loop's thread after the iteration, once `ownership` is let go and before the wait, as an
//   ordinary thread (`inEventLoop` is false there: what it queues goes through the inbox, a
//   request it starts borrows the loop like any other thread's). The woken caller then finds
//   the loop free.
import CWickSystem
import Synchronization
import WickCore
public import WickCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An epoll event loop running on its own thread. Create loops through `EventLoopGroup`.
///
/// Thread ownership of mutable state (this is the proof behind `@unchecked Sendable`):
/// - `inbox` (tasks from other threads, wake-up flag, lifecycle) is guarded by its lock (`Locked`).
/// - `threadID`, `loopThreadID` and `nextTimerID` are atomics; `threadID` is only changed by
///   the thread holding `ownership`.
/// - `afterIterationBatch` is touched by the loop's own thread only.
/// - Every other `var` (`registrations`, `timers`, `localTasks`, `pendingFlushes`,
///   `nextGeneration`, `isClosing`, `waitEnds`) is read and written only by the thread acting
///   as the loop, holding `ownership`: the loop's own thread, or a borrower inside
///   `runIfAsleep` (for which `inEventLoop` is then true). Each method that touches them is
///   internal and begins with `assertInEventLoop()` or is called only from `run()` or
///   `runIfAsleep`; public entry points hop through the inbox when called from elsewhere.
/// - `epollFD`, `wakeFD`, `readBuffer` and `events` are set in `init` and never reassigned; the
///   buffers' contents are used only by the thread acting as the loop (`events` by the loop's
///   own thread only).
public final class EventLoop: @unchecked Sendable, CustomStringConvertible {
    private enum Lifecycle {
        case running
        case shuttingDown
        case shutDown
    }

    private struct Inbox {
        var tasks: [LoopWork] = []
        var wakeupPending = false
        /// Submitters that decided to write the eventfd and have not finished writing.
        var wakesInFlight = 0
        var lifecycle = Lifecycle.running
    }

    /// A timer's body, and what to do instead if the loop shuts down before it fires.
    struct LoopTimer {
        let handle: Scheduled
        let body: () -> Void
        let onShutdown: (() -> Void)?
    }

    struct Registration {
        let generation: UInt32
        var interest: UInt32
        let handler: any Selectable
    }

    /// A descriptor as a registration's key, hashed by `identifierHash` (the kernel picks the
    /// number, never a peer): every readiness event and interest change looks one up.
    struct DescriptorKey: Hashable {
        let fd: Int32

        init(_ fd: Int32) { self.fd = fd }

        func _rawHashValue(seed: Int) -> Int { identifierHash(UInt64(UInt32(bitPattern: fd)), seed: seed) }
    }

    /// The loop's name, e.g. `wick-loop-0`, also its thread's name.
    public let name: String
    let epollFD: Int32
    private let wakeFD: Int32
    /// Written by the loop's thread when it woke while a borrower waits inline
    /// (`waitInlineIfAsleep`), which polls it beside its connection and so lets go at once.
    /// Read (reset) only by that borrower.
    private let yieldFD: Int32
    /// A borrower waits inline now (`waitInlineIfAsleep`); set and cleared under `ownership`.
    private let hasInlineWaiter = Atomic<Bool>(false)
    /// The loop's thread returned from `epoll_wait` and wants `ownership`; cleared once it has it.
    /// With `hasInlineWaiter`, a Dekker pair: each side sets its flag, then reads the other's,
    /// so either the waiter sees the loop coming or the loop sees the waiter and writes `yieldFD`.
    private let loopWantsOwnership = Atomic<Bool>(false)
    private let inbox = Locked(Inbox())
    /// Held by whichever thread acts as the loop: the loop thread except while it waits in
    /// `epoll_wait`, or a borrower (`runIfAsleep`). Every loop-confined `var` is touched only
    /// under it; the inbox lock is taken inside it, never around it.
    private let ownership = Locked(())
    /// Whether the loop sleeps in `epoll_wait`, or is about to: set under `inbox`'s lock once the
    /// loop found no queued task, cleared (without the lock) when the wait returns. Read under
    /// the lock by submitters; a stale `true` costs one spurious wake-up, never a lost one.
    private let isWaiting = Atomic<Bool>(false)
    /// The thread acting as the loop (holding `ownership`): the loop's own, a borrower, or 0 while
    /// the loop's thread waits or runs after-iteration work.
    private let threadID = Atomic<UInt>(0)
    /// The loop's own thread, once `run()` began.
    private let loopThreadID = Atomic<UInt>(0)
    private let nextTimerID = Atomic<UInt64>(1)
    /// The loop's reusable read buffer; channels read into it and lend it to their delegate.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// A second loop-owned buffer, for a layer that turns what a channel read into other bytes
    /// and lends those to its own delegate (TLS decrypts one record into it), so that no
    /// connection holds such a buffer of its own. Loop-thread only; its bytes are valid until
    /// the layer next writes into it, which it does only on its own next read.
    package let scratchBuffer: UnsafeMutableRawBufferPointer
    /// The size of `scratchBuffer`: one TLS record's plaintext (2^14 bytes).
    package static let scratchBufferSize = 16_384
    private let events: UnsafeMutableBufferPointer<epoll_event>
    /// How long the loop, and a caller waiting inline, poll without sleeping before they sleep
    /// (see the file's comment); zero: never.
    let busyPollDuration: Duration

    // Loop-thread only (see the type's comment).
    // `@exclusivity(unchecked)` on the loop-confined stored properties below: they are touched on
    // one thread only, and no access overlaps another (no inout of one across a call that
    // reaches it), so the runtime's dynamic check proves nothing; it cost a thread-local lookup
    // and an access-set insert per access, about 7,000 instructions per request (callgrind).
    @exclusivity(unchecked) private var registrations: [DescriptorKey: Registration] = [:]
    @exclusivity(unchecked) private var nextGeneration: UInt32 = 1
    @exclusivity(unchecked) private var timers = TimerQueue<LoopTimer>()
    @exclusivity(unchecked) private var localTasks: [LoopWork] = []
    @exclusivity(unchecked) private var pendingFlushes: [any IterationEndFlushing] = []
    // Scratch arrays swapped with the queues above each pass, so draining a queue while it may
    // grow never copies it: a steady loop iteration allocates nothing.
    @exclusivity(unchecked) private var remoteTaskScratch: [LoopWork] = []
    @exclusivity(unchecked) private var localTaskScratch: [LoopWork] = []
    @exclusivity(unchecked) private var flushScratch: [any IterationEndFlushing] = []
    @exclusivity(unchecked) private(set) var isClosing = false
    /// When the loop's current `epoll_wait` times out by itself: `.distantFuture` with no timer,
    /// `.distantPast` when it does not block. A borrower that leaves an earlier timer wakes it.
    @exclusivity(unchecked) private var waitEnds = Deadline.distantPast
    /// Work for after the iteration (`executeAfterIteration`), queued by whoever acts as the loop.
    @exclusivity(unchecked) private var afterIteration: [LoopWork] = []
    /// The batch of `afterIteration` being run, outside `ownership`: the loop's own thread only.
    @exclusivity(unchecked) private var afterIterationBatch: [LoopWork] = []

    /// `epoll_data` of the wake-up eventfd; generation 0 is never given to a registration.
    private static let wakeData = UInt64(0)

    init(name: String, readBufferSize: Int, maximumEventsPerWait: Int, busyPollDuration: Duration = .zero)
        throws(ReactorError)
    {
        self.name = name
        self.busyPollDuration = busyPollDuration
        do {
            epollFD = try Syscalls.epollCreate()
        } catch {
            throw ReactorError(error)
        }
        do {
            wakeFD = try Syscalls.eventfd()
            try Syscalls.epollControl(
                epollFD, EPOLL_CTL_ADD, wakeFD, events: Epoll.readable | Epoll.edgeTriggered, data: Self.wakeData)
        } catch {
            try? Syscalls.close(epollFD)
            throw ReactorError(error)
        }
        do {
            yieldFD = try Syscalls.eventfd()
        } catch {
            try? Syscalls.close(wakeFD)
            try? Syscalls.close(epollFD)
            throw ReactorError(error)
        }
        // SAFETY: both buffers are owned by the loop, used only on its thread, and freed in deinit.
        // `events` holds plain C structs that epoll_wait overwrites before they are read.
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        scratchBuffer = .allocate(byteCount: Self.scratchBufferSize, alignment: 16)
        events = .allocate(capacity: maximumEventsPerWait)
        events.initialize(repeating: epoll_event())
    }

    deinit {
        // SAFETY: the loop thread has exited (it holds a strong reference while it runs).
        readBuffer.deallocate()
        scratchBuffer.deallocate()
        events.deallocate()
    }

    /// The loop's name.
    public var description: String { "EventLoop(\(name))" }

    // MARK: threads

    /// Whether the caller acts as this loop: runs on the loop's thread, doing the loop's work
    /// (not while it waits or runs after-iteration work), or borrows the sleeping loop for the
    /// work it brought (`runIfAsleep`).
    public var inEventLoop: Bool {
        threadID.load(ordering: .relaxed) == JoinableThread.currentID
    }

    /// Traps unless the caller runs on this loop's thread. Every loop-bound API calls it.
    public func preconditionInEventLoop(_ function: StaticString = #function) {
        precondition(inEventLoop, "\(function) must be called on \(name)'s thread")
    }

    /// Whether the caller is the loop's own thread, whatever it is doing (waiting included).
    var isLoopThread: Bool {
        loopThreadID.load(ordering: .relaxed) == JoinableThread.currentID
    }

    /// Spins (yielding) until `run()` has recorded its thread; called once by the group's init.
    func waitUntilStarted() {
        while loopThreadID.load(ordering: .relaxed) == 0 { sched_yield() }
    }

    @inline(__always)
    func assertInEventLoop(_ function: StaticString = #function) {
        precondition(inEventLoop, "\(function) must be called on \(name)'s thread")
    }

    // MARK: tasks

    /// Runs `task` on the loop's thread, soon, in submission order. From the loop's own thread
    /// the task is queued (never run inline). Returns `false` (and drops the task) if the loop has
    /// finished shutting down; tasks accepted before that always run, even during shutdown.
    @discardableResult
    public func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        enqueueWork(.closure(task))
    }

    /// Runs `runnable.runOnLoop()` on the loop's thread, as `execute` runs a closure, without
    /// allocating: the object is queued as it is. Returns `false` once the loop has shut down.
    @discardableResult
    public func execute(_ runnable: any LoopRunnable) -> Bool {
        enqueueWork(.runnable(runnable))
    }

    /// Queues `work`: locally on the loop's own thread, else in the inbox, waking the loop only
    /// if it sleeps (once per sleep).
    func enqueueWork(_ work: LoopWork) -> Bool {
        if inEventLoop {
            localTasks.append(work)
            return true
        }
        let (accepted, wakes) = inbox.withLock { inbox -> (Bool, Bool) in
            guard inbox.lifecycle != .shutDown else { return (false, false) }
            inbox.tasks.append(work)
            guard isWaiting.load(ordering: .relaxed), !inbox.wakeupPending else { return (true, false) }
            inbox.wakeupPending = true
            inbox.wakesInFlight += 1
            return (true, true)
        }
        // Outside the lock (see the file's comment); the count keeps the eventfd open meanwhile.
        if wakes { wakeUpOutsideTheLock() }
        return accepted
    }

    /// Runs `body` on the loop and returns its result. Throws `ReactorError.loopShutDown` if the
    /// loop no longer accepts tasks, or whatever `body` throws.
    public func submit<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let result = await awaitCallback { (deliver: @escaping @Sendable (Result<T, any Error>) -> Void) in
            let accepted = execute { deliver(Result { try body() }) }
            if !accepted { deliver(.failure(ReactorError.loopShutDown)) }
        }
        return try result.get()
    }

    /// Runs `body` on the calling thread, as the loop, if the loop sleeps in `epoll_wait` (or is
    /// about to) and so is not using its state; then sends what `body` wrote if `body` returns
    /// true (false leaves it for the loop's next iteration, which gathers it with other writes
    /// into one `sendmsg`: for a connection that other requests share), and wakes the loop if
    /// `body` left writes or queued a task for it, or set a timer due before its wait ends. Returns
    /// false, without running `body`, when the loop is busy, has tasks queued (which must run
    /// first), is shutting down, or the caller already acts as the loop: the caller then queues
    /// the work with `execute` instead, after those tasks.
    ///
    /// `body` must not block, and must not call `runIfAsleep` of this loop. It may do anything
    /// that loop-thread code does: register descriptors, write to channels, set timers, queue
    /// tasks (they run on the loop's thread, not here). See the file's comment for why this
    /// cannot deadlock.
    package func runIfAsleep(_ body: () -> Bool) -> Bool {
        guard !inEventLoop else { return false }
        // nil: busy; .some(nil): tasks queued, or closing; .some(.some(wakes)): ran.
        let borrowed = ownership.withLockIfAvailable { _ -> Bool? in
            // Work queued earlier runs first: a borrower never overtakes a task (a cancel
            // queued just before the request it cancels, a prewarm before a request).
            guard !isClosing, localTasks.isEmpty, inbox.withLock({ $0.tasks.isEmpty }) else { return nil }
            let loopThread = threadID.load(ordering: .relaxed)
            threadID.store(JoinableThread.currentID, ordering: .relaxed)
            if body() { flushPending() }
            threadID.store(loopThread, ordering: .relaxed)
            return !pendingFlushes.isEmpty || !localTasks.isEmpty || !afterIteration.isEmpty
                || timers.nextDeadline().map { $0 < waitEnds } == true
        }
        guard let ran = borrowed, let wakes = ran else { return false }
        if wakes { wakeUpIfAsleep() }
        return true
    }

    /// Wakes the loop if it sleeps and no wake-up is pending, as a submitter does.
    private func wakeUpIfAsleep() {
        let wakes = inbox.withLock { inbox -> Bool in
            guard inbox.lifecycle != .shutDown, isWaiting.load(ordering: .relaxed), !inbox.wakeupPending else {
                return false
            }
            inbox.wakeupPending = true
            inbox.wakesInFlight += 1
            return true
        }
        if wakes { wakeUpOutsideTheLock() }
    }

    /// How a wait on the caller's thread (`waitInlineIfAsleep`) ended.
    package enum InlineWaitEnd {
        /// The work it watched ended (`descriptor()` gave nil).
        case workEnded
        /// Its deadline passed first.
        case ranOut
        /// It let go early (the loop's thread woke for other work, or a timer of the loop's is
        /// due), or never waited (the work had ended, or was not to be waited for).
        case interrupted
    }

    /// Borrows the sleeping loop, as `runIfAsleep` does, and waits on the calling thread for the
    /// work it watches to end, for up to `deadline`: a caller about to await a request the
    /// loop carries (sent by that caller a moment ago, its response due within microseconds)
    /// takes the response itself, as libcurl's caller does, instead of sleeping until the loop
    /// wakes it (two context switches and two futex calls a request on a shared core).
    ///
    /// Each round, as the loop, `descriptor()` names the registered descriptor to watch (nil
    /// when the work has ended, or is not to be waited for). The loop stops watching it
    /// meanwhile (so its readiness does not wake the loop's thread), and this thread `ppoll`s it
    /// with the loop's `yieldFD`, hands what it reports to its handler, runs the loop-local
    /// tasks that produced (not Swift jobs: those wait for the loop's thread) and flushes what
    /// they wrote. The wait ends when `descriptor()` says so, at `deadline`, before the loop's
    /// next timer is due, or at once when the loop's thread wakes for anything else (another
    /// connection, a task): it then writes `yieldFD` (see `loopWantsOwnership`). `ended` hears
    /// how, as the loop, whenever the loop was borrowed. Work queued for after the iteration (a completion)
    /// then runs on this thread, once it let go, as the loop's thread would run it there.
    ///
    /// Returns false, without waiting, when `runIfAsleep` would (the loop is busy or has tasks
    /// queued, or the caller acts as the loop), when writes wait for the loop's next iteration,
    /// and on any loop's own thread: a loop's thread (a task on a loop, or after-iteration
    /// work) must never block on another loop's socket.
    package func waitInlineIfAsleep(
        until deadline: Deadline, watching descriptor: () -> Int32?, ended: (InlineWaitEnd) -> Void
    ) -> Bool {
        guard !inEventLoop, cwick_is_loop_thread() == 0 else { return false }
        let borrowed = ownership.withLockIfAvailable { _ -> (single: LoopWork?, after: [LoopWork], wakes: Bool)? in
            // Writes left for the loop (a stream sent with others') are the loop's to send first.
            guard !isClosing, localTasks.isEmpty, pendingFlushes.isEmpty, inbox.withLock({ $0.tasks.isEmpty })
            else { return nil }
            let loopThread = threadID.load(ordering: .relaxed)
            threadID.store(JoinableThread.currentID, ordering: .relaxed)
            hasInlineWaiter.store(true, ordering: .sequentiallyConsistent)
            ended(waitInline(until: deadline, watching: descriptor))
            hasInlineWaiter.store(false, ordering: .relaxed)
            threadID.store(loopThread, ordering: .relaxed)
            // One item (the usual completion) is moved out, so the queue keeps its storage.
            var after: [LoopWork] = []
            var single: LoopWork?
            if afterIteration.count == 1 {
                single = afterIteration.removeLast()
            } else if !afterIteration.isEmpty {
                swap(&after, &afterIteration)
            }
            return (
                single, after,
                !pendingFlushes.isEmpty || !localTasks.isEmpty
                    || timers.nextDeadline().map { $0 < waitEnds } == true
            )
        }
        guard let borrowed = borrowed ?? nil else { return false }
        borrowed.single?.run()
        for work in borrowed.after { work.run() }
        if borrowed.wakes { wakeUpIfAsleep() }
        return true
    }

    /// The rounds of `waitInlineIfAsleep`, as the loop.
    private func waitInline(until deadline: Deadline, watching descriptor: () -> Int32?) -> InlineWaitEnd {
        var silenced: (fd: Int32, generation: UInt32)?
        defer {
            // The loop watches the descriptor again, with the interest its handler left.
            if let silenced, let registration = registrations[DescriptorKey(silenced.fd)],
                registration.generation == silenced.generation
            {
                control(
                    EPOLL_CTL_MOD, fd: silenced.fd, interest: registration.interest, generation: silenced.generation)
            }
        }
        // A wait that silenced nothing yet ends `.interrupted`, whatever stopped it (spelled out
        // at each return: a nested function reading `silenced` made the `defer`'s access to it
        // checked at run time).
        while true {
            if loopWantsOwnership.load(ordering: .sequentiallyConsistent) { return .interrupted }
            guard let fd = descriptor() else { return silenced == nil ? .interrupted : .workEnded }
            // A descriptor the loop does not know, or another than the one being watched (the
            // work moved to a new connection), is left to the loop.
            guard let registration = registrations[DescriptorKey(fd)],
                silenced.map({ $0.fd == fd && $0.generation == registration.generation }) ?? true
            else { return .interrupted }
            let now = Deadline.now()
            if deadline.hasPassed(at: now) { return silenced == nil ? .interrupted : .ranOut }
            let end = timers.nextDeadline().map { Swift.min($0, deadline) } ?? deadline
            if end.hasPassed(at: now) { return .interrupted }
            if silenced == nil {
                control(EPOLL_CTL_MOD, fd: fd, interest: 0, generation: registration.generation)
                silenced = (fd, registration.generation)
            }
            let polled = poll(fd, events: Int16(truncatingIfNeeded: registration.interest), until: end, from: now)
            let ready = UInt32(UInt16(bitPattern: polled.first)) & ~UInt32(POLLNVAL)
            if ready != 0 {
                registration.handler.readinessChanged(ready)
                runLocalTasksBeforeAJob()
                flushPending()
            }
            if polled.second != 0 {
                // Reset, so the next waiter does not take this request to let go for its own.
                _ = try? Syscalls.eventfdRead(yieldFD)
                return .interrupted
            }
        }
    }

    /// `ppoll`s `fd` for `events`, and `yieldFD`, until one is ready or `end` passes; with busy
    /// polling, first without sleeping for up to `busyPollDuration` (see the file's comment).
    private func poll(_ fd: Int32, events: Int16, until end: Deadline, from now: Deadline) -> (
        first: Int16, second: Int16
    ) {
        do {
            if busyPollDuration > .zero {
                let pollsUntil = (now + busyPollDuration).earliest(end)
                repeat {
                    let polled = try Syscalls.poll(fd, events: events, orReadable: yieldFD, timeoutNanoseconds: 0)
                    if polled != (0, 0) { return polled }
                } while !pollsUntil.hasPassed(at: .now())
            }
            return try Syscalls.poll(
                fd, events: events, orReadable: yieldFD,
                timeoutNanoseconds: end.timeRemaining(at: .now()).wholeNanosecondsClamped)
        } catch {
            preconditionFailure("\(name): ppoll: \(error)")
        }
    }

    /// Runs the loop-local tasks queued so far, as `runTasks` does, up to the first Swift job:
    /// a job (a task that prefers the loop) waits for the loop's own thread, with what follows it.
    private func runLocalTasksBeforeAJob() {
        var rounds = 0
        while !localTasks.isEmpty && rounds < Self.localTaskRounds {
            if let job = localTasks.firstIndex(where: { if case .job = $0 { true } else { false } }) {
                if job == 0 { return }
                localTaskScratch.append(contentsOf: localTasks[..<job])
                localTasks.removeSubrange(..<job)
            } else {
                swap(&localTasks, &localTaskScratch)
            }
            for task in localTaskScratch { task.run() }
            localTaskScratch.removeAllKeepingCapacity()
            rounds += 1
        }
    }

    /// Runs `runnable.runOnLoop()` on the loop's thread after this iteration, once the loop let
    /// go of its state and before it waits (see the file's comment): there the thread is not
    /// the loop (`inEventLoop` is false), so `runnable` must touch nothing loop-confined, and
    /// may start work on the loop as any other thread does. Returns false, queuing nothing, when
    /// the caller is not acting as the loop or the loop is closing (the caller then runs it some
    /// other way).
    package func executeAfterIteration(_ runnable: any LoopRunnable) -> Bool {
        guard inEventLoop, !isClosing else { return false }
        afterIteration.append(.runnable(runnable))
        return true
    }

    /// Queues a loop-local task (not `Sendable`): only from the loop's thread.
    func executeLocal(_ task: @escaping () -> Void) {
        assertInEventLoop()
        localTasks.append(.closure(task))
    }

    /// Writes the eventfd for a waker counted in `wakesInFlight`, then counts it out.
    private func wakeUpOutsideTheLock() {
        wakeUp()
        inbox.withLock { $0.wakesInFlight -= 1 }
    }

    /// Writes the eventfd: only by a waker counted in `wakesInFlight` (the loop closes the
    /// descriptor once none is).
    private func wakeUp() {
        do {
            _ = try Syscalls.eventfdWrite(wakeFD, 1)
        } catch {
            preconditionFailure("\(name): cannot wake the loop: \(error)")
        }
    }

    // MARK: timers

    /// Runs `body` on the loop at `deadline` (monotonic clock), unless cancelled first through the
    /// returned handle. Timers with equal deadlines fire in scheduling order. A timer pending when
    /// the loop shuts down is cancelled (its outcome becomes `.cancelled`; its body never runs).
    @discardableResult
    public func schedule(at deadline: Deadline, _ body: @escaping @Sendable () -> Void) -> Scheduled {
        let handle = Scheduled(id: nextTimerID.wrappingAdd(1, ordering: .relaxed).oldValue, loop: self)
        if inEventLoop {
            insertTimer(handle, at: deadline, body)
        } else if !execute({ self.insertTimer(handle, at: deadline, body) }) {
            _ = handle.markCancelled()
        }
        return handle
    }

    /// Runs `body` on the loop after `delay`; see `schedule(at:_:)`.
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Scheduled {
        schedule(at: .now() + delay, body)
    }

    /// Loop-local timer with a non-`Sendable` body: only from the loop's thread. `onShutdown`
    /// runs instead of `body` if the loop shuts down first (internal users fail their work there).
    func scheduleLocal(at deadline: Deadline, onShutdown: (() -> Void)? = nil, _ body: @escaping () -> Void)
        -> Scheduled
    {
        assertInEventLoop()
        let handle = Scheduled(id: nextTimerID.wrappingAdd(1, ordering: .relaxed).oldValue, loop: self)
        insertTimer(handle, at: deadline, body, onShutdown: onShutdown)
        return handle
    }

    private func insertTimer(
        _ handle: Scheduled, at deadline: Deadline, _ body: @escaping () -> Void, onShutdown: (() -> Void)? = nil
    ) {
        assertInEventLoop()
        guard handle.outcome == .pending else { return }
        if isClosing {
            if handle.markCancelled() { onShutdown?() }
            return
        }
        timers.schedule(id: handle.id, at: deadline, LoopTimer(handle: handle, body: body, onShutdown: onShutdown))
    }

    /// Drops a cancelled timer's entry so its closure is freed now, not at its deadline.
    func forgetTimer(id: UInt64) {
        if inEventLoop {
            _ = timers.cancel(id: id)
        } else {
            execute { self.forgetTimerOnLoop(id: id) }
        }
    }

    private func forgetTimerOnLoop(id: UInt64) {
        assertInEventLoop()
        _ = timers.cancel(id: id)
    }

    /// The number of live timers (for tests and diagnostics). Only from the loop's thread.
    var timerCount: Int {
        assertInEventLoop()
        return timers.count
    }

    // MARK: registrations

    /// Registers `fd` for `interest` with `handler`; returns the registration's generation.
    /// Throws `.loopShutDown` if the loop is closing.
    @discardableResult
    func register(fd: Int32, interest: UInt32, handler: any Selectable) throws(ReactorError) -> UInt32 {
        assertInEventLoop()
        guard !isClosing else { throw .loopShutDown }
        precondition(registrations[DescriptorKey(fd)] == nil, "\(name): fd \(fd) is already registered")
        let generation = takeGeneration()
        do {
            try Syscalls.epollControl(epollFD, EPOLL_CTL_ADD, fd, events: interest, data: Self.data(fd, generation))
        } catch {
            throw ReactorError(error)
        }
        registrations[DescriptorKey(fd)] = Registration(generation: generation, interest: interest, handler: handler)
        return generation
    }

    /// Hands a registered `fd` to a new handler (a connected socket passing from its connect
    /// attempt to its channel), with a new generation so queued events for the old one are dropped.
    func transfer(fd: Int32, to handler: any Selectable, interest: UInt32) {
        assertInEventLoop()
        precondition(registrations[DescriptorKey(fd)] != nil, "\(name): transfer of unregistered fd \(fd)")
        let generation = takeGeneration()
        control(EPOLL_CTL_MOD, fd: fd, interest: interest, generation: generation)
        registrations[DescriptorKey(fd)] = Registration(generation: generation, interest: interest, handler: handler)
    }

    /// Changes the events `fd` is watched for (no-op if unchanged).
    func setInterest(fd: Int32, _ interest: UInt32) {
        assertInEventLoop()
        guard var registration = registrations[DescriptorKey(fd)] else {
            preconditionFailure("\(name): setInterest on unregistered fd \(fd)")
        }
        guard registration.interest != interest else { return }
        control(EPOLL_CTL_MOD, fd: fd, interest: interest, generation: registration.generation)
        registration.interest = interest
        registrations[DescriptorKey(fd)] = registration
    }

    /// Stops watching `fd`. The caller closes it afterwards.
    func deregister(fd: Int32) {
        assertInEventLoop()
        precondition(
            registrations.removeValue(forKey: DescriptorKey(fd)) != nil, "\(name): deregister of unregistered fd \(fd)")
        control(EPOLL_CTL_DEL, fd: fd, interest: 0, generation: 0)
    }

    /// The number of registered descriptors (for tests). Only from the loop's thread.
    var registrationCount: Int {
        assertInEventLoop()
        return registrations.count
    }

    private func takeGeneration() -> UInt32 {
        let generation = nextGeneration
        nextGeneration = nextGeneration == .max ? 1 : nextGeneration + 1
        return generation
    }

    /// `epoll_ctl` on a descriptor we own: only resource exhaustion can fail, which the loop
    /// cannot recover from without losing track of the descriptor.
    private func control(_ operation: Int32, fd: Int32, interest: UInt32, generation: UInt32) {
        do {
            try Syscalls.epollControl(epollFD, operation, fd, events: interest, data: Self.data(fd, generation))
        } catch {
            preconditionFailure("\(name): epoll_ctl(\(operation)) on fd \(fd): \(error)")
        }
    }

    private static func data(_ fd: Int32, _ generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    // MARK: flushing

    /// Asks for `flusher.flushAtIterationEnd()` at the end of this loop iteration, so that writes
    /// made in one iteration leave together (one gathered `sendmsg`, one TLS record). Ask once
    /// per flush wanted: the loop calls it once per request. Call as the loop.
    package func flushAtEndOfIteration(_ flusher: any IterationEndFlushing) {
        assertInEventLoop()
        pendingFlushes.append(flusher)
    }

    // MARK: the loop

    /// Runs the loop on the calling thread until shutdown completes, then closes its descriptors.
    func run() {
        let ownThread = JoinableThread.currentID
        loopThreadID.store(ownThread, ordering: .relaxed)
        cwick_mark_loop_thread()
        // `ownership` is let go only for the after-iteration work and the wait (see the file's
        // comment); `threadID` says who acts as the loop, and is only changed under it.
        var next = ownership.withLock { _ in
            threadID.store(ownThread, ordering: .relaxed)
            defer { threadID.store(0, ordering: .relaxed) }
            return nextWait()
        }
        while let wait = next {
            let batch = waitForEvents(wait)
            // A borrower waiting inline is told to let go (see `waitInlineIfAsleep`).
            loopWantsOwnership.store(true, ordering: .sequentiallyConsistent)
            if hasInlineWaiter.load(ordering: .sequentiallyConsistent) { _ = try? Syscalls.eventfdWrite(yieldFD, 1) }
            next = ownership.withLock { _ in
                loopWantsOwnership.store(false, ordering: .relaxed)
                threadID.store(ownThread, ordering: .relaxed)
                defer { threadID.store(0, ordering: .relaxed) }
                if wait.sleeps { isWaiting.store(false, ordering: .relaxed) }
                dispatch(batch)
                runDueTimers()
                runTasks()
                flushPending()
                swap(&afterIteration, &afterIterationBatch)
                return nextWait()
            }
            // Outside `ownership`, as an ordinary thread (see `executeAfterIteration`).
            if !afterIterationBatch.isEmpty {
                for work in afterIterationBatch { work.run() }
                afterIterationBatch.removeAllKeepingCapacity()
            }
        }
        ownership.withLock { _ in
            threadID.store(ownThread, ordering: .relaxed)
            closeEverything()
            // A borrower may have queued some between the last batch and the close.
            swap(&afterIteration, &afterIterationBatch)
            threadID.store(0, ordering: .relaxed)
        }
        for work in afterIterationBatch { work.run() }
        afterIterationBatch.removeAll()
    }

    /// How the loop waits next: until `ends` (`distantFuture`: until woken; `distantPast`: not
    /// at all), after polling without sleeping until `pollsUntil` (busy polling, or nil);
    /// `sleeps` when it promised submitters to (`isWaiting`).
    private struct Wait {
        let ends: Deadline
        let pollsUntil: Deadline?
        let sleeps: Bool
    }

    /// Decides the next wait, or nil once shutdown began. One inbox lock: whether shutdown
    /// began, and whether the loop may sleep, which it promises submitters (`isWaiting`) only
    /// when no task is queued. Records when a sleep ends (`waitEnds`) for borrowers.
    private func nextWait() -> Wait? {
        let hasOwnWork = !localTasks.isEmpty || !pendingFlushes.isEmpty
        let (stops, sleeps) = inbox.withLock { inbox -> (Bool, Bool) in
            guard inbox.lifecycle != .shuttingDown else { return (true, false) }
            guard !hasOwnWork, inbox.tasks.isEmpty else { return (false, false) }
            isWaiting.store(true, ordering: .relaxed)
            return (false, true)
        }
        if stops { return nil }
        guard sleeps else {
            waitEnds = .distantPast
            return Wait(ends: .distantPast, pollsUntil: nil, sleeps: false)
        }
        waitEnds = timers.nextDeadline() ?? .distantFuture
        let pollsUntil = busyPollDuration > .zero ? (Deadline.now() + busyPollDuration).earliest(waitEnds) : nil
        return Wait(ends: waitEnds, pollsUntil: pollsUntil, sleeps: true)
    }

    /// Begins shutdown from another thread: the loop closes its channels, runs every accepted
    /// task, cancels its timers, closes its descriptors and returns from `run()`.
    func initiateShutdown() {
        let begins = inbox.withLock { inbox -> Bool in
            guard inbox.lifecycle == .running else { return false }
            inbox.lifecycle = .shuttingDown
            inbox.wakesInFlight += 1
            return true
        }
        if begins { wakeUpOutsideTheLock() }
    }

    /// Waits for readiness as `wait` says, without `ownership`; returns how many events
    /// `events` holds.
    private func waitForEvents(_ wait: Wait) -> Int {
        if let pollsUntil = wait.pollsUntil {
            repeat {
                let count = waitForEvents(timeoutMilliseconds: 0)
                if count > 0 { return count }
                // A caller waiting inline needs the core this thread polls on.
            } while !hasInlineWaiter.load(ordering: .relaxed) && !pollsUntil.hasPassed(at: .now())
        }
        if wait.ends == .distantPast { return waitForEvents(timeoutMilliseconds: 0) }
        if wait.ends == .distantFuture { return waitForEvents(timeoutMilliseconds: -1) }
        let remaining = wait.ends.timeRemaining(at: .now()).wholeNanosecondsClamped
        // Round up so the loop never wakes before the deadline and spins.
        let milliseconds = remaining / 1_000_000 + (remaining % 1_000_000 == 0 ? 0 : 1)
        return waitForEvents(timeoutMilliseconds: Int32(clamping: milliseconds))
    }

    /// Waits for readiness for up to `timeoutMilliseconds` (-1: until woken).
    private func waitForEvents(timeoutMilliseconds timeout: Int32) -> Int {
        do {
            return try Syscalls.epollWait(epollFD, events, timeoutMilliseconds: timeout)
        } catch {
            preconditionFailure("\(name): epoll_wait: \(error)")
        }
    }

    private func dispatch(_ count: Int) {
        for index in 0..<count {
            // SAFETY: epoll_wait filled the first `count` entries of `events`.
            let event = events[index]
            // The wake-up needs no handling: it only ended the wait (see the file's comment).
            if event.data.u64 != Self.wakeData { deliver(event.events, data: event.data.u64) }
        }
    }

    /// Hands one readiness event to its registration's handler, unless it is stale: its
    /// generation no longer matches because the descriptor was closed (and maybe its number
    /// reused by a new registration) earlier in the same `epoll_wait` batch.
    func deliver(_ events: UInt32, data: UInt64) {
        assertInEventLoop()
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: data))
        let generation = UInt32(truncatingIfNeeded: data >> 32)
        guard let registration = registrations[DescriptorKey(fd)], registration.generation == generation else { return }
        registration.handler.readinessChanged(events)
    }

    /// The `epoll_data` a registration of `fd` with `generation` carries (for tests).
    static func eventData(fd: Int32, generation: UInt32) -> UInt64 {
        data(fd, generation)
    }

    private func runDueTimers() {
        let now = Deadline.now()
        while let timer = timers.popDue(at: now) {
            if timer.handle.markFired() { timer.body() }
        }
    }

    private func runTasks() {
        inbox.withLock { inbox in
            inbox.wakeupPending = false
            swap(&inbox.tasks, &remoteTaskScratch)
        }
        for task in remoteTaskScratch { task.run() }
        remoteTaskScratch.removeAllKeepingCapacity()
        // Tasks queued by these tasks run too, for up to `localTaskRounds` rounds; what is still
        // queued then waits for the next iteration (with a zero timeout), so a task that requeues
        // itself cannot starve I/O. The rounds matter for request loops: a completion, the Swift
        // job it resumes and the next request each queue the next step, and polling epoll
        // between each of them cost a system call apiece.
        var rounds = 0
        while !localTasks.isEmpty && rounds < Self.localTaskRounds {
            swap(&localTasks, &localTaskScratch)
            for task in localTaskScratch { task.run() }
            localTaskScratch.removeAllKeepingCapacity()
            rounds += 1
        }
    }

    /// How many rounds of loop-local tasks (tasks queued by tasks) run before the loop polls I/O.
    static let localTaskRounds = 8

    private func flushPending() {
        while !pendingFlushes.isEmpty {
            swap(&pendingFlushes, &flushScratch)
            for flusher in flushScratch { flusher.flushAtIterationEnd() }
            flushScratch.removeAllKeepingCapacity()
        }
    }

    private func closeEverything() {
        isClosing = true
        // Channels and connect attempts fail their users with `.loopShutDown`; they deregister.
        for registration in registrations.values { registration.handler.loopIsShuttingDown() }
        // Timers are cancelled; internal ones fail their work (timers set from here on are too).
        for timer in timers.removeAll() where timer.handle.markCancelled() {
            timer.onShutdown?()
        }
        // Run every task accepted so far (and what those tasks queue), then stop accepting.
        while true {
            runTasks()
            flushPending()
            let done =
                localTasks.isEmpty
                && inbox.withLock { inbox -> Bool in
                    guard inbox.tasks.isEmpty else { return false }
                    inbox.lifecycle = .shutDown
                    return true
                }
            if done { break }
        }

        // Handlers registered by tasks during shutdown were refused (`isClosing`), so this holds.
        precondition(registrations.isEmpty, "\(name): descriptors still registered after shutdown")
        // No task is accepted any more, so no new waker can start; those already counted finish
        // one `write` each before the eventfd closes.
        while inbox.withLock({ $0.wakesInFlight > 0 }) { sched_yield() }
        try? Syscalls.close(wakeFD)
        try? Syscalls.close(yieldFD)
        try? Syscalls.close(epollFD)
    }
}
