// What an event loop's task queues hold: closures, Swift jobs, and objects that run themselves.

/// An object that does its work on an event loop when queued there with
/// `EventLoop.execute(_:)`: queuing it allocates nothing (a closure would need a context), which
/// matters on the per-request path, where the same objects are queued on every request.
public protocol LoopRunnable: AnyObject, Sendable {
    /// Does the work, on the loop's thread.
    func runOnLoop()
}

/// One unit of work on a loop's queues.
///
/// `@unchecked Sendable`: a `closure` in the inbox (`EventLoop.execute`) is `@Sendable` by that
/// method's signature; one queued locally (`executeLocal`) is queued and run on the loop's own
/// thread only, never shared. A job is run once, by the loop that dequeues it.
enum LoopWork: @unchecked Sendable {
    case closure(() -> Void)
    case runnable(any LoopRunnable)
    /// A Swift job, run with the loop as its task executor.
    case job(UnownedJob, UnownedTaskExecutor)

    /// Runs the work.
    func run() {
        switch self {
        case .closure(let body): body()
        case .runnable(let runnable): runnable.runOnLoop()
        case .job(let job, let executor): job.runSynchronously(on: executor)
        }
    }
}
