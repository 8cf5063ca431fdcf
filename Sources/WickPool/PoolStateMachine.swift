// The connection pool's decisions as a value-type state machine: events in, actions out, no I/O.
//
// Rules
//
// 1. Per origin. Idle connections, the wait queue, the limits and the backoff are all kept per
//    origin key, so nothing that happens to one origin delays another. The key must hold every
//    setting that affects security (see `PoolStateMachine`).
// 2. Every connection holds its place. Connecting, idle, leased and closing connections all count
//    towards `maximumConnectionsPerOrigin`, because each holds a socket or an attempt.
// 3. A request takes the most recently parked idle connection (LIFO: the warmest one, so the
//    coldest age out). Without one it waits in its origin's FIFO queue until
//    min(its own deadline, now + `poolWaitTimeout`); if that has already passed it fails at once.
// 4. A connection that is established, or comes back reusable, goes to the oldest waiter. With no
//    waiter it parks idle until the earliest of its idle timeout, the server's
//    `Keep-Alive: timeout=` less `keepAliveTimeoutMargin`, and the end of its lifetime; beyond
//    `maximumIdleConnectionsPerOrigin` it is closed instead. Each connection has at most one
//    retirement timer, due no later than that deadline while it is idle. A lease leaves the
//    timer armed, and the next park keeps it when it is due no later than the new deadline
//    (else replaces it): a connection busy with one request after another schedules and
//    cancels no timer per request. A timer that fires while its connection is idle before the
//    connection's deadline arms again for the rest; one that fires while it is busy lapses,
//    and the next park arms a new one. Closing a connection cancels its timer.
// 5. The pool starts a connection while an origin's waiters outnumber its attempts under way, it
//    is below its limit, and it is not backing off. A waiter that leaves (cancelled, timed out)
//    does not stop the attempt it caused: that connection serves the next waiter or parks.
// 6. A connection that comes back is retired (closed) when the response forbade reuse, or it has
//    carried `maximumRequestsPerConnection` requests, or the server's `Keep-Alive: max=` is used
//    up, or it has outlived `maximumConnectionLifetime`, or the server's keep-alive timeout is
//    within the margin.
// 7. A failed attempt the runner calls not retryable (trust rejected, name not found) fails every
//    waiter of the origin with `connectionFailed`: every attempt would fail the same way. A
//    retryable failure (refused, reset, timed out) keeps the waiters and, while there are any,
//    pauses the origin for `initialBackoff` doubling up to `maximumBackoff`; while an origin is
//    failing it has one attempt in flight at a time. Waiters then fail at their own deadlines,
//    with the last connection error as the cause. Why: a refused connection during a server
//    restart or a load-balancer shuffle heals in moments, and each request's deadline already
//    bounds how long it may wait; failing every queued request on the first refusal would turn
//    a blip into an outage, and retrying without pause would hammer a struggling server.
//    (`retriesFailedAttempts` off treats every failure as not retryable, as curl does.) An
//    established connection resets the origin's failures and ends its backoff.
// 8. A replay (`isReplay: true`) may only use a connection that never carried a request. If the
//    origin is at its limit while a replay waits, the oldest idle connection is closed to make
//    room.
// 9. Closing: after `closeConnection(C)` the pool counts C as closing until the runner reports
//    `connectionClosed(C)` (by `.local`, or by `.peer`/`.error` if they got there first); other
//    reports about C that race the close (established, attempt failed, became idle) are
//    ignored. Every connection that was established or closed ends with exactly one
//    `connectionClosed`. A server close of an idle connection evicts it.
// 10. Timers: each scheduling gets a new id; a fire of a cancelled or unknown id lost a race with
//    its cancellation and is ignored.
// 11. Shutdown: new requests fail with `.shutdown`; waiters fail; idle and connecting connections
//    close; leased ones finish their request (`drain`) or close now (`cancel`). When the last
//    connection is reported closed, `shutdownComplete` is emitted once.
// 12. Anything else, such as a report about a connection in a phase where it cannot happen, is a
//    bug in the runner: it traps with a message naming the pool's state, the connection's phase
//    and the event.
// 13. Multiplexed connections (HTTP/2). A connection established with a stream capacity carries
//    up to that many requests at once, one per stream. A request takes a stream on the oldest
//    multiplexing connection of its origin with room before it takes an idle connection (the
//    busy one is warm; the idle ones age out). An established multiplexed connection serves
//    waiters in FIFO order until it is full, and parks idle (rule 4) when nobody waits. The
//    origin remembers the capacity, so an attempt under way counts for that many waiters in
//    rule 5: a new connection opens only when every stream of the origin's connections is
//    taken. Before its first connection is established, a request's `multiplexingHint` stands
//    in for the capacity, so a burst of requests to an origin expected to speak HTTP/2 opens
//    one connection, not one each; an HTTP/1.1 connection established there drops the hint. `maximumRequestsPerConnection` and `maximumConnectionLifetime` stop new streams;
//    the connection retires (rule 6) when its last stream ends. A replay (rule 8) takes only a
//    multiplexed connection that never carried a request.
// 14. `streamReleased` frees one stream: the oldest waiter takes it at once. The last stream's
//    end makes the connection idle (rules 4 and 6), or closes it during shutdown.
// 15. `streamCapacityChanged` (the server's SETTINGS): a larger capacity serves waiters at once;
//    a smaller one takes effect as streams end.
// 16. `connectionGoingAway` (GOAWAY): the connection takes no more streams and counts as
//    closing; an idle one closes now, a busy one once its last stream ends. Waiters get a new
//    connection by rule 5.
public import WickCore

