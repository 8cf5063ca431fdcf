// The bounded queue between a stream's sink and the task iterating an async sequence over it.
import FoundationEssentials
import WickReactor

/// The chunks an async sequence has not read yet, bounded by its `BufferingPolicy`: the sink
/// adds (on the event loop), the iterating task takes, waiting when there is nothing.
///
/// Every event goes through the lock, also to a task that waits: the continuation only wakes
/// it. The lock is a pthread mutex (`Locked`), so ThreadSanitizer sees each hand-over, which it
/// cannot through a continuation or `Synchronization.Mutex` on Linux.
final class DataStreamBuffer: DataStreamConsumer {
    /// What the iterating task gets next.
    enum Event: Sendable {
        case chunk(Data)
        /// A new final response starts: the parser forgets what it carried.
        case restart
        /// The request finished: nil read the body to its end, else its error.
        case end(WickError?)
    }

    private struct State {
        var gauge: StreamFlowGauge
        var events: [Event] = []
        /// The index of the next event in `events`.
        var next = 0
        /// The iterating task, waiting for an event.
        var waiter: UnsafeContinuation<Void, Never>?
        /// The iterating task was cancelled: it gets `.end(.explicitlyCancelled)`, now and after.
        var isCancelled = false
        /// The sequence was dropped: chunks are no longer kept.
        var isDetached = false

        /// Queues `event`; returns the waiting task's wake-up, to perform outside the lock.
        mutating func push(_ event: Event) -> DataStreamWakeUp? {
            events.append(event)
            return takeWaiter()
        }

        /// The waiting task's wake-up (it no longer waits), to perform outside the lock.
        mutating func takeWaiter() -> DataStreamWakeUp? {
            defer { waiter = nil }
            return waiter.map(DataStreamWakeUp.task)
        }

        /// The next queued event, and whether taking it drained a full buffer.
        mutating func pop() -> (Event, drained: Bool)? {
            if isCancelled { return (.end(.explicitlyCancelled), false) }
            guard next < events.count else { return nil }
            let event = events[next]
            next += 1
            // Compact now and then, so memory follows what is held, not what went through.
            if next == events.count {
                events.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 64, next * 2 >= events.count {
                events.removeFirst(next)
                next = 0
            }
            guard case .chunk(let chunk) = event else { return (event, false) }
            return (event, gauge.removed(chunk.count))
        }
    }

    private let state: Locked<State>
    private weak let request: DataStreamRequest?

    init(policy: DataStreamRequest.BufferingPolicy, request: DataStreamRequest) {
        state = Locked(State(gauge: StreamFlowGauge(policy: policy)))
        self.request = request
    }

    /// The most bytes ever held.
    var peakBytes: Int { state.withLock { $0.gauge.peakBytes } }

    var room: Int { state.withLock { $0.gauge.room } }

    // MARK: - From the request

    func take(_ chunk: Data) -> Bool {
        state.withLock { state in
            if state.isDetached || state.isCancelled { return false }
            state.events.append(.chunk(chunk))
            return state.gauge.added(chunk.count)
        }
    }

    func pendingWakeUp() -> DataStreamWakeUp? {
        state.withLock { state in
            state.next < state.events.count ? state.takeWaiter() : nil
        }
    }

    func restart() -> DataStreamWakeUp? {
        state.withLock { $0.push(.restart) }
    }

    func end(success: Bool, done: @escaping @Sendable () -> Void) {
        // The iterating task flushes its own parser when it reads `.end`.
        done()
    }

    /// The request's outcome is known: the last event.
    func finished(_ error: WickError?) {
        state.withLock { $0.push(.end(error)) }?.perform()
    }

    // MARK: - From the iterating task

    /// The next event, waiting for one. Cancelling the waiting task cancels the request and
    /// returns `.end(.explicitlyCancelled)` at once.
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Event {
        while true {
            let (popped, drained) = state.withLock { state -> (Event?, Bool) in
                guard let (event, drained) = state.pop() else { return (nil, false) }
                return (event, drained)
            }
            if drained { request?.consumerDrained() }
            if let popped { return popped }
            await withTaskCancellationHandler {
                // Unsafe, not checked: resumed exactly once by the one path that takes it out of
                // `waiter` (a wake-up) or right here; the checked kind allocates a canary per wait.
                await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        precondition(state.waiter == nil, "DataStreamBuffer: next() while another task waits")
                        if state.isCancelled || state.next < state.events.count { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// The iterating task was cancelled: the request is cancelled and what is held dropped.
    func cancel() {
        let cancelled = state.withLock { state -> (wasFull: Bool, wakeUp: DataStreamWakeUp?)? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            state.events = []
            state.next = 0
            return (state.gauge.cleared(), state.takeWaiter())
        }
        guard let (wasFull, wakeUp) = cancelled else { return }
        wakeUp?.perform()
        if wasFull { request?.consumerDrained() }
        request?.cancel()
    }

    /// The sequence and its iterator were dropped: nothing is kept any more.
    func detach() {
        let wasFull = state.withLock { state -> Bool in
            state.isDetached = true
            state.events = []
            state.next = 0
            return state.gauge.cleared()
        }
        if wasFull { request?.consumerDrained() }
    }
}
