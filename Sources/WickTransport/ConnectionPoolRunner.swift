// Performs the pool state machine's actions on the reactor: connects, leases, timers, closes.
import Synchronization
import WickCore
import WickHTTP1
import WickHTTP2
package import WickPool
package import WickReactor
import WickTLS

/// The connection pool: `PoolStateMachine` decides, this runner performs. It opens connections
/// (`TransportConnector`: TCP, then TLS for https), runs each on an `HTTP1ConnectionDriver`,
/// leases them to requests, arms the pool's timers, closes what the pool retires, and feeds every
/// outcome back into the machine (established, attempt failed and whether retrying could help,
/// idle with the response's `Keep-Alive` hint, closed by the peer, an error or us). A reused
/// connection that fails before any response byte is replayed once if `ReplayPolicy` allows.
///
/// **One loop.** The machine, its timers, every connection and every request's state live on
/// one event loop, `loop`: nothing on the request path is shared between threads, so nothing
/// there is locked, and events from connections reach the machine in the order they happened.
/// `statistics` and `shutdown` hop there; `start` borrows the loop when it sleeps (the caller's
/// thread acts as the loop meanwhile, `EventLoop.runIfAsleep`), else hops there too. The cost
/// is that one runner uses one thread; a client that needs more runs several runners (for
/// instance one per loop, origins spread across them), which keeps each pool's decisions exact.
///
/// **Events are serialised.** Each input to the machine is queued and handled after the
/// actions of the one before have all been performed, so a connection event raised while an
/// action runs (a write failing inside a lease) never interleaves with the remaining actions.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every `var` is read and written
/// only by the thread acting as `loop` (its own, or a borrower in `runIfAsleep`, both holding
/// the loop's ownership lock); the entry points borrow the loop or hop there with
/// `loop.execute`/`submit`, and timer and connect callbacks run there. The `let`s are
/// immutable and Sendable.
///
/// **TLS rules come with the request.** An https request carries its `TransportTLS` (the
/// `TransportClient` that prepares it builds and caches them, once); the runner builds none.
///
/// A runner must be shut down (`shutdown()`) before it is released: its connections hold
/// sockets until then.
package final class ConnectionPoolRunner: @unchecked Sendable {
    typealias Pool = PoolStateMachine<TransportOrigin, StreamChannelError>

    /// One input to the machine.
    private enum Event {
        case requestArrived(TransportExchange)
        case requestCancelled(TransportExchange)
        /// Established; with a stream capacity for a multiplexed (HTTP/2) connection.
        case established(PoolConnectionID, streamCapacity: Int?)
        case attemptFailed(PoolConnectionID, StreamChannelError)
        case becameIdle(PoolConnectionID, KeepAliveHint?)
        case streamReleased(PoolConnectionID)
        case streamCapacityChanged(PoolConnectionID, Int)
        case goingAway(PoolConnectionID)
        case closed(PoolConnectionID, Pool.ClosedBy)
        case timerFired(Pool.Timer)
        case shutdown(PoolShutdownMode)
        case prewarm(TransportOrigin, connections: Int)
    }

    /// The loop that owns the pool and its connections.
    package let loop: EventLoop
    let settings: TransportSettings
    private let connector: TransportConnector

    // `@exclusivity(unchecked)` on the loop-confined stored properties below: they are touched on
    // one thread only, and no access overlaps another (no inout of one across a call that
    // reaches it), so the runtime's dynamic check proves nothing; it cost a thread-local lookup
    // and an access-set insert per access, about 7,000 instructions per request (callgrind).
    @exclusivity(unchecked) private var machine: Pool
    @exclusivity(unchecked) private var connections: [PoolConnectionID: PooledConnection] = [:]
    /// Requests in the pool, by the id the machine knows them by.
    @exclusivity(unchecked) private var requests: [PoolRequestID: TransportExchange] = [:]
    /// The machine's timers not yet fired or cancelled. They share one loop timer
    /// (`armPoolTimer`), armed for the earliest. A connection's retirement timer outlives its
    /// leases (the pool's rule 4), so a connection in steady use schedules none per request.
    @exclusivity(unchecked) private var timers: [PoolTimerID: Pool.Timer] = [:]
    /// The loop timer that fires the machine's timers, and when.
    @exclusivity(unchecked) private var poolTimer: Scheduled?
    @exclusivity(unchecked) private var poolTimerDue: Deadline?
    @exclusivity(unchecked) private var lastRequestNumber: UInt64 = 0
    @exclusivity(unchecked) private var events: [Event] = []
    @exclusivity(unchecked) private var isHandlingEvents = false
    @exclusivity(unchecked) private var isShutDown = false
    /// Exchanges that entered the pool and have not ended (waiting, or on a connection).
    /// Changed only as the loop; an atomic so that a caller can see, before it tries to borrow
    /// the loop to wait inline (`TransportCancellation.waitInline`), whether its exchange is
    /// alone: trying while others run would take the loop from its thread for nothing.
    let exchangesInFlight = Atomic<Int>(0)
    /// Exchanges that ever entered the pool, for the probes of `inlineWaitGate`.
    let exchangesEntered = Atomic<Int>(0)
    /// Whether callers wait inline for their responses now.
    let inlineWaitGate = Locked(InlineWaitGate())
    @exclusivity(unchecked) private var shutdownWaiters: [@Sendable () -> Void] = []

    /// A runner on one of `group`'s loops.
    package init(group: EventLoopGroup, settings: TransportSettings = TransportSettings()) {
        loop = group.next()
        self.settings = settings
        let resolver: any HostResolving =
            settings.nameResolution.isSystemDefault
            ? group.resolver : SessionResolver(resolution: settings.nameResolution, system: group.resolver)
        var connector = TransportConnector(
            connector: Connector(resolver: resolver, options: settings.connect), tlsOptions: settings.tls)
        connector.dialer = settings.dialer
        connector.nameResolution = settings.nameResolution
        self.connector = connector
        machine = Pool(settings: settings.pool)
    }

    // MARK: - Entry points (any thread)

    /// Sends `request` on a pooled connection and returns the whole response. Cancelling the
    /// Swift task cancels the request: out of the pool if it waits, closing its connection if it
    /// runs.
    /// - Parameter deadline: bounds the pool wait and the exchange.
    /// - Throws: `TransportError`.
    func execute(
        _ request: TransportRequest, deadline: Deadline = .distantFuture
    ) async throws(TransportError) -> TransportResponse {
        let box = TransportResultBox()
        let exchange = makeExchange(request)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                start(exchange, deadline: deadline) { result in
                    box.set(result)
                    continuation.resume()
                }
            }
        } onCancel: {
            cancel(exchange)
        }
        return try box.get()
    }

    /// An exchange for `request` on this runner, to `start`; it is also the handle that
    /// `cancel` and `demandMore` take (a cancel before the start makes it finish as cancelled).
    func makeExchange(_ request: consuming TransportRequest) -> TransportExchange {
        TransportExchange(request: consume request, runner: self, maximumBodyBytes: settings.maximumResponseBodyBytes)
    }

    /// Sends `exchange`'s request on a pooled connection and calls `completion` once with the
    /// whole response or the failure, on the runner's loop (or on this thread when the runner is
    /// shut down). With `completesAfterIteration`, `completion` runs on the loop's thread after
    /// its iteration, outside the loop (`EventLoop.executeAfterIteration`): for a caller off the
    /// loop whose completion touches nothing of the loop's, so that the thread it wakes finds
    /// the loop free to borrow. `cancel(exchange)` cancels it. An https request must carry its
    /// TLS rules (`TransportRequest.tls`); one without traps.
    /// - Parameter deadline: bounds the pool wait and the exchange.
    /// - Parameter sink: where streamed bodies go (downloads, data streams); nil collects them.
    /// - Parameter leaseObserver: told on the loop each time the request gets a connection.
    func start(
        _ exchange: TransportExchange, deadline: Deadline, sink: (any TransportBodySink)? = nil,
        leaseObserver: TransportExchange.LeaseObserver? = nil, completesAfterIteration: Bool = false,
        completion: @escaping @Sendable (consuming Result<TransportResponse, TransportError>) -> Void
    ) {
        precondition(
            exchange.request.scheme == .http || exchange.request.tls != nil,
            "ConnectionPoolRunner.start: an https request without TLS rules (TransportClient.prepare gives them)")
        exchange.prepareToStart(
            deadline: deadline, sink: sink, leaseObserver: leaseObserver,
            completesAfterIteration: completesAfterIteration,
            completion: completion)
        // A sleeping loop is borrowed: the request enters the pool and leaves on its connection
        // from this thread, and the loop is not woken for it (`EventLoop.runIfAsleep`). On a
        // connection other requests share (HTTP/2 streams), the loop sends it with theirs: one
        // `sendmsg` per borrower cost 16 streams over TLS 18% of their rate.
        if loop.runIfAsleep({
            exchange.runOnLoop()
            return !exchange.sharesConnection
        }) {
            return
        }
        // Else the exchange goes to the loop as itself: no closure to allocate.
        if !loop.execute(exchange) { completion(.failure(.shutdown)) }
    }

    /// Tells the exchange `handle` was given to that its sink takes bytes again.
    func demandMore(_ exchange: TransportExchange) {
        loop.execute { exchange.demandMore() }
    }

    /// Cancels the request `handle` was given to (`start`), wherever it is; a request not yet
    /// on the loop starts cancelled.
    func cancel(_ exchange: TransportExchange) {
        loop.execute { [self] in cancelOnLoop(exchange) }
    }

    /// Opens connections to `origin` ahead of traffic until it has `count` (capped by the
    /// connection and idle limits); returns at once, the connections open in the background.
    /// Does nothing once the runner is shut down.
    func prewarm(_ origin: TransportOrigin, connections count: Int) {
        loop.execute { [self] in submit(.prewarm(origin, connections: count)) }
    }

    /// The pool's gauges and counters now.
    /// - Throws: `ReactorError.loopShutDown` once the loop is gone.
    package func statistics() async throws -> PoolStatistics<TransportOrigin> {
        try await loop.submit { [self] in machine.statistics }
    }

    /// Shuts the pool down: waiting requests fail with `.shutdown`, idle and connecting
    /// connections close, and with `.cancel` running requests fail too (with `.drain` they
    /// finish first). Returns when the last connection is closed.
    func shutdown(_ mode: PoolShutdownMode = .cancel) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = loop.execute { [self] in
                if isShutDown { return continuation.resume() }
                shutdownWaiters.append { continuation.resume() }
                submit(.shutdown(mode))
            }
            if !accepted { continuation.resume() }
        }
    }

    // MARK: - Requests (on the loop)

    /// Puts the exchange in the pool (first attempt or replay), on the loop.
    func enterPool(_ exchange: TransportExchange) {
        if !exchange.isCountedInFlight {
            exchange.isCountedInFlight = true
            exchangesInFlight.add(1, ordering: .relaxed)
            exchangesEntered.add(1, ordering: .relaxed)
        }
        guard !exchange.isCancelled else { return exchange.finish(.failure(.cancelled)) }
        lastRequestNumber += 1
        let id = PoolRequestID(lastRequestNumber)
        exchange.phase = .waiting(id)
        exchange.enteredPool = .now()
        requests[id] = exchange
        submit(.requestArrived(exchange))
    }

    /// An exchange counted in `exchangesInFlight` ended.
    func exchangeEnded() {
        exchangesInFlight.subtract(1, ordering: .relaxed)
    }

    private func cancelOnLoop(_ exchange: TransportExchange) {
        exchange.markCancelled()
        switch exchange.phase {
        case .created, .finished: break
        case .waiting: submit(.requestCancelled(exchange))
        case .running(let driver): driver.cancelRequest()
        }
    }

    // MARK: - Events

    /// Handles an event at once, then any it queued; while one is being handled, queues it.
    private func submit(_ event: consuming Event) {
        guard !isHandlingEvents else { return events.append(event) }
        isHandlingEvents = true
        defer { isHandlingEvents = false }
        // The first event is handled as it came (most come alone): an event is an enum copied
        // through its value witnesses, so keeping it out of the queue saves two copies.
        handle(event)
        guard !events.isEmpty else { return }
        var next = 0
        while next < events.count {
            let event = events[next]
            next += 1
            handle(event)
        }
        events.removeAll(keepingCapacity: true)
    }

    private func handle(_ event: Event) {
        let now = Deadline.now()
        var actions: [Pool.Action]
        switch event {
        case .requestArrived(let exchange):
            guard case .waiting(let id) = exchange.phase else { return }
            let origin = exchange.request.origin
            actions = machine.requestArrived(
                id, origin: origin, deadline: exchange.deadline, isReplay: exchange.isReplay,
                multiplexingHint: settings.expectedStreamCapacity(of: origin), at: now)
        case .requestCancelled(let exchange):
            switch exchange.phase {
            case .waiting(let id): actions = machine.requestCancelled(id, at: now)
            case .running(let driver):
                driver.cancelRequest()
                return
            case .created, .finished: return
            }
        case .established(let id, let capacity):
            actions = machine.connectionEstablished(id, streamCapacity: capacity, at: now)
        case .attemptFailed(let id, let error):
            actions = machine.connectionAttemptFailed(id, error: error, isRetryable: Self.isRetryable(error), at: now)
        case .becameIdle(let id, let keepAlive):
            actions = machine.connectionBecameIdle(id, keepAlive: keepAlive, isReusable: true, at: now)
        case .streamReleased(let id):
            actions = machine.streamReleased(on: id, at: now)
        case .streamCapacityChanged(let id, let capacity):
            actions = machine.streamCapacityChanged(id, to: capacity, at: now)
        case .goingAway(let id):
            actions = machine.connectionGoingAway(id, at: now)
        case .closed(let id, let closer):
            connections[id] = nil
            actions = machine.connectionClosed(id, by: closer, at: now)
        case .timerFired(let timer):
            actions = machine.timerFired(timer, at: now)
        case .shutdown(let mode):
            actions = machine.shutdownRequested(mode, at: now)
        case .prewarm(let origin, let count):
            actions = machine.prewarm(origin: origin, connections: count, at: now)
        }
        // Each action is moved out and consumed, not copied: a copy and its destroy went through
        // the enum's outlined value witnesses on every event.
        actions.reverse()
        while let action = actions.popLast() { perform(action) }
        machine.recycle(&actions)
    }

    private func perform(_ action: consuming Pool.Action) {
        switch consume action {
        case .createConnection(let id, let origin):
            createConnection(id, to: origin)
        case .leaseConnection(let id, let requestID, let isReused):
            guard let exchange = requests.removeValue(forKey: requestID), let connection = connections[id],
                let driver = connection.driver
            else {
                preconditionFailure("ConnectionPoolRunner: lease of \(id) to \(requestID), one of them unknown")
            }
            // Exchange faults act on an HTTP/1.1 connection's byte stream; an HTTP/2 connection
            // carries other requests' streams too, so only connect faults reach it.
            if let injector = settings.faultInjector, case .http1(let http1) = driver {
                injectFault(from: injector, into: exchange, on: http1)
            }
            exchange.leased(driver.leased, isReused: isReused, timings: connection.timings)
        case .enqueueRequest:
            break
        case .failRequest(let requestID, let failure):
            guard let exchange = requests.removeValue(forKey: requestID) else {
                preconditionFailure("ConnectionPoolRunner: failRequest(\(requestID)) of an unknown request")
            }
            exchange.finish(.failure(transportError(failure, of: exchange)))
        case .closeConnection(let id, _):
            guard let connection = connections[id] else {
                preconditionFailure("ConnectionPoolRunner: closeConnection(\(id)) of an unknown connection")
            }
            connection.closeRequested = true
            connection.driver?.close()
        case .scheduleTimer(let timer):
            timers[timer.id] = timer
            armPoolTimer(at: timer.deadline)
        case .cancelTimer(let timer):
            // The loop timer stays armed; when it fires it finds this one gone.
            timers[timer.id] = nil
        case .shutdownComplete:
            isShutDown = true
            let waiters = shutdownWaiters
            shutdownWaiters = []
            for waiter in waiters { waiter() }
        }
    }

    // MARK: - Timers

    /// Makes sure the loop timer fires by `due` (an armed one due no later is kept).
    private func armPoolTimer(at due: Deadline) {
        if let armed = poolTimerDue, armed <= due { return }
        poolTimer?.cancel()
        poolTimerDue = due
        poolTimer = loop.schedule(at: due) { [self] in poolTimerFired() }
    }

    /// Fires the machine's due timers, in deadline order (then scheduling order), and arms the
    /// loop timer for the earliest left.
    private func poolTimerFired() {
        poolTimer = nil
        poolTimerDue = nil
        let now = Deadline.now()
        let due = timers.values.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        for timer in due where timers.removeValue(forKey: timer.id) != nil {
            submit(.timerFired(timer))
        }
        if let next = timers.values.map(\.deadline).min() { armPoolTimer(at: next) }
    }

    // MARK: - Connections

    /// Opens connection `id` to `origin`. Each of its phases ends by the latest deadline among
    /// the origin's waiting requests (no later than its own limits): a connection nobody can
    /// still use is not worth waiting for, and a stalled server keeps no socket past the
    /// requests that wanted it. With no waiter (a prewarm), only its own limits apply.
    private func createConnection(_ id: PoolConnectionID, to origin: TransportOrigin) {
        let connection = PooledConnection(id: id, origin: origin, runner: self)
        connections[id] = connection
        var latest: Deadline?
        for exchange in requests.values where exchange.request.origin == origin {
            latest = max(latest ?? exchange.deadline, exchange.deadline)
        }
        connection.attemptDeadline = latest ?? .distantFuture
        connection.injectedFault = settings.faultInjector?.connectFault(host: origin.host)
        connector.connect(
            to: origin, deadline: connection.attemptDeadline, on: loop, fault: connection.injectedFault?.fault,
            phase: { [self] phase in connections[id]?.connectPhase = phase }
        ) { [self] result in
            // Off the loop only when it has shut down: nothing is left to report to.
            guard loop.inEventLoop, let connection = connections[id] else { return }
            connected(connection, result)
        }
    }

    private func connected(
        _ connection: PooledConnection, _ result: Result<TransportConnector.Connected, StreamChannelError>
    ) {
        let phase = connection.connectPhase
        connection.connectPhase = nil
        switch result {
        case .success(let connected):
            connection.timings = connected.timings
            let speaksHTTP2: Bool
            switch settings.speaksHTTP2(on: connected.channel, origin: connection.origin) {
            case .success(let isHTTP2): speaksHTTP2 = isHTTP2
            case .failure(let error):
                connected.channel.close()
                return self.connected(connection, .failure(error))
            }
            if speaksHTTP2 {
                // Established once the server's first SETTINGS say how many streams it takes.
                var http2 = settings.http2
                http2.idleTimeout = settings.driver.idleTimeout
                let driver = HTTP2ConnectionDriver(channel: connected.channel, settings: http2, owner: connection)
                connection.driver = .http2(driver)
                driver.start()
                if connection.closeRequested { driver.close() }
                return
            }
            let channel: any StreamChannel =
                settings.faultInjector == nil ? connected.channel : FaultInjectingChannel(wrapping: connected.channel)
            let driver = HTTP1ConnectionDriver(channel: channel, settings: settings.driver, owner: connection)
            connection.driver = .http1(driver)
            driver.start()
            if connection.closeRequested {
                // The pool abandoned the attempt; the driver's close report answers it.
                driver.close()
            } else {
                connection.isEstablished = true
                submit(.established(connection.id, streamCapacity: nil))
            }
        case .failure(let error):
            if connection.closeRequested {
                submit(.closed(connection.id, .local))
            } else {
                connections[connection.id] = nil
                if let injected = connection.injectedFault {
                    for exchange in requests.values where exchange.request.origin == connection.origin {
                        exchange.injectedFaults.append(injected)
                    }
                }
                if let phase, connection.attemptDeadline.hasPassed(at: .now()) {
                    expireWaiters(of: connection.origin, in: phase)
                }
                submit(.attemptFailed(connection.id, error))
            }
        }
    }

    /// Asks `injector` for the fault of the exchange about to start on `driver` and arms the
    /// connection with it (or with none); the exchange records what was injected.
    private func injectFault(
        from injector: FaultInjector, into exchange: TransportExchange, on driver: HTTP1ConnectionDriver
    ) {
        guard let channel = driver.channel as? FaultInjectingChannel else {
            preconditionFailure("ConnectionPoolRunner: a connection made with a fault injector is not wrapped")
        }
        let injected = injector.exchangeFault(host: exchange.request.host)
        channel.arm(injected?.fault)
        if let injected { exchange.injectedFaults.append(injected) }
    }

    /// The attempt ended at the deadline of the requests it was made for: those whose deadline
    /// has passed leave the pool now, timed out in `phase`, rather than at their own pool-wait
    /// timer an instant later with only the attempt's error to show for it (rule: one deadline
    /// ends a request in the phase it was in, whichever timer fires first).
    private func expireWaiters(of origin: TransportOrigin, in phase: ConnectPhase) {
        let now = Deadline.now()
        for exchange in requests.values
        where exchange.request.origin == origin && exchange.deadline.hasPassed(at: now) {
            exchange.expiredWhileConnecting = phase
            submit(.requestCancelled(exchange))
        }
    }

    /// The phase of the furthest of `origin`'s connections being made, if any is.
    private func connectingPhase(of origin: TransportOrigin) -> ConnectPhase? {
        var furthest: ConnectPhase?
        for connection in connections.values where connection.origin == origin {
            guard let phase = connection.connectPhase else { continue }
            furthest = max(furthest ?? phase, phase)
        }
        return furthest
    }

    /// A connection's driver reported its end. An HTTP/2 connection that closed before the
    /// server's first SETTINGS was never established: its attempt failed.
    fileprivate func connectionEnded(_ connection: PooledConnection, error: StreamChannelError?) {
        if !connection.closeRequested, case .http2 = connection.driver, !connection.isEstablished {
            connections[connection.id] = nil
            return submit(.attemptFailed(connection.id, error ?? .reactor(.channelClosed)))
        }
        let closer: Pool.ClosedBy =
            if connection.closeRequested { .local } else if let error { .error(error) } else { .peer }
        submit(.closed(connection.id, closer))
    }

    fileprivate func http2ConnectionReady(_ connection: PooledConnection, streamCapacity: Int) {
        guard !connection.closeRequested else { return }
        connection.isEstablished = true
        submit(.established(connection.id, streamCapacity: max(1, streamCapacity)))
    }

    fileprivate func streamCapacityChanged(_ connection: PooledConnection, streamCapacity: Int) {
        guard connection.isEstablished else { return }
        submit(.streamCapacityChanged(connection.id, max(1, streamCapacity)))
    }

    fileprivate func streamReleased(_ connection: PooledConnection) {
        guard connection.isEstablished else { return }
        submit(.streamReleased(connection.id))
    }

    fileprivate func connectionGoingAway(_ connection: PooledConnection) {
        guard connection.isEstablished else { return }
        submit(.goingAway(connection.id))
    }

    fileprivate func connectionReleased(_ connection: PooledConnection, keepAlive: KeepAliveHint?) {
        submit(.becameIdle(connection.id, keepAlive))
    }

    // MARK: - Classification

    /// Whether another attempt could succeed: refused, reset, timed out could; an unknown name,
    /// a TLS handshake or trust refusal, a proxy that refuses or breaks the tunnel, or a bad
    /// configuration fail the same way again.
    static func isRetryable(_ error: StreamChannelError) -> Bool { error.isRetryable }

    /// What a request the pool failed hears. When its own deadline ended its wait while a
    /// connection to its origin was being made, the timeout names that connection's phase
    /// (resolving and connecting, a proxy's CONNECT, the TLS handshake), not the pool.
    private func transportError(_ failure: Pool.RequestFailure, of exchange: TransportExchange) -> TransportError {
        if let phase = exchange.expiredWhileConnecting { return .timedOut(.connect(phase)) }
        if case .poolWaitTimeout = failure, exchange.deadline.hasPassed(at: .now()),
            let phase = connectingPhase(of: exchange.request.origin)
        {
            return .timedOut(.connect(phase))
        }
        return Self.transportError(failure)
    }

    static func transportError(_ failure: Pool.RequestFailure) -> TransportError {
        switch failure {
        case .poolWaitTimeout(let last): .poolWaitTimeout(lastConnectionFailure: last)
        case .connectionFailed(let error): .connectFailed(error)
        case .shutdown: .shutdown
        case .cancelled: .cancelled
        }
    }
}