/// The connection pool's decisions for HTTP/1.1 and multiplexed HTTP/2 connections, as a value
/// type that performs no I/O.
///
/// The runner (in `Wick`'s transport) owns the sockets and the clock. It calls one input per
/// event, always with the current time, and performs the returned actions in order, reporting
/// their outcomes back as further inputs. The rules are at the top of this file.
///
/// ```swift
/// for action in pool.requestArrived(request, origin: origin, deadline: deadline, at: .now()) {
///     switch action {
///     case .createConnection(let id, let origin): connector.open(id, to: origin)   // → established / attemptFailed
///     case .leaseConnection(let id, let request, let isReused): driver(id).run(request, isReused)
///     case .enqueueRequest: break                                                 // metrics only
///     case .failRequest(let request, let failure): complete(request, with: failure)
///     case .closeConnection(let id, _): driver(id).close()                      // → connectionClosed(.local)
///     case .scheduleTimer(let timer): loop.schedule(timer)                        // → timerFired
///     case .cancelTimer(let timer): loop.cancel(timer)
///     case .shutdownComplete: shutdownPromise.succeed()
///     }
/// }
/// ```
///
/// Every input returns an array, so one event costs at most one small allocation, and the
/// machine is a value: the runner keeps it behind one lock and performs the actions after
/// releasing it. The machine is `@inlinable` so that the runner's module specializes it for its
/// own `Origin` and `Failure`: unspecialized, a lease-and-return cycle spent most of its time
/// looking up generic metadata and was about four times slower. The origin key is hashed once
/// per request (connections and waiters refer to their origin by slot), never per connection
/// event.
///
/// **The origin key.** `Origin` identifies which connections are interchangeable. A connection is
/// reused only for a request with an equal key, so the key must hold the scheme, host and port
/// *and every setting that affects security*: the whole TLS configuration (trust roots, client
/// certificate, protocol versions, SNI), the server-trust evaluator, the proxy and its
/// credentials. Leaving one out lets a request ride a connection that was authenticated under
/// different rules: curl's CVE-2021-22924, CVE-2022-27782 and CVE-2023-27538 were all connection
/// reuse across such a difference.
///
/// `Failure` is the runner's connection error, carried back in `RequestFailure` unchanged.
public struct PoolStateMachine<Origin: Hashable & Sendable, Failure: Error & Sendable>: Sendable {
    // The bookkeeping below is `@usableFromInline` rather than private only so that the machine
    // can be inlined into the runner; nothing outside this file touches it.
    @usableFromInline enum State: Sendable, CustomStringConvertible {
        case running
        case shuttingDown(PoolShutdownMode)
        case shutDown

        @usableFromInline var description: String {
            switch self {
            case .running: "running"
            case .shuttingDown(let mode): "shuttingDown(\(mode))"
            case .shutDown: "shutDown"
            }
        }
    }

    /// The limits and timeouts this pool applies.
    public let settings: PoolSettings

    @usableFromInline var state = State.running
    /// Each origin's slot in `pools`: the key is hashed once per request, and connections and
    /// waiters refer to their origin by slot.
    @usableFromInline var slots: [Origin: Int] = [:]
    /// The origin `takeOrMakePool` found last (nil once its slot is freed), and its slot: a
    /// client mostly talks to one origin at a time, and comparing is cheaper than hashing (about
    /// 700 instructions per request).
    @usableFromInline var lastOrigin: Origin?
    @usableFromInline var lastSlot = 0
    /// Per-origin state by slot; `nil` for a free slot or one taken out while it is changed.
    @usableFromInline var pools: [OriginPool?] = []
    /// Each slot's counters, beside its pool rather than in it: every event moves its origin's
    /// `OriginPool` out of `pools` and back (`takePool`, `store`), and the counters were a third
    /// of the bytes moved.
    @usableFromInline var originCounts: [PoolStatistics<Origin>.Counts] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var connections: [PoolConnectionID: Connection] = [:]
    /// The slot of the origin whose queue each waiting request is in.
    @usableFromInline var waitingRequests: [PoolRequestID: Int] = [:]
    /// Every armed timer, by id.
    @usableFromInline var timers: [PoolTimerID: Timer.Purpose] = [:]
    /// Counters of origins that emptied and were dropped.
    @usableFromInline var emptiedOriginCounts = PoolStatistics<Origin>.Counts()
    @usableFromInline var lastConnectionID: UInt64 = 0
    @usableFromInline var lastTimerID: UInt64 = 0
    @usableFromInline var lastArrival: UInt64 = 0
    /// An emptied action list kept for the next event (`recycle(_:)`).
    @usableFromInline var spareActions: [Action] = []

    /// A running pool with no connections. Traps if a setting makes no sense (see `PoolSettings`).
    @inlinable public init(settings: PoolSettings = PoolSettings()) {
        settings.validate()
        self.settings = settings
    }

    /// The gauges and counters now, per origin and in total.
    @inlinable public var statistics: PoolStatistics<Origin> {
        var total = emptiedOriginCounts
        var perOrigin: [Origin: PoolStatistics<Origin>.Counts] = [:]
        for case let pool? in pools {
            var counts = originCounts[pool.slot]
            counts.idle = pool.idle.count
            counts.leased = pool.leased
            counts.connecting = pool.connecting
            counts.closing = pool.closing
            counts.waiting = pool.waiting
            perOrigin[pool.origin] = counts
            total += counts
        }
        return PoolStatistics(origins: perOrigin, total: total)
    }

    // MARK: - Inputs

