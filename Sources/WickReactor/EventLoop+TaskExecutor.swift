// Swift tasks on an event loop: EventLoop as a TaskExecutor, for code that talks to the loop.

extension EventLoop: TaskExecutor {
    /// Runs `job` on the loop's thread, after the tasks already queued. A task that prefers this
    /// executor (`withTaskExecutorPreference(loop)`) and awaits work the loop completes resumes
    /// on the loop without waking another thread: for a request loop this removes both thread
    /// hops of each request. Jobs that do slow work delay every connection of the loop, so
    /// prefer it only for code that mostly awaits.
    ///
    /// A job enqueued after the loop shut down runs on the global concurrent executor instead,
    /// so that no task waits forever.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !enqueueWork(.job(job, asUnownedTaskExecutor())) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }
}