/// One connection of the pool: its driver once connected, and whether the pool asked to close it.
/// Loop-confined like the runner.
final class PooledConnection: HTTP1ConnectionDriverOwner, HTTP2ConnectionDriverOwner {
    /// The driver of either protocol.
    enum Driver {
        case http1(HTTP1ConnectionDriver)
        case http2(HTTP2ConnectionDriver)

        /// What a request leased this connection runs on.
        var leased: LeasedConnection {
            switch self {
            case .http1(let driver): .http1(driver)
            case .http2(let driver): .http2(driver)
            }
        }

        func close() {
            switch self {
            case .http1(let driver): driver.close()
            case .http2(let driver): driver.close()
            }
        }
    }

    let id: PoolConnectionID
    let origin: TransportOrigin
    unowned let runner: ConnectionPoolRunner
    /// Where the attempt stands while the connection is being made; nil once it is made or failed.
    @exclusivity(unchecked) var connectPhase: ConnectPhase?
    /// The deadline the attempt was given: the latest of its origin's waiters' when it began.
    @exclusivity(unchecked) var attemptDeadline = Deadline.distantFuture
    /// How long resolving, connecting and the TLS handshake took, once connected.
    @exclusivity(unchecked) var timings: ConnectionTimings?
    @exclusivity(unchecked) var driver: Driver?
    /// The pool was told the connection is established (for HTTP/2, after the server's first
    /// SETTINGS; for HTTP/1.1, once connected).
    @exclusivity(unchecked) var isEstablished = false
    /// The pool asked for the close (or abandoned the attempt): its end is reported `.local`.
    @exclusivity(unchecked) var closeRequested = false
    /// The connect fault a `FaultInjector` chose for this connection's dial, if any.
    @exclusivity(unchecked) var injectedFault: InjectedFault?