    /// A request wants a connection to `origin`.
    ///
    /// Leases an idle connection at once, or enqueues the request with a pool-wait timer (and
    /// starts a connection if rule 5 says so), or fails it: `.shutdown` after shutdown began,
    /// `.poolWaitTimeout` if its deadline has already passed.
    /// - Parameters:
    ///   - deadline: the latest time the request may wait; the pool also applies
    ///     `poolWaitTimeout` from now.
    ///   - isReplay: the request is being sent again after `ReplayPolicy` allowed it, so it needs
    ///     a connection that never carried a request.
    ///   - multiplexingHint: the stream capacity the runner expects a new connection to the
    ///     origin to have (it will offer HTTP/2), or nil; used until one is established (rule 13).
    @inlinable public mutating func requestArrived(
        _ request: PoolRequestID,
        origin: Origin,
        deadline: Deadline = .distantFuture,
        isReplay: Bool = false,
        multiplexingHint: Int? = nil,
        at now: Deadline
    ) -> [Action] {
        guard case .running = state else { return [.failRequest(request, .shutdown)] }
        if waitingRequests[request] != nil { trap("requestArrived(\(request))", "the request is already waiting") }
        if let multiplexingHint, multiplexingHint < 1 {
            trap("requestArrived(\(request))", "a multiplexing hint of \(multiplexingHint)")
        }
        var actions = actionBuffer()
        var pool = takeOrMakePool(for: origin)
        if !pool.knowsProtocol, let multiplexingHint { pool.expectedStreamCapacity = multiplexingHint }
        if isReplay { originCounts[pool.slot].replayed += 1 }
        if !isReplay, let id = multiplexingConnectionWithRoom(in: pool, now: now) {
            lease(id, to: request, arrivedAt: now, pool: &pool, now: now, actions: &actions)
        } else if let index = idleIndex(in: pool, freshOnly: isReplay) {
            let id = pool.idle.remove(at: index)
            unpark(id)
            lease(id, to: request, arrivedAt: now, pool: &pool, now: now, actions: &actions)
        } else {
            let waitDeadline = deadline.earliest(now + settings.poolWaitTimeout)
            if waitDeadline.hasPassed(at: now) {
                actions.append(.failRequest(request, .poolWaitTimeout(lastConnectionFailure: pool.lastFailure)))
            } else {
                actions.append(.enqueueRequest(request))
                lastArrival += 1
                let timer = schedule(.poolWait(request), at: waitDeadline, actions: &actions)
                let waiter = Waiter(request: request, arrival: lastArrival, arrivedAt: now, timer: timer)
                if isReplay { pool.freshWaiters.append(waiter) } else { pool.waiters.append(waiter) }
                waitingRequests[request] = pool.slot
                startConnectionsIfNeeded(pool: &pool, actions: &actions)
            }
        }
        store(consume pool)
        return actions
    }

    /// The runner's caller gave up on a request. A waiting request leaves its queue and fails
    /// with `.cancelled`; a request that holds a connection, or that the pool has already
    /// completed, is not the pool's business any more, so nothing happens.
    @inlinable public mutating func requestCancelled(_ request: PoolRequestID, at now: Deadline) -> [Action] {
        guard let slot = waitingRequests.removeValue(forKey: request) else { return [] }
        var actions = actionBuffer()
        var pool = takePool(slot, event: "requestCancelled(\(request))")
        guard let waiter = pool.waiters.remove(request) ?? pool.freshWaiters.remove(request) else {
            trap("requestCancelled(\(request))", "the request is indexed as waiting but is in no queue")
        }
        cancel(waiter.timer, actions: &actions)
        actions.append(.failRequest(request, .cancelled))
        store(consume pool)
        return actions
    }

    /// A connection the pool asked for is ready for requests (connected, TLS done, trust
    /// evaluated). It goes to the oldest waiter or parks (rule 4); the origin's failures reset.
    /// - Parameter streamCapacity: for a multiplexed (HTTP/2) connection, how many requests it
    ///   may carry at once (the server's SETTINGS_MAX_CONCURRENT_STREAMS, at least 1): it then
    ///   serves that many waiters (rule 13). nil for a connection that carries one at a time.
    @inlinable public mutating func connectionEstablished(
        _ id: PoolConnectionID, streamCapacity: Int? = nil, at now: Deadline
    ) -> [Action] {
        let event = { "connectionEstablished(\(id))" }
        if let streamCapacity, streamCapacity < 1 { trap(event(), "a stream capacity of \(streamCapacity)") }
        var connection = lookUp(id, event: event())
        switch connection.phase {
        case .connecting: break
        case .closing: return []
        case .idle, .leased, .multiplexing, .draining:
            trap(event(), "the connection is \(connection.phase), not connecting")
        }
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        pool.connecting -= 1
        originCounts[pool.slot].created += 1
        pool.knowsProtocol = true
        pool.expectedStreamCapacity = streamCapacity
        if let streamCapacity {
            connection.isMultiplexed = true
            connection.streamCapacity = streamCapacity
        }
        pool.consecutiveFailures = 0
        pool.lastFailure = nil
        if let backoff = pool.backoffTimer {
            cancel(backoff, actions: &actions)
            pool.backoffTimer = nil
        }
        connection.establishedAt = now
        connections[id] = connection
        makeAvailable(id, pool: &pool, now: now, actions: &actions)
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(pool)
        return actions
    }

    /// A connection attempt failed; the connection no longer counts (rule 7).
    /// - Parameters:
    ///   - error: why; handed back unchanged to the waiters it fails, or to those that time out
    ///     before an attempt succeeds.
    ///   - isRetryable: whether another attempt could succeed (refused, reset, timed out: true;
    ///     trust rejected, host name unknown: false).
    @inlinable public mutating func connectionAttemptFailed(
        _ id: PoolConnectionID,
        error: Failure,
        isRetryable: Bool,
        at now: Deadline
    ) -> [Action] {
        let event = { "connectionAttemptFailed(\(id))" }
        let connection = lookUp(id, event: event())
        switch connection.phase {
        case .connecting: break
        case .closing: return []
        case .idle, .leased, .multiplexing, .draining:
            trap(event(), "the connection is \(connection.phase), not connecting")
        }
        connections[id] = nil
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        pool.connecting -= 1
        originCounts[pool.slot].failedAttempts += 1
        pool.consecutiveFailures += 1
        pool.lastFailure = error
        if !isRetryable || !settings.retriesFailedAttempts {
            for waiter in allWaiters(of: &pool) {
                cancel(waiter.timer, actions: &actions)
                actions.append(.failRequest(waiter.request, .connectionFailed(error)))
            }
        } else if pool.waiting > 0 && pool.backoffTimer == nil {
            let delay = settings.backoff(afterConsecutiveFailures: pool.consecutiveFailures)
            pool.backoffTimer = schedule(.backoff(pool.origin), at: now + delay, actions: &actions)
        }
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(pool)
        return actions
    }

