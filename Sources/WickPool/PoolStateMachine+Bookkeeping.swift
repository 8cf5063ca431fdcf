// What the pool remembers per connection, per origin and per waiting request.
import WickCore

extension PoolStateMachine {
    /// One connection the pool counts, from `createConnection` until the runner reports it gone.
    struct Connection {
        enum Phase {
            /// The attempt is under way.
            case connecting
            /// Parked in its origin's idle stack with its retirement timer.
            case idle(Timer, retireReason: PoolCloseReason)
            /// Carrying this request.
            case leased(PoolRequestID)
            /// The pool asked the runner to close it.
            case closing
        }

        let origin: Origin
        var phase: Phase = .connecting
        var establishedAt = Deadline.distantPast
        /// Requests leased on it so far.
        var uses = 0
        /// What the server's latest `Keep-Alive: max=` left, less the leases since.
        var serverRemainingRequests: Int?
        /// The server's latest `Keep-Alive: timeout=`, if the last response carried one.
        var serverKeepAliveTimeout: Duration?

        init(origin: Origin) {
            self.origin = origin
        }
    }

    /// A request in an origin's wait queue.
    struct Waiter {
        let request: PoolRequestID
        /// The pool-wide arrival number, which orders waiters of the two queues.
        let arrival: UInt64
        let arrivedAt: Deadline
        let timer: Timer
    }

    /// Everything the pool holds for one origin.
    struct OriginPool {
        /// Idle connections, most recently parked last: leases take from the end (LIFO), so the
        /// warmest connection is reused and the coldest ones age out through their idle timers.
        var idle: [PoolConnectionID] = []
        var connecting = 0
        var leased = 0
        var closing = 0
        /// Requests that any connection may serve.
        var waiters = WaitQueue()
        /// Replays, which only a connection that never carried a request may serve.
        var freshWaiters = WaitQueue()
        var consecutiveFailures = 0
        var lastFailure: Failure?
        var backoffTimer: Timer?
        /// Counters only; the gauges are computed for a snapshot.
        var counts = PoolStatistics<Origin>.Counts()

        var live: Int { idle.count + connecting + leased + closing }
        var waiting: Int { waiters.count + freshWaiters.count }
        var isEmpty: Bool { live == 0 && waiting == 0 && backoffTimer == nil }
    }

    /// A FIFO of waiters with O(1) removal from the middle: removal leaves a stale entry in
    /// `order` that popping skips, and the array is compacted once most of it is stale.
    struct WaitQueue {
        private var order: [(request: PoolRequestID, arrival: UInt64)] = []
        private var head = 0
        private var entries: [PoolRequestID: Waiter] = [:]

        var count: Int { entries.count }

        mutating func append(_ waiter: Waiter) {
            entries[waiter.request] = waiter
            order.append((waiter.request, waiter.arrival))
        }

        /// The oldest waiter, skipping stale entries on the way.
        mutating func first() -> Waiter? {
            while head < order.count {
                let (request, arrival) = order[head]
                if let waiter = entries[request], waiter.arrival == arrival { return waiter }
                head += 1
            }
            order.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }

        mutating func popFirst() -> Waiter? {
            guard let waiter = first() else { return nil }
            entries[waiter.request] = nil
            head += 1
            compactIfMostlyStale()
            return waiter
        }

        mutating func remove(_ request: PoolRequestID) -> Waiter? {
            guard let waiter = entries.removeValue(forKey: request) else { return nil }
            compactIfMostlyStale()
            return waiter
        }

        /// Every waiter, oldest first, leaving the queue empty.
        mutating func removeAll() -> [Waiter] {
            let all = order[head...].compactMap { entry in
                entries[entry.request].flatMap { $0.arrival == entry.arrival ? $0 : nil }
            }
            self = WaitQueue()
            return all
        }

        private mutating func compactIfMostlyStale() {
            guard order.count - head > 2 * entries.count + 16 || head > 64 && head * 2 > order.count else { return }
            order = order[head...].filter { entry in entries[entry.request]?.arrival == entry.arrival }
            head = 0
        }
    }
}