    init(id: PoolConnectionID, origin: TransportOrigin, runner: ConnectionPoolRunner) {
        self.id = id
        self.origin = origin
        self.runner = runner
    }

    func connectionReleased(_ driver: HTTP1ConnectionDriver, keepAlive: KeepAliveHint?) {
        runner.connectionReleased(self, keepAlive: keepAlive)
    }

    func connectionClosed(_ driver: HTTP1ConnectionDriver, error: StreamChannelError?) {
        runner.connectionEnded(self, error: error)
    }

    func connectionReady(_ driver: HTTP2ConnectionDriver, streamCapacity: Int) {
        runner.http2ConnectionReady(self, streamCapacity: streamCapacity)
    }

    func streamCapacityChanged(_ driver: HTTP2ConnectionDriver, streamCapacity: Int) {
        runner.streamCapacityChanged(self, streamCapacity: streamCapacity)
    }

    func streamReleased(_ driver: HTTP2ConnectionDriver) {
        runner.streamReleased(self)
    }

    func connectionGoingAway(_ driver: HTTP2ConnectionDriver) {
        runner.connectionGoingAway(self)
    }

    func connectionClosed(_ driver: HTTP2ConnectionDriver, error: StreamChannelError?) {
        runner.connectionEnded(self, error: error)
    }
}