    /// A leased connection finished its request and could carry another.
    ///
    /// It is retired if rule 6 says so (or the pool is shutting down); otherwise it goes to the
    /// oldest waiter or parks (rule 4).
    /// - Parameters:
    ///   - keepAlive: the response's `Keep-Alive` hints, if it had the header.
    ///   - isReusable: whether the exchange left the connection fit for another request: the
    ///     response allowed it (no `Connection: close`) and was read to its end.
    @inlinable public mutating func connectionBecameIdle(
        _ id: PoolConnectionID,
        keepAlive: KeepAliveHint? = nil,
        isReusable: Bool,
        at now: Deadline
    ) -> [Action] {
        let event = { "connectionBecameIdle(\(id))" }
        var connection = lookUp(id, event: event())
        switch connection.phase {
        case .leased: break
        case .closing: return []
        case .connecting, .idle, .multiplexing, .draining:
            trap(event(), "the connection is \(connection.phase), not leased (a stream ends with streamReleased)")
        }
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        pool.leased -= 1
        connection.serverKeepAliveTimeout = keepAlive?.timeout
        if let remaining = keepAlive?.maximumRequests { connection.serverRemainingRequests = remaining }
        connections[id] = connection
        if case .shuttingDown = state {
            close(id, .shutdown, pool: &pool, actions: &actions)
        } else if let reason = retirement(of: connection, isReusable: isReusable, now: now) {
            close(id, reason, pool: &pool, actions: &actions)
        } else {
            makeAvailable(id, pool: &pool, now: now, actions: &actions)
        }
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(consume pool)
        return actions
    }

    /// A connection is gone: the server closed it, an error ended it, or the close the pool asked
    /// for is done (`.local`, allowed only for a connection the pool is closing). Report it once
    /// per connection. An idle connection closed under the pool is evicted. The request of a
    /// leased one is the runner's to fail or replay (`ReplayPolicy`). Emits `shutdownComplete` if
    /// it was the last connection of a pool shutting down.
    @inlinable public mutating func connectionClosed(_ id: PoolConnectionID, by closer: ClosedBy, at now: Deadline)
        -> [Action]
    {
        let event = { "connectionClosed(\(id), by: \(closer))" }
        let connection = lookUp(id, event: event())
        let isLocal = if case .local = closer { true } else { false }
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        switch connection.phase {
        case .connecting:
            trap(event(), "a connecting connection ends with connectionAttemptFailed")
        case .idle:
            if isLocal { trap(event(), "the pool never asked to close this idle connection") }
            guard let index = pool.idle.firstIndex(of: id) else {
                trap(event(), "idle connection missing from its stack")
            }
            pool.idle.remove(at: index)
            originCounts[pool.slot].evicted += 1
        case .leased:
            if isLocal { trap(event(), "the pool never asked to close this leased connection") }
            pool.leased -= 1
        case .multiplexing:
            if isLocal { trap(event(), "the pool never asked to close this multiplexing connection") }
            pool.leased -= 1
            pool.multiplexing.removeAll { $0 == id }
        case .draining:
            if isLocal { trap(event(), "the pool never asked to close this draining connection") }
            pool.closing -= 1
        case .closing:
            pool.closing -= 1
        }
        disarmRetirement(of: id, actions: &actions)
        connections[id] = nil
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(consume pool)
        completeShutdownIfDone(actions: &actions)
        return actions
    }

    /// A timer's deadline passed. A connection's retirement timer retires it, when it is idle
    /// and its deadline has come, with the reason that set the deadline (rule 4); a waiter's
    /// fails it with `.poolWaitTimeout`; a backoff's lets the origin try again. A timer that was
    /// cancelled (or already fired) is ignored (rule 10).
    @inlinable public mutating func timerFired(_ timer: Timer, at now: Deadline) -> [Action] {
        guard let purpose = timers.removeValue(forKey: timer.id) else { return [] }
        let event = { "timerFired(\(timer))" }
        var actions = actionBuffer()
        switch purpose {
        case .idleConnection(let id):
            let connection = lookUp(id, event: event())
            guard connection.retirementTimer?.id == timer.id else {
                trap(event(), "the connection's retirement timer is another")
            }
            connections[id]!.retirementTimer = nil
            let reason: PoolCloseReason
            switch connection.phase {
            case .idle(let until, _) where !until.hasPassed(at: now):
                armRetirement(of: id, at: until, actions: &actions)
                return actions
            case .idle(_, let retireReason):
                reason = retireReason
            case .leased, .multiplexing, .draining:
                // Busy: the timer lapses, and the connection's next park arms another.
                return actions
            case .connecting, .closing:
                trap(event(), "the connection is \(connection.phase), which has no retirement timer")
            }
            var pool = takePool(connection.slot, event: event())
            guard let index = pool.idle.firstIndex(of: id) else {
                trap(event(), "idle connection missing from its stack")
            }
            pool.idle.remove(at: index)
            close(id, reason, pool: &pool, actions: &actions)
            store(consume pool)
        case .poolWait(let request):
            guard let slot = waitingRequests.removeValue(forKey: request) else {
                trap(event(), "the pool-wait timer is armed but \(request) is not waiting")
            }
            var pool = takePool(slot, event: event())
            guard (pool.waiters.remove(request) ?? pool.freshWaiters.remove(request)) != nil else {
                trap(event(), "\(request) is indexed as waiting but is in no queue")
            }
            actions.append(.failRequest(request, .poolWaitTimeout(lastConnectionFailure: pool.lastFailure)))
            store(consume pool)
        case .backoff(let origin):
            guard let slot = slots[origin] else {
                trap(event(), "the backoff timer is armed but the pool holds nothing for \(origin)")
            }
            var pool = takePool(slot, event: event())
            pool.backoffTimer = nil
            startConnectionsIfNeeded(pool: &pool, actions: &actions)
            store(pool)
        }
        return actions
    }

