// The world the pool lives in, played by the tests: mock connections, timers, requests and a clock.
package import WickCore
package import WickPool

package typealias Pool = PoolStateMachine<String, TestFailure>
package typealias Action = Pool.Action

/// A connection error the runner would report.
package enum TestFailure: Error, Hashable {
    case refused
    case reset
    case trustRejected
}

/// A transition the runner must never be asked to make, or a rule the pool broke.
package struct WorldViolation: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Plays the runner: sends events to a `PoolStateMachine`, performs its actions on mock
/// connections, timers and requests, and throws on any action that would be illegal for a real
/// runner (leasing a connection that is busy, firing a cancelled timer, completing a request twice).
package struct PoolWorld {
    package enum ConnectionState: Equatable {
        case connecting
        /// Established or back from a request, not carrying one.
        case idle
        case leased(PoolRequestID)
        /// Multiplexed, carrying these requests (at least one), one stream each.
        case multiplexing(Set<PoolRequestID>)
        /// Multiplexed after GOAWAY, finishing these requests (at least one).
        case draining(Set<PoolRequestID>)
        /// The pool asked to close it; `was` says which stray report may race.
        case closing(was: Was)
        package enum Was: Equatable { case connecting, idle, leased, multiplexing, draining }
    }

    package struct Connection {
        package let origin: String
        package var state: ConnectionState
        package var uses = 0
        /// The streams it may carry at once; nil for an HTTP/1.1 connection.
        package var streamCapacity: Int?
        package var establishedAt = Deadline.distantPast
    }

    package enum RequestState: Equatable {
        /// Sent to the pool; its answer is being applied.
        case arriving(origin: String, fresh: Bool)
        case waiting(origin: String, fresh: Bool)
        case leased(PoolConnectionID)
        case failed(Pool.RequestFailure)
    }

    package private(set) var pool: Pool
    package private(set) var now = Deadline(uptimeNanoseconds: 1_000_000_000)
    package private(set) var connections: [PoolConnectionID: Connection] = [:]
    package private(set) var armedTimers: [PoolTimerID: Pool.Timer] = [:]
    package private(set) var finishedTimers: [PoolTimerID: Pool.Timer] = [:]
    package private(set) var requests: [PoolRequestID: RequestState] = [:]
    /// The waiting requests, kept beside `requests` so that looking them up stays cheap.
    private var waiting: [String: Set<PoolRequestID>] = [:]
    /// Armed timers by purpose: at most one per purpose may be armed.
    private var armedByPurpose: [Pool.Timer.Purpose: Pool.Timer] = [:]
    /// Finished timers in order, for picking one at random.
    package private(set) var finishedTimerList: [Pool.Timer] = []
    /// How many times each request was completed (leased or failed); must end at exactly one.
    package private(set) var completions: [PoolRequestID: Int] = [:]
    package private(set) var shutdownCompletions = 0
    /// Leases of a stream on a multiplexed connection that already carried others at the time.
    package private(set) var sharedStreamLeases = 0
    /// The world's own tally of what the pool's counters count.
    package private(set) var tally = PoolStatistics<String>.Counts()
    private var everCreated: Set<PoolConnectionID> = []

    package init(settings: PoolSettings = PoolSettings()) {
        pool = Pool(settings: settings)
    }

    package var settings: PoolSettings { pool.settings }

    // MARK: Events

    @discardableResult
    package mutating func arrive(
        _ request: UInt64,
        at origin: String = "a",
        deadline: Deadline = .distantFuture,
        isReplay: Bool = false,
        multiplexingHint: Int? = nil
    ) throws -> [Action] {
        let id = PoolRequestID(request)
        guard requests[id] == nil else { throw WorldViolation("the test reused request \(id)") }
        setState(of: id, to: .arriving(origin: origin, fresh: isReplay))
        let actions = pool.requestArrived(
            id, origin: origin, deadline: deadline, isReplay: isReplay, multiplexingHint: multiplexingHint, at: now)
        // A replay counts once the pool accepts it; one refused at shutdown never ran.
        if isReplay && actions != [.failRequest(id, .shutdown)] { tally.replayed += 1 }
        try apply(actions)
        if case .arriving = requests[id] { throw WorldViolation("the pool said nothing about \(id)") }
        return actions
    }

    @discardableResult
    package mutating func cancel(_ request: UInt64) throws -> [Action] {
        let actions = pool.requestCancelled(PoolRequestID(request), at: now)
        try apply(actions)
        return actions
    }

    /// The attempt succeeded; with a stream capacity, as a multiplexed (HTTP/2) connection.
    @discardableResult
    package mutating func establish(_ connection: PoolConnectionID, streamCapacity: Int? = nil) throws -> [Action] {
        try expect(connection, in: .connecting)
        connections[connection]!.state = .idle
        connections[connection]!.streamCapacity = streamCapacity
        connections[connection]!.establishedAt = now
        tally.created += 1
        let actions = pool.connectionEstablished(connection, streamCapacity: streamCapacity, at: now)
        try apply(actions)
        return actions
    }

    @discardableResult
    package mutating func failAttempt(
        _ connection: PoolConnectionID,
        _ error: TestFailure = .refused,
        isRetryable: Bool = true
    ) throws -> [Action] {
        try expect(connection, in: .connecting)
        connections[connection] = nil
        tally.failedAttempts += 1
        let actions = pool.connectionAttemptFailed(connection, error: error, isRetryable: isRetryable, at: now)
        try apply(actions)
        return actions
    }

    /// The leased connection's request completed.
    @discardableResult
    package mutating func finish(
        _ connection: PoolConnectionID,
        keepAlive: KeepAliveHint? = nil,
        isReusable: Bool = true
    ) throws -> [Action] {
        guard case .leased = connections[connection]?.state else {
            throw WorldViolation("the test finished \(connection), which is not leased")
        }
        connections[connection]!.state = .idle
        let actions = pool.connectionBecameIdle(connection, keepAlive: keepAlive, isReusable: isReusable, at: now)
        try apply(actions)
        return actions
    }

    /// One stream of a multiplexed connection ended (the request's, whichever way).
    @discardableResult
    package mutating func releaseStream(of request: PoolRequestID, on connection: PoolConnectionID) throws -> [Action] {
        switch connections[connection]?.state {
        case .multiplexing(var requests) where requests.remove(request) != nil:
            connections[connection]!.state = requests.isEmpty ? .idle : .multiplexing(requests)
        case .draining(var requests) where requests.remove(request) != nil:
            connections[connection]!.state = .draining(requests)
        default:
            throw WorldViolation("the test released \(request) on \(connection), which does not carry it")
        }
        let actions = pool.streamReleased(on: connection, at: now)
        try apply(actions)
        if case .draining(let left) = connections[connection]?.state, left.isEmpty {
            throw WorldViolation("\(connection) drained its last stream and the pool did not close it")
        }
        return actions
    }

    /// The server's SETTINGS changed a multiplexed connection's stream capacity.
    @discardableResult
    package mutating func changeCapacity(of connection: PoolConnectionID, to capacity: Int) throws -> [Action] {
        guard connections[connection]?.streamCapacity != nil else {
            throw WorldViolation("the test changed the capacity of \(connection), which is not multiplexed")
        }
        connections[connection]!.streamCapacity = capacity
        let actions = pool.streamCapacityChanged(connection, to: capacity, at: now)
        try apply(actions)
        return actions
    }

    /// The server sent GOAWAY on a multiplexed connection.
    @discardableResult
    package mutating func goAway(_ connection: PoolConnectionID) throws -> [Action] {
        guard connections[connection]?.streamCapacity != nil else {
            throw WorldViolation("the test sent GOAWAY on \(connection), which is not multiplexed")
        }
        if case .multiplexing(let requests) = connections[connection]?.state {
            connections[connection]!.state = .draining(requests)
        }
        let actions = pool.connectionGoingAway(connection, at: now)
        try apply(actions)
        return actions
    }

    /// The server (or an error) closed an idle or busy connection.
    @discardableResult
    package mutating func serverCloses(_ connection: PoolConnectionID, error: TestFailure? = nil) throws -> [Action] {
        switch connections[connection]?.state {
        case .idle: tally.evicted += 1
        case .leased, .multiplexing, .draining: break
        default: throw WorldViolation("the test made the server close \(connection), which is not open")
        }
        connections[connection] = nil
        let actions = pool.connectionClosed(connection, by: error.map { .error($0) } ?? .peer, at: now)
        try apply(actions)
        return actions
    }

    /// The runner finished a close the pool asked for (or the server or an error got there first).
    @discardableResult
    package mutating func completeClose(_ connection: PoolConnectionID, by closer: Pool.ClosedBy = .local) throws
        -> [Action]
    {
        guard case .closing = connections[connection]?.state else {
            throw WorldViolation("the test completed the close of \(connection), which is not closing")
        }
        connections[connection] = nil
        let actions = pool.connectionClosed(connection, by: closer, at: now)
        try apply(actions)
        return actions
    }

    /// A report about a closing connection that raced the pool's close: whatever its previous
    /// phase allows (a connecting one established or failed, a leased one back idle). The pool
    /// must ignore it.
    @discardableResult
    package mutating func strayReport(about connection: PoolConnectionID) throws -> [Action] {
        guard case .closing(let was) = connections[connection]?.state else {
            throw WorldViolation("no close of \(connection) to race")
        }
        let actions: [Action] =
            switch was {
            case .connecting where connection.rawValue % 2 == 0: pool.connectionEstablished(connection, at: now)
            case .connecting: pool.connectionAttemptFailed(connection, error: .reset, isRetryable: true, at: now)
            case .leased: pool.connectionBecameIdle(connection, isReusable: true, at: now)
            case .multiplexing, .draining: pool.streamReleased(on: connection, at: now)
            // An idle connection has no report that could race: its end is `connectionClosed`.
            case .idle: []
            }
        guard actions.isEmpty else {
            throw WorldViolation("a stray report about closing \(connection) led to \(actions)")
        }
        return actions
    }

    @discardableResult
    package mutating func prewarm(_ origin: String = "a", connections count: Int) throws -> [Action] {
        let actions = pool.prewarm(origin: origin, connections: count, at: now)
        try apply(actions)
        return actions
    }

    @discardableResult
    package mutating func shutdown(_ mode: PoolShutdownMode) throws -> [Action] {
        let actions = pool.shutdownRequested(mode, at: now)
        try apply(actions)
        return actions
    }

    /// Moves the clock forward, firing every armed timer that falls due on the way, in order.
    @discardableResult
    package mutating func advance(by duration: Duration) throws -> [Action] {
        let target = now + duration
        var all: [Action] = []
        while let next = armedTimers.values.min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }),
            next.deadline <= target
        {
            now = max(now, next.deadline)
            all += try fire(next)
        }
        now = target
        return all
    }

    /// Fires one armed timer now (the clock jumps to its deadline if that is later).
    @discardableResult
    package mutating func fire(_ timer: Pool.Timer) throws -> [Action] {
        guard disarm(timer) else {
            throw WorldViolation("the runner would never fire \(timer): it is not armed")
        }
        now = max(now, timer.deadline)
        let actions = pool.timerFired(timer, at: now)
        try apply(actions)
        return actions
    }

    /// Reports a timer that was already fired or cancelled, as a runner may when a fire races
    /// its cancellation. The pool must ignore it.
    @discardableResult
    package mutating func fireStale(_ timer: Pool.Timer) throws -> [Action] {
        guard finishedTimers[timer.id] != nil else { throw WorldViolation("\(timer) is not finished") }
        let actions = pool.timerFired(timer, at: now)
        guard actions.isEmpty else { throw WorldViolation("a stale fire of \(timer) led to \(actions)") }
        return actions
    }

    // MARK: Performing actions

    package mutating func apply(_ actions: [Action]) throws {
        for action in actions { try perform(action) }
    }

    private mutating func perform(_ action: Action) throws {
        switch action {
        case .createConnection(let id, let origin):
            guard everCreated.insert(id).inserted else { throw WorldViolation("\(id) created twice") }
            connections[id] = Connection(origin: origin, state: .connecting)

        case .leaseConnection(let id, let request, let isReused):
            guard var connection = connections[id] else { throw WorldViolation("lease of unknown \(id)") }
            var carried: Set<PoolRequestID>?
            switch connection.state {
            case .idle where connection.streamCapacity != nil: carried = []
            case .idle: carried = nil
            case .multiplexing(let requests) where requests.count < connection.streamCapacity ?? 0: carried = requests
            default: throw WorldViolation("lease of \(id), which is \(connection.state)")
            }
            let (origin, fresh) = try waitingOrArriving(request, for: "lease")
            guard origin == connection.origin else {
                throw WorldViolation("\(request) for \(origin) got \(id) of \(connection.origin)")
            }
            guard isReused == (connection.uses > 0) else {
                throw WorldViolation("lease of \(id) says isReused \(isReused) after \(connection.uses) uses")
            }
            if fresh && connection.uses > 0 { throw WorldViolation("replay \(request) got used connection \(id)") }
            if let limit = settings.maximumRequestsPerConnection, connection.uses >= limit {
                throw WorldViolation("lease of \(id) past its request limit")
            }
            if let carried, !carried.isEmpty { sharedStreamLeases += 1 }
            connection.uses += 1
            connection.state = carried.map { .multiplexing($0.union([request])) } ?? .leased(request)
            tally.leases += 1
            if isReused { tally.reused += 1 }
            connections[id] = connection
            setState(of: request, to: .leased(id))
            try complete(request)

        case .enqueueRequest(let request):
            guard case .arriving(let origin, let fresh) = requests[request] else {
                throw WorldViolation("enqueue of \(request), which is \(String(describing: requests[request]))")
            }
            setState(of: request, to: .waiting(origin: origin, fresh: fresh))

        case .failRequest(let request, let failure):
            _ = try waitingOrArriving(request, for: "fail")
            setState(of: request, to: .failed(failure))
            try complete(request)

        case .closeConnection(let id, _):
            let was: ConnectionState.Was
            switch connections[id]?.state {
            case .connecting: was = .connecting
            case .idle: was = .idle
            case .leased: was = .leased
            case .multiplexing: was = .multiplexing
            case .draining: was = .draining
            default: throw WorldViolation("close of \(id), which is \(String(describing: connections[id]?.state))")
            }
            connections[id]!.state = .closing(was: was)
            tally.retired += 1

        case .scheduleTimer(let timer):
            guard armedTimers[timer.id] == nil, finishedTimers[timer.id] == nil else {
                throw WorldViolation("\(timer) scheduled twice")
            }
            guard timer.deadline >= now else {
                throw WorldViolation("\(timer) scheduled in the past (now \(now))")
            }
            guard armedByPurpose[timer.purpose] == nil else {
                throw WorldViolation("\(timer) armed while \(armedByPurpose[timer.purpose]!) has the same purpose")
            }
            armedTimers[timer.id] = timer
            armedByPurpose[timer.purpose] = timer

        case .cancelTimer(let timer):
            guard disarm(timer) else {
                throw WorldViolation("cancel of \(timer), which is not armed")
            }

        case .shutdownComplete:
            shutdownCompletions += 1
            guard shutdownCompletions == 1 else { throw WorldViolation("shutdownComplete reported twice") }
            guard connections.isEmpty else {
                throw WorldViolation("shutdownComplete with \(connections.count) connections open")
            }
        }
    }

    private mutating func complete(_ request: PoolRequestID) throws {
        completions[request, default: 0] += 1
        guard completions[request] == 1 else { throw WorldViolation("\(request) completed twice") }
    }

    private mutating func setState(of request: PoolRequestID, to state: RequestState) {
        if case .waiting(let origin, _) = requests[request] { waiting[origin]?.remove(request) }
        if case .waiting(let origin, _) = state { waiting[origin, default: []].insert(request) }
        requests[request] = state
    }

    private mutating func disarm(_ timer: Pool.Timer) -> Bool {
        guard armedTimers.removeValue(forKey: timer.id) != nil else { return false }
        armedByPurpose[timer.purpose] = nil
        finishedTimers[timer.id] = timer
        finishedTimerList.append(timer)
        return true
    }

    private func waitingOrArriving(_ request: PoolRequestID, for verb: String) throws -> (String, Bool) {
        switch requests[request] {
        case .arriving(let origin, let fresh), .waiting(let origin, let fresh): return (origin, fresh)
        default: throw WorldViolation("\(verb) of \(request), which is \(String(describing: requests[request]))")
        }
    }

    private func expect(_ id: PoolConnectionID, in state: ConnectionState) throws {
        guard connections[id]?.state == state else {
            throw WorldViolation(
                "the test reported on \(id), which is \(String(describing: connections[id]?.state)), not \(state)")
        }
    }

    // MARK: Looking around

    package func connections(_ origin: String? = nil, _ matching: (ConnectionState) -> Bool) -> [PoolConnectionID] {
        connections.filter { (origin == nil || $0.value.origin == origin) && matching($0.value.state) }.keys.sorted()
    }

    package func waitingRequests(_ origin: String? = nil) -> [PoolRequestID] {
        if let origin { return (waiting[origin] ?? []).sorted() }
        return waiting.values.flatMap { $0 }.sorted()
    }

    package func timer(for purpose: Pool.Timer.Purpose) -> Pool.Timer? {
        armedByPurpose[purpose]
    }

    /// The mock's own gauges for an origin (or all), to compare with the pool's statistics.
    package func gauges(_ origin: String? = nil) -> (
        idle: Int, leased: Int, connecting: Int, closing: Int, waiting: Int
    ) {
        var gauges = (idle: 0, leased: 0, connecting: 0, closing: 0, waiting: 0)
        for connection in connections.values where origin == nil || connection.origin == origin {
            switch connection.state {
            case .idle: gauges.idle += 1
            case .leased, .multiplexing: gauges.leased += 1
            case .connecting: gauges.connecting += 1
            case .closing, .draining: gauges.closing += 1
            }
        }
        gauges.waiting = waitingRequests(origin).count
        return gauges
    }

    /// Whether a multiplexing connection may take another stream (rule 13).
    package func hasRoom(_ id: PoolConnectionID) -> Bool {
        guard let connection = connections[id], case .multiplexing(let requests) = connection.state,
            requests.count < connection.streamCapacity ?? 0
        else { return false }
        if let limit = settings.maximumRequestsPerConnection, connection.uses >= limit { return false }
        if let lifetime = settings.maximumConnectionLifetime, connection.establishedAt + lifetime <= now {
            return false
        }
        return true
    }

    /// Rules that must hold between any two events; throws naming the first one broken.
    package func checkInvariants() throws {
        let statistics = pool.statistics
        let origins = Set(connections.values.map(\.origin)).union(waiting.filter { !$0.value.isEmpty }.keys)
        for origin in origins.sorted() {
            let mine = gauges(origin)
            let live = mine.idle + mine.leased + mine.connecting + mine.closing
            guard live <= settings.maximumConnectionsPerOrigin else {
                throw WorldViolation("\(origin) has \(live) live connections, above the limit")
            }
            guard mine.idle <= settings.maximumIdleConnectionsPerOrigin else {
                throw WorldViolation("\(origin) has \(mine.idle) idle connections, above the limit")
            }
            let theirs = statistics.origins[origin] ?? PoolStatistics<String>.Counts()
            guard (theirs.idle, theirs.leased, theirs.connecting, theirs.closing, theirs.waiting) == mine else {
                throw WorldViolation("\(origin): pool gauges \(theirs) differ from the world's \(mine)")
            }
            let waiters = waitingRequests(origin)
            let plainWaiting = waiters.contains { requests[$0] == .waiting(origin: origin, fresh: false) }
            let idle = self.connections(origin) { $0 == .idle }
            if plainWaiting && !idle.isEmpty {
                throw WorldViolation("\(origin): idle \(idle) while \(waiters) wait")
            }
            if !waiters.isEmpty && idle.contains(where: { connections[$0]!.uses == 0 }) {
                throw WorldViolation("\(origin): a never-used idle connection while \(waiters) wait")
            }
            let roomy = self.connections(origin) { if case .multiplexing = $0 { true } else { false } }
                .filter { hasRoom($0) }
            if plainWaiting && !roomy.isEmpty {
                throw WorldViolation("\(origin): \(roomy) have free streams while \(waiters) wait")
            }
            let backingOff = timer(for: .backoff(origin)) != nil
            if !waiters.isEmpty && mine.connecting == 0 && !backingOff && live < settings.maximumConnectionsPerOrigin {
                throw WorldViolation("\(origin): \(waiters) wait with nothing under way to serve them")
            }
            for id in idle {
                guard timer(for: .idleConnection(id)) != nil else {
                    throw WorldViolation("\(origin): idle \(id) has no retirement timer")
                }
            }
            for request in waiters where timer(for: .poolWait(request)) == nil {
                throw WorldViolation("\(origin): waiting \(request) has no pool-wait timer")
            }
        }
        // Rule 4: a retirement timer may outlive a lease, not its connection's close.
        for timer in armedTimers.values {
            guard case .idleConnection(let id) = timer.purpose else { continue }
            switch connections[id]?.state {
            case .idle, .leased, .multiplexing, .draining: break
            case let state: throw WorldViolation("\(timer) is armed for \(id), which is \(String(describing: state))")
            }
        }
        let mine = gauges()
        let total = statistics.total
        guard (total.idle, total.leased, total.connecting, total.closing, total.waiting) == mine else {
            throw WorldViolation("pool total gauges \(total) differ from the world's \(mine)")
        }
        let counters = [
            \PoolStatistics<String>.Counts.created, \.failedAttempts, \.leases, \.reused, \.replayed, \.evicted,
            \.retired,
        ]
        if let differing = counters.first(where: { total[keyPath: $0] != tally[keyPath: $0] }) {
            throw WorldViolation(
                "pool counter \(differing) is \(total[keyPath: differing]), the world counted \(tally[keyPath: differing])"
            )
        }
        let leasedRequests = Set(
            connections.values.flatMap { connection -> [PoolRequestID] in
                switch connection.state {
                case .leased(let request): [request]
                case .multiplexing(let requests), .draining(let requests): Array(requests)
                default: []
                }
            })
        if let both = leasedRequests.first(where: { if case .waiting = requests[$0] { true } else { false } }) {
            throw WorldViolation("\(both) is both waiting and leased")
        }
    }
}
