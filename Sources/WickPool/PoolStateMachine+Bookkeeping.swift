// What the pool remembers per connection, per origin and per waiting request.
public import WickCore

extension PoolStateMachine {
    /// One connection the pool counts, from `createConnection` until the runner reports it gone.
    @usableFromInline struct Connection: Sendable {
        @usableFromInline enum Phase: Sendable {
            /// The attempt is under way.
            case connecting
            /// Parked in its origin's idle stack until `until`, when it retires for
            /// `retireReason`; its retirement timer (`retirementTimer`) is due by then.
            case idle(until: Deadline, retireReason: PoolCloseReason)
            /// Carrying this request.
            case leased(PoolRequestID)
            /// A multiplexed connection carrying this many requests (at least one), each on a
            /// stream of its own; it takes more while they are fewer than `streamCapacity`.
            /// Zero only inside `streamReleased`, between its last stream's end and its next phase.
            case multiplexing(streams: Int)
            /// A multiplexed connection the server is closing (GOAWAY): it finishes this many
            /// streams (at least one) and takes no more; it counts as closing.
            case draining(streams: Int)
            /// The pool asked the runner to close it.
            case closing
        }

        @usableFromInline let id: PoolConnectionID
        /// Its origin's slot in `PoolStateMachine.pools`.
        @usableFromInline let slot: Int
        @usableFromInline var phase: Phase = .connecting
        @usableFromInline var establishedAt = Deadline.distantPast
        /// Requests leased on it so far.
        @usableFromInline var uses = 0
        /// How many requests it carries at once: 1 for HTTP/1.1; for a multiplexed (HTTP/2)
        /// connection, the streams its server allows.
        @usableFromInline var streamCapacity = 1
        /// Established as multiplexed: its requests are streams (rules 13–16).
        @usableFromInline var isMultiplexed = false
        /// What the server's latest `Keep-Alive: max=` left, less the leases since.
        @usableFromInline var serverRemainingRequests: Int?
        /// The server's latest `Keep-Alive: timeout=`, if the last response carried one.
        @usableFromInline var serverKeepAliveTimeout: Duration?
        /// Its armed retirement timer (`idleConnection`), if any. It stays armed through
        /// leases, and may be due before the idle deadline of the connection's latest park; it
        /// then arms again for the rest (rule 4). Cancelled when the connection closes.
        @usableFromInline var retirementTimer: (id: PoolTimerID, due: Deadline)?

        @inlinable init(id: PoolConnectionID, slot: Int) {
            self.id = id
            self.slot = slot
        }
    }

    /// A request in an origin's wait queue.
    @usableFromInline struct Waiter: Sendable {
        @usableFromInline let request: PoolRequestID
        /// The pool-wide arrival number, which orders waiters of the two queues.
        @usableFromInline let arrival: UInt64
        @usableFromInline let arrivedAt: Deadline
        /// Its pool-wait timer's id and deadline; only those, so that a waiter is plain data.
        @usableFromInline let timerID: PoolTimerID
        @usableFromInline let deadline: Deadline

        @inlinable init(request: PoolRequestID, arrival: UInt64, arrivedAt: Deadline, timer: Timer) {
            self.request = request
            self.arrival = arrival
            self.arrivedAt = arrivedAt
            self.timerID = timer.id
            self.deadline = timer.deadline
        }

        /// Its pool-wait timer.
        @inlinable var timer: Timer { Timer(id: timerID, purpose: .poolWait(request), deadline: deadline) }
    }