    /// Opens connections to `origin` ahead of traffic until it has `count` connections of any
    /// kind, capped at both the connection and the idle limit. A one-off: the connections age out
    /// like any other. Does nothing while the origin backs off or the pool shuts down.
    @inlinable public mutating func prewarm(origin: Origin, connections count: Int, at now: Deadline) -> [Action] {
        guard case .running = state else { return [] }
        var actions = actionBuffer()
        var pool = takeOrMakePool(for: origin)
        let target = min(count, settings.maximumConnectionsPerOrigin, settings.maximumIdleConnectionsPerOrigin)
        while pool.live < target && canStartConnection(pool) {
            startConnection(pool: &pool, actions: &actions)
        }
        store(consume pool)
        return actions
    }

    /// Begins shutting the pool down (rule 11). A `.cancel` after a `.drain` also closes the
    /// leased connections; any other repeat does nothing. Emits `shutdownComplete` at once if no
    /// connection is left.
    @inlinable public mutating func shutdownRequested(_ mode: PoolShutdownMode, at now: Deadline) -> [Action] {
        var actions = actionBuffer()
        switch state {
        case .shutDown, .shuttingDown(.cancel):
            return []
        case .shuttingDown(.drain):
            guard mode == .cancel else { return [] }
            state = .shuttingDown(.cancel)
        case .running:
            state = .shuttingDown(mode)
            var waiters: [Waiter] = []
            for slot in pools.indices where pools[slot] != nil {
                var pool = takePool(slot, event: "shutdownRequested(\(mode))")
                waiters += allWaiters(of: &pool)
                if let backoff = pool.backoffTimer {
                    cancel(backoff, actions: &actions)
                    pool.backoffTimer = nil
                }
                store(pool)
            }
            for waiter in waiters.sorted(by: { $0.arrival < $1.arrival }) {
                cancel(waiter.timer, actions: &actions)
                actions.append(.failRequest(waiter.request, .shutdown))
            }
        }
        let closeLeased = mode == .cancel
        for id in connections.keys.sorted() {
            let connection = connections[id]!
            var pool = takePool(connection.slot, event: "shutdownRequested(\(mode))")
            switch connection.phase {
            case .idle:
                pool.idle.removeAll { $0 == id }
                unpark(id)
                close(id, .shutdown, pool: &pool, actions: &actions)
            case .connecting:
                pool.connecting -= 1
                close(id, .shutdown, pool: &pool, actions: &actions)
            case .leased where closeLeased:
                pool.leased -= 1
                close(id, .shutdown, pool: &pool, actions: &actions)
            case .multiplexing where closeLeased:
                pool.leased -= 1
                pool.multiplexing.removeAll { $0 == id }
                close(id, .shutdown, pool: &pool, actions: &actions)
            case .draining where closeLeased:
                pool.closing -= 1
                close(id, .shutdown, pool: &pool, actions: &actions)
            case .leased, .multiplexing, .draining, .closing:
                break
            }
            store(consume pool)
        }
        completeShutdownIfDone(actions: &actions)
        return actions
    }

    /// A stream of a multiplexed connection ended, whichever way (rule 14): the oldest waiter
    /// takes it, or, when it was the last, the connection becomes idle as `connectionBecameIdle`
    /// says (a draining one closes). A report that races the pool's close is ignored.
    @inlinable public mutating func streamReleased(on id: PoolConnectionID, at now: Deadline) -> [Action] {
        let event = { "streamReleased(on: \(id))" }
        let connection = lookUp(id, event: event())
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        switch connection.phase {
        case .multiplexing(let streams):
            if streams > 1 {
                connections[id]!.phase = .multiplexing(streams: streams - 1)
                if case .running = state { serveWaiters(on: id, pool: &pool, now: now, actions: &actions) }
            } else {
                pool.leased -= 1
                pool.multiplexing.removeAll { $0 == id }
                // Carrying nothing and in no count, until it is leased, parked or closed below.
                connections[id]!.phase = .multiplexing(streams: 0)
                if case .shuttingDown = state {
                    close(id, .shutdown, pool: &pool, actions: &actions)
                } else if let reason = retirement(of: connection, isReusable: true, now: now) {
                    close(id, reason, pool: &pool, actions: &actions)
                } else {
                    makeAvailable(id, pool: &pool, now: now, actions: &actions)
                }
            }
        case .draining(let streams):
            if streams > 1 {
                connections[id]!.phase = .draining(streams: streams - 1)
            } else {
                // Already counted as closing (rule 16).
                disarmRetirement(of: id, actions: &actions)
                connections[id]!.phase = .closing
                originCounts[pool.slot].retired += 1
                actions.append(.closeConnection(id, .serverGoingAway))
            }
        case .closing:
            break
        case .connecting, .idle, .leased:
            trap(event(), "the connection is \(connection.phase), not carrying streams")
        }
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(consume pool)
        completeShutdownIfDone(actions: &actions)
        return actions
    }

