// The opt-in that makes a group's loops Swift's global executor, so tasks and I/O share threads.
//
// Why: a task on Swift's global (Dispatch) pool that awaits a request hands it to a loop thread
// (an eventfd write and a wake-up) and is resumed on a pool thread (a futex wake-up): two thread
// hops, about a fifth of a small keep-alive request's time on loopback. With the loops as the
// global executor, ordinary tasks run on the loop threads, so a request started by a task is
// written by the same thread and its completion resumes the task there: no hop, as with
// `withTaskExecutorPreference(loop)`, but for every task in the process.
//
// The trade-off, which is why it is an opt-in: every task of the process then shares the loops'
// threads with the I/O. A task that computes for a long time delays every connection of its
// loop, and the process's concurrency is the number of loops rather than the number of cores.
// Daemons whose tasks mostly await I/O gain; programs that crunch numbers in tasks do not.
//
// How: the Swift runtime calls `swift_task_enqueueGlobal_hook`, when set, for every job bound for
// the global executor (SwiftNIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
// uses the same hook). The hook's type is the runtime's, not a Swift API: a thin function taking
// the job and the runtime's own enqueue. Jobs go to the loop the enqueuing thread runs (a task
// stays on its loop), else round-robin; a job for a loop that has shut down goes to the runtime's
// own executor, so no task is ever lost.
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The runtime's hook type: the job and the runtime's own global enqueue.
private typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

/// Claimed by the first install, so only one group ever installs.
private let isClaimed = Atomic<Bool>(false)
/// The group whose loops run global jobs. Written once, before `isPublished` is set (release);
/// read by the hook only after it saw `isPublished` (acquire), so the read never races the write.
nonisolated(unsafe) private var hookGroup: EventLoopGroup?
private let isPublished = Atomic<Bool>(false)

extension EventLoopGroup {
    /// Makes this group's loops Swift's global executor for the rest of the process: tasks that
    /// prefer no executor run on the loops (see this file's header for the trade-off). Call it
    /// once, early (before tasks are running), from the main thread, with a group that lives as
    /// long as the process: jobs for a loop that has shut down fall back to the runtime's own
    /// global executor.
    /// - Returns: false when the process already has a global executor hook (this group's or
    ///   another library's, such as SwiftNIO's) or the runtime has no such hook.
    public func unsafeInstallAsGlobalExecutor() -> Bool {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        // SAFETY: the symbol is the runtime's hook variable, a pointer-sized function pointer
        // that is nil until someone installs a hook; a thin Swift function has the runtime's
        // hook signature (SwiftNIO relies on the same layout).
        let slot = symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        guard slot.pointee == nil, isClaimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return false }
        hookGroup = self
        isPublished.store(true, ordering: .releasing)
        let hook: EnqueueGlobalHook = { job, original in
            guard isPublished.load(ordering: .acquiring), let group = hookGroup,
                group.loopForGlobalJob().enqueueGlobalJob(job)
            else { return original(job) }
        }
        // SAFETY: `hook` is @convention(thin) and captures nothing (it reads globals only), so it is
        // one code pointer, the size and calling convention of the runtime's hook; the slot was nil and
        // isClaimed makes this the only store to it, after hookGroup is published.
        slot.pointee = unsafeBitCast(hook, to: UnsafeRawPointer.self)
        return true
    }

    /// The loop a global job goes to: the current thread's, so a task stays where it runs, else
    /// the next round-robin.
    func loopForGlobalJob() -> EventLoop {
        for loop in loops where loop.inEventLoop { return loop }
        return next()
    }
}

extension EventLoop {
    /// Queues a global job (see `EventLoopGroup.unsafeInstallAsGlobalExecutor`); false once the
    /// loop has shut down.
    fileprivate func enqueueGlobalJob(_ job: UnownedJob) -> Bool {
        enqueueWork(.job(job, asUnownedTaskExecutor()))
    }
}