    /// Everything the pool holds for one origin.
    @usableFromInline struct OriginPool: Sendable {
        @usableFromInline let origin: Origin
        @usableFromInline let slot: Int
        /// Idle connections, most recently parked last: leases take from the end (LIFO), so the
        /// warmest connection is reused and the coldest ones age out through their idle timers.
        @usableFromInline var idle: [PoolConnectionID] = []
        @usableFromInline var connecting = 0
        /// Connections carrying requests: leased HTTP/1.1 ones and multiplexing ones.
        @usableFromInline var leased = 0
        /// The multiplexing connections, oldest first: a request takes a stream on the first
        /// with room (rule 13).
        @usableFromInline var multiplexing: [PoolConnectionID] = []
        /// The stream capacity of the origin's latest multiplexed connection: an attempt under
        /// way is expected to serve that many waiters (rule 13). nil until one was established.
        @usableFromInline var expectedStreamCapacity: Int?
        /// A connection of the origin was established, so `expectedStreamCapacity` is known
        /// rather than hinted (rule 13).
        @usableFromInline var knowsProtocol = false
        @usableFromInline var closing = 0
        /// Requests that any connection may serve.
        @usableFromInline var waiters = WaitQueue()
        /// Replays, which only a connection that never carried a request may serve.
        @usableFromInline var freshWaiters = WaitQueue()
        @usableFromInline var consecutiveFailures = 0
        /// The last failed attempt's error, until a connection is established.
        @inlinable var lastFailure: Failure? {
            get { lastFailureBox?.value }
            set { lastFailureBox = newValue.map(ImmutableBox.init) }
        }
        /// The armed backoff timer, if any.
        @inlinable var backoffTimer: Timer? {
            get { backoffTimerBox?.value }
            set { backoffTimerBox = newValue.map(ImmutableBox.init) }
        }
        // Boxed: both are rarely set, and inline they took 168 of the 456 bytes that every
        // pool event moved out of its slot and back (`takePool`, `store`), several per request.
        @usableFromInline var lastFailureBox: ImmutableBox<Failure>?
        @usableFromInline var backoffTimerBox: ImmutableBox<Timer>?

        @inlinable init(origin: Origin, slot: Int) {
            self.origin = origin
            self.slot = slot
        }

        @inlinable var live: Int { idle.count + connecting + leased + closing }
        @inlinable var waiting: Int { waiters.count + freshWaiters.count }
        @inlinable var isEmpty: Bool { live == 0 && waiting == 0 && backoffTimerBox == nil }
    }

    /// A FIFO of waiters with O(1) removal from the middle: removal leaves a stale entry in
    /// `order` that popping skips, and the array is compacted once most of it is stale.
    @usableFromInline struct WaitQueue: Sendable {
        @inlinable init() {}

        @usableFromInline var order: [(request: PoolRequestID, arrival: UInt64)] = []
        @usableFromInline var head = 0
        @usableFromInline var entries: [PoolRequestID: Waiter] = [:]

        @inlinable var count: Int { entries.count }

        @inlinable mutating func append(_ waiter: Waiter) {
            entries[waiter.request] = waiter
            order.append((waiter.request, waiter.arrival))
        }

        /// The oldest waiter, skipping stale entries on the way.
        @inlinable mutating func first() -> Waiter? {
            while head < order.count {
                let (request, arrival) = order[head]
                if let waiter = entries[request], waiter.arrival == arrival { return waiter }
                head += 1
            }
            // Emptied only when it holds stale entries: most queues are asked while empty.
            if !order.isEmpty { order.removeAll(keepingCapacity: true) }
            head = 0
            return nil
        }

        @inlinable mutating func popFirst() -> Waiter? {
            guard let waiter = first() else { return nil }
            entries[waiter.request] = nil
            head += 1
            compactIfMostlyStale()
            return waiter
        }

        @inlinable mutating func remove(_ request: PoolRequestID) -> Waiter? {
            guard let waiter = entries.removeValue(forKey: request) else { return nil }
            compactIfMostlyStale()
            return waiter
        }

        /// Every waiter, oldest first, leaving the queue empty.
        @inlinable mutating func removeAll() -> [Waiter] {
            let all = order[head...].compactMap { entry in
                entries[entry.request].flatMap { $0.arrival == entry.arrival ? $0 : nil }
            }
            self = WaitQueue()
            return all
        }

        @inlinable mutating func compactIfMostlyStale() {
            guard order.count - head > 2 * entries.count + 16 || head > 64 && head * 2 > order.count else { return }
            order = order[head...].filter { entry in entries[entry.request]?.arrival == entry.arrival }
            head = 0
        }
    }
}