    /// The server changed how many streams a multiplexed connection may carry (rule 15).
    @inlinable public mutating func streamCapacityChanged(
        _ id: PoolConnectionID, to capacity: Int, at now: Deadline
    ) -> [Action] {
        let event = { "streamCapacityChanged(\(id), to: \(capacity))" }
        let connection = lookUp(id, event: event())
        if capacity < 1 { trap(event(), "a stream capacity below 1") }
        guard connection.isMultiplexed else { trap(event(), "the connection is not multiplexed") }
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        connections[id]!.streamCapacity = capacity
        pool.expectedStreamCapacity = capacity
        if case .multiplexing = connection.phase, case .running = state {
            serveWaiters(on: id, pool: &pool, now: now, actions: &actions)
        }
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(consume pool)
        return actions
    }

    /// The server is closing a multiplexed connection (GOAWAY, rule 16): it takes no more
    /// streams; an idle one closes now, a busy one when its last stream ends.
    @inlinable public mutating func connectionGoingAway(_ id: PoolConnectionID, at now: Deadline) -> [Action] {
        let event = { "connectionGoingAway(\(id))" }
        let connection = lookUp(id, event: event())
        guard connection.isMultiplexed else { trap(event(), "the connection is not multiplexed") }
        var actions = actionBuffer()
        var pool = takePool(connection.slot, event: event())
        switch connection.phase {
        case .multiplexing(let streams):
            pool.leased -= 1
            pool.multiplexing.removeAll { $0 == id }
            pool.closing += 1
            connections[id]!.phase = .draining(streams: streams)
        case .idle:
            guard let index = pool.idle.firstIndex(of: id) else {
                trap(event(), "idle connection missing from its stack")
            }
            pool.idle.remove(at: index)
            unpark(id)
            close(id, .serverGoingAway, pool: &pool, actions: &actions)
        case .draining, .closing:
            break
        case .connecting, .leased:
            trap(event(), "the connection is \(connection.phase)")
        }
        startConnectionsIfNeeded(pool: &pool, actions: &actions)
        store(consume pool)
        return actions
    }

    // MARK: - Decisions

    /// Rule 13: the oldest multiplexing connection of the origin that may take another stream.
    @inlinable @inline(__always) func multiplexingConnectionWithRoom(in pool: OriginPool, now: Deadline)
        -> PoolConnectionID?
    {
        pool.multiplexing.first { hasRoom(connections[$0]!, now: now) }
    }

    /// Whether a multiplexing connection may take another stream: below its capacity, its
    /// request limit and the end of its lifetime.
    @inlinable func hasRoom(_ connection: Connection, now: Deadline) -> Bool {
        guard case .multiplexing(let streams) = connection.phase, streams < connection.streamCapacity else {
            return false
        }
        if let limit = settings.maximumRequestsPerConnection, connection.uses >= limit { return false }
        if let lifetime = settings.maximumConnectionLifetime, (connection.establishedAt + lifetime).hasPassed(at: now) {
            return false
        }
        return true
    }

    /// Rules 13–15: a multiplexing connection takes the oldest plain waiters while it has room.
    @inlinable mutating func serveWaiters(
        on id: PoolConnectionID, pool: inout OriginPool, now: Deadline, actions: inout [Action]
    ) {
        while hasRoom(connections[id]!, now: now), let waiter = pool.waiters.popFirst() {
            waitingRequests[waiter.request] = nil
            cancel(waiter.timer, actions: &actions)
            lease(id, to: waiter.request, arrivedAt: waiter.arrivedAt, pool: &pool, now: now, actions: &actions)
        }
    }

    /// Rule 4: hand a connection that is ready (and in no stack) to the oldest waiter it may
    /// serve, or park it, or close it if the idle stack is full. The caller has taken it out of
    /// its previous phase's count.
    @inlinable mutating func makeAvailable(
        _ id: PoolConnectionID,
        pool: inout OriginPool,
        now: Deadline,
        actions: inout [Action]
    ) {
        let connection = connections[id]!
        let plain = pool.waiters.first()
        let fresh = connection.uses == 0 ? pool.freshWaiters.first() : nil
        let waiter: Waiter?
        if let fresh, plain.map({ fresh.arrival < $0.arrival }) ?? true {
            waiter = pool.freshWaiters.popFirst()
        } else if plain != nil {
            waiter = pool.waiters.popFirst()
        } else {
            waiter = nil
        }
        if let waiter {
            waitingRequests[waiter.request] = nil
            cancel(waiter.timer, actions: &actions)
            lease(id, to: waiter.request, arrivedAt: waiter.arrivedAt, pool: &pool, now: now, actions: &actions)
            if connection.isMultiplexed { serveWaiters(on: id, pool: &pool, now: now, actions: &actions) }
        } else if pool.idle.count >= settings.maximumIdleConnectionsPerOrigin {
            close(id, .tooManyIdle, pool: &pool, actions: &actions)
        } else {
            park(id, pool: &pool, now: now, actions: &actions)
        }
    }

    /// Rule 5 (and 8): start connections while waiters outnumber attempts, then, if replays still
    /// lack room at the limit, close the oldest idle connections to make it.
    @inlinable mutating func startConnectionsIfNeeded(
        pool: inout OriginPool,
        actions: inout [Action]
    ) {
        // Each attempt is expected to serve as many waiters as a connection carries streams.
        let perConnection = pool.expectedStreamCapacity ?? 1
        var unmet = pool.waiting - pool.connecting * perConnection
        while unmet > 0 && canStartConnection(pool) {
            startConnection(pool: &pool, actions: &actions)
            unmet -= perConnection
        }
        guard unmet > 0, pool.freshWaiters.count > 0, pool.live >= settings.maximumConnectionsPerOrigin,
            canStartConnection(pool, ignoringLimit: true)
        else { return }
        var roomNeeded = min(unmet, pool.freshWaiters.count) - pool.closing
        while roomNeeded > 0 && !pool.idle.isEmpty {
            let oldest = pool.idle.removeFirst()
            unpark(oldest)
            close(oldest, .madeRoomForFreshConnection, pool: &pool, actions: &actions)
            roomNeeded -= 1
        }
    }

