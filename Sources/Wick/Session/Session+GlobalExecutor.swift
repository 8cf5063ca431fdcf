// The opt-in that runs the process's tasks on this session's event loops.
import WickReactor
import WickTransport

extension Session {
    /// Makes this session's event loops Swift's global executor for the rest of the process, so
    /// an ordinary task that awaits a request runs on the loop that performs it: no thread hop
    /// to the loop and none back, the cost of a task that prefers the loop
    /// (`withTaskExecutorPreference(session.taskExecutor)`), for every task.
    ///
    /// The trade-off: every task of the process then shares the loops' threads
    /// (`Configuration.eventLoopCount`) with the session's connections, so a task that computes
    /// for long delays every connection of its loop, and tasks run on no more threads than
    /// there are loops. For daemons whose tasks mostly await I/O. Call it once, early, from the
    /// main thread, on a session that lives as long as the process (such as `Session.default`)
    /// and is never shut down: after a shutdown, tasks fall back to Swift's own executor.
    /// - Returns: false when the process already has a global executor hook (another session's,
    ///   or another library's such as SwiftNIO's), or the Swift runtime offers none.
    public func unsafeInstallLoopsAsGlobalExecutor() -> Bool {
        transport.group.unsafeInstallAsGlobalExecutor()
    }
}