    @inlinable func canStartConnection(_ pool: OriginPool, ignoringLimit: Bool = false) -> Bool {
        guard case .running = state, pool.backoffTimer == nil else { return false }
        let attemptLimit = pool.consecutiveFailures > 0 ? 1 : Int.max
        return pool.connecting < attemptLimit && (ignoringLimit || pool.live < settings.maximumConnectionsPerOrigin)
    }

    /// Rule 6: why a connection that came back must not be reused, if it must not.
    @inlinable @inline(__always) func retirement(of connection: Connection, isReusable: Bool, now: Deadline)
        -> PoolCloseReason?
    {
        if !isReusable { return .notReusable }
        if let limit = settings.maximumRequestsPerConnection, connection.uses >= limit { return .requestLimitReached }
        if let remaining = connection.serverRemainingRequests, remaining <= 0 { return .serverRequestLimitReached }
        if let lifetime = settings.maximumConnectionLifetime, (connection.establishedAt + lifetime).hasPassed(at: now) {
            return .lifetimeExpired
        }
        if let timeout = connection.serverKeepAliveTimeout, timeout <= settings.keepAliveTimeoutMargin {
            return .serverKeepAliveTimeout
        }
        return nil
    }

    /// The idle connection a request may take: the most recently parked one, or for a replay the
    /// most recently parked one that never carried a request.
    @inlinable @inline(__always) func idleIndex(in pool: OriginPool, freshOnly: Bool) -> Int? {
        guard freshOnly else { return pool.idle.indices.last }
        return pool.idle.lastIndex { connections[$0]!.uses == 0 }
    }

    // MARK: - Bookkeeping

    @inlinable mutating func startConnection(pool: inout OriginPool, actions: inout [Action]) {
        lastConnectionID += 1
        let id = PoolConnectionID(lastConnectionID)
        connections[id] = Connection(id: id, slot: pool.slot)
        pool.connecting += 1
        actions.append(.createConnection(id, origin: pool.origin))
    }

    @inlinable mutating func lease(
        _ id: PoolConnectionID,
        to request: PoolRequestID,
        arrivedAt: Deadline,
        pool: inout OriginPool,
        now: Deadline,
        actions: inout [Action]
    ) {
        let isReused = Self.leasing(&connections[id]!, to: request, pool: &pool)
        originCounts[pool.slot].leases += 1
        if isReused { originCounts[pool.slot].reused += 1 }
        originCounts[pool.slot].totalPoolWait += now - arrivedAt
        actions.append(.leaseConnection(id, to: request, isReused: isReused))
    }

    /// Marks `connection` leased to `request` in place (one dictionary lookup), counting it in
    /// `pool` when it was not carrying requests already (rule 13); returns whether it had
    /// carried a request before.
    @inlinable static func leasing(
        _ connection: inout Connection, to request: PoolRequestID, pool: inout OriginPool
    ) -> Bool {
        let isReused = connection.uses > 0
        connection.uses += 1
        if let remaining = connection.serverRemainingRequests { connection.serverRemainingRequests = remaining - 1 }
        guard connection.isMultiplexed else {
            connection.phase = .leased(request)
            pool.leased += 1
            return isReused
        }
        if case .multiplexing(let streams) = connection.phase, streams > 0 {
            connection.phase = .multiplexing(streams: streams + 1)
        } else {
            connection.phase = .multiplexing(streams: 1)
            pool.leased += 1
            pool.multiplexing.append(connection.id)
        }
        return isReused
    }

    /// Parks a connection idle with the earliest of its retirement deadlines (rule 4).
    @inlinable mutating func park(
        _ id: PoolConnectionID, pool: inout OriginPool, now: Deadline, actions: inout [Action]
    ) {
        let connection = connections[id]!
        var deadline = now + settings.idleTimeout
        var reason = PoolCloseReason.idleTimeout
        if let timeout = connection.serverKeepAliveTimeout {
            let serverDeadline = now + (timeout - settings.keepAliveTimeoutMargin)
            if serverDeadline < deadline { (deadline, reason) = (serverDeadline, .serverKeepAliveTimeout) }
        }
        if let lifetime = settings.maximumConnectionLifetime {
            let end = connection.establishedAt + lifetime
            if end < deadline { (deadline, reason) = (end, .lifetimeExpired) }
        }
        // The timer armed at an earlier park stays when it is due by the new deadline: when it
        // fires, it arms again for the rest.
        if let armed = connections[id]!.retirementTimer, armed.due > deadline {
            disarmRetirement(of: id, actions: &actions)
        }
        if connections[id]!.retirementTimer == nil { armRetirement(of: id, at: deadline, actions: &actions) }
        connections[id]!.phase = .idle(until: deadline, retireReason: reason)
        pool.idle.append(id)
    }

    /// Checks that a connection the caller has just taken out of its idle stack was idle. Its
    /// retirement timer stays armed (rule 4).
    @inlinable @inline(__always) func unpark(_ id: PoolConnectionID) {
        guard case .idle = connections[id]!.phase else {
            trap("unpark(\(id))", "the connection is \(connections[id]!.phase), not idle")
        }
    }

    /// Arms connection `id`'s retirement timer for `deadline`; it has none armed.
    @inlinable mutating func armRetirement(of id: PoolConnectionID, at deadline: Deadline, actions: inout [Action]) {
        let timer = schedule(.idleConnection(id), at: deadline, actions: &actions)
        connections[id]!.retirementTimer = (timer.id, timer.deadline)
    }

    /// Cancels connection `id`'s retirement timer, if one is armed.
    @inlinable mutating func disarmRetirement(of id: PoolConnectionID, actions: inout [Action]) {
        guard let armed = connections[id]!.retirementTimer else { return }
        connections[id]!.retirementTimer = nil
        cancel(Timer(id: armed.id, purpose: .idleConnection(id), deadline: armed.due), actions: &actions)
    }

    /// Marks a connection closing; the caller has taken it out of its previous phase's count.
    @inlinable mutating func close(
        _ id: PoolConnectionID,
        _ reason: PoolCloseReason,
        pool: inout OriginPool,
        actions: inout [Action]
    ) {
        disarmRetirement(of: id, actions: &actions)
        connections[id]!.phase = .closing
        pool.closing += 1
        originCounts[pool.slot].retired += 1
        actions.append(.closeConnection(id, reason))
    }

    @inlinable mutating func allWaiters(of pool: inout OriginPool) -> [Waiter] {
        let waiters = (pool.waiters.removeAll() + pool.freshWaiters.removeAll()).sorted { $0.arrival < $1.arrival }
        for waiter in waiters { waitingRequests[waiter.request] = nil }
        return waiters
    }

    @inlinable mutating func schedule(_ purpose: Timer.Purpose, at deadline: Deadline, actions: inout [Action]) -> Timer
    {
        lastTimerID += 1
        let timer = Timer(id: PoolTimerID(lastTimerID), purpose: purpose, deadline: deadline)
        timers[timer.id] = purpose
        actions.append(.scheduleTimer(timer))
        return timer
    }

    @inlinable mutating func cancel(_ timer: Timer, actions: inout [Action]) {
        guard timers.removeValue(forKey: timer.id) != nil else {
            trap("cancel(\(timer))", "the timer is not armed")
        }
        actions.append(.cancelTimer(timer))
    }

    @inlinable mutating func completeShutdownIfDone(actions: inout [Action]) {
        guard case .shuttingDown = state, connections.isEmpty else { return }
        precondition(
            timers.isEmpty && waitingRequests.isEmpty && slots.isEmpty,
            "PoolStateMachine (\(state)): last connection closed with timers \(timers.count), waiters \(waitingRequests.count) left"
        )
        state = .shutDown
        actions.append(.shutdownComplete)
    }

    @inlinable func lookUp(_ id: PoolConnectionID, event: @autoclosure () -> String) -> Connection {
        guard let connection = connections[id] else { trap(event(), "the pool knows no connection \(id)") }
        return connection
    }

    /// An empty action list with room for a typical event's actions, so that appending does not
    /// reallocate (a lease cancels a timer and leases; a return may lease, park or close): the
    /// storage the runner gave back with `recycle(_:)`, if any, so a steady pool allocates none.
    @inlinable mutating func actionBuffer() -> [Action] {
        var actions: [Action] = []
        swap(&actions, &spareActions)
        if actions.capacity < 4 { actions.reserveCapacity(4) }
        return actions
    }

    /// Gives back an event's actions once they are performed: the next event's list reuses their
    /// storage instead of allocating one (two allocations per request otherwise). Optional: a
    /// caller that keeps its lists only costs the allocation.
    @inlinable public mutating func recycle(_ actions: inout [Action]) {
        // A caller that took the actions out (the runner) hands back an empty list.
        if !actions.isEmpty { actions.removeAll(keepingCapacity: true) }
        swap(&actions, &spareActions)
    }

    /// The state of `origin`, taken out of its slot (a new slot for an origin the pool holds
    /// nothing for), so it can be changed while `self` is too. Hashes the key once.
    @inlinable mutating func takeOrMakePool(for origin: Origin) -> OriginPool {
        if lastOrigin == origin {
            return takePool(lastSlot, event: "takeOrMakePool(for: \(origin))")
        }
        if let slot = slots[origin] {
            (lastOrigin, lastSlot) = (origin, slot)
            return takePool(slot, event: "takeOrMakePool(for: \(origin))")
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = pools.count
            pools.append(nil)
            originCounts.append(PoolStatistics<Origin>.Counts())
        }
        slots[origin] = slot
        (lastOrigin, lastSlot) = (origin, slot)
        return OriginPool(origin: origin, slot: slot)
    }

    /// Takes an origin's state out of its slot, so it can be changed while `self` is too.
    @inlinable mutating func takePool(_ slot: Int, event: @autoclosure () -> String) -> OriginPool {
        // `take()` moves the value out, so changing it copies none of its arrays.
        guard let pool = pools[slot].take() else { trap(event(), "the pool holds nothing in slot \(slot)") }
        return pool
    }

    /// Puts an origin's state back, or frees its slot (keeping its counters) when it holds nothing.
    /// Callers pass `consume pool`: a `var` passed plainly is copied first (two value-witness
    /// copies and destroys of the whole pool per request, about 2k instructions). Four callers
    /// cannot: Swift 6.3.1 rejects `consume` there ("applied to value that the compiler does not
    /// support"); they are per-connection events, not per-request ones.
    @inlinable mutating func store(_ pool: consuming OriginPool) {
        if pool.isEmpty {
            emptiedOriginCounts += originCounts[pool.slot]
            originCounts[pool.slot] = PoolStatistics<Origin>.Counts()
            slots[pool.origin] = nil
            if lastSlot == pool.slot { lastOrigin = nil }
            freeSlots.append(pool.slot)
        } else {
            let slot = pool.slot
            pools[slot] = consume pool
        }
    }

    @inlinable func trap(_ event: String, _ problem: String) -> Never {
        preconditionFailure("PoolStateMachine (\(state)): \(event): \(problem)")
    }
}
