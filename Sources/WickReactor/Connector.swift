// Opens channels: resolve, then race addresses with Happy Eyeballs; or connect one address.
public import WickCore

/// How a `Connector` connects. Every bound is named here.
public struct ConnectOptions: Sendable, Hashable {
    /// The limit for the whole connect: resolution plus every attempt. 10 s by default. A
    /// caller's deadline (`Connector.connect(...deadline:...)`) ends it sooner.
    public var timeout: Duration
    /// RFC 8305's Connection Attempt Delay: how long an attempt runs alone before the next
    /// address is tried too. 250 ms by default (the RFC's recommendation; it advises 100 ms–2 s,
    /// and a value under its 10 ms floor counts as 10 ms).
    public var connectionAttemptDelay: Duration
    /// RFC 8305's Resolution Delay: how long IPv4 addresses that arrive before the AAAA answer
    /// wait for it, so that IPv6 is tried first. 50 ms by default (the RFC's recommendation);
    /// zero connects with the first answer.
    public var resolutionDelay: Duration
    /// The settings applied to the socket and the channel.
    public var socket: SocketOptions

    /// The defaults described on each property.
    public init(
        timeout: Duration = .seconds(10), connectionAttemptDelay: Duration = .milliseconds(250),
        resolutionDelay: Duration = .milliseconds(50), socket: SocketOptions = SocketOptions()
    ) {
        self.timeout = timeout
        self.connectionAttemptDelay = connectionAttemptDelay
        self.resolutionDelay = resolutionDelay
        self.socket = socket
    }
}

/// Opens connected, not yet started channels on a loop.
///
/// The completion runs on the loop the channel belongs to; start the channel there with
/// `channel.start(delegate:)`. Nothing is read before that. When `connect` is called on the
/// loop itself, the completion may run before `connect` returns (an address that fails at once).
public struct Connector: Sendable {
    /// Where host names are resolved: the group's `Resolver`, or any other `HostResolving`.
    public let resolver: any HostResolving
    /// How connects are made.
    public var options: ConnectOptions

    /// A connector resolving through `resolver` (usually `group.resolver`).
    public init(resolver: any HostResolving, options: ConnectOptions = ConnectOptions()) {
        self.resolver = resolver
        self.options = options
    }

    /// Connects to `host:port` on `loop`: resolves the name (numeric hosts skip the resolver),
    /// IPv6 and IPv4 apart when the resolver can (`HostResolving.resolveByFamily`), and races the
    /// addresses per RFC 8305 as they arrive, all within `options.timeout` and by `deadline`,
    /// whichever comes first. `completion` runs once, on `loop`, with the winning channel or a
    /// `ReactorError`: `.unknownHost`, `.resolutionFailed`, `.connectFailed` (every attempt
    /// listed), `.resolutionTimedOut` (the time ran out before the resolver answered),
    /// `.connectTimedOut`, or `.loopShutDown`. Callable from any thread; if `loop` has already
    /// shut down, `completion` runs at once on the caller's thread.
    public func connect(
        host: String, port: UInt16, deadline: Deadline = .distantFuture, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
    ) {
        let options = self.options
        let resolver = self.resolver
        let begin = { @Sendable in
            HappyEyeballsConnect(
                host: host, port: port, loop: loop, options: options, deadline: deadline, completion: completion
            )
            .start(resolver: resolver)
        }
        if loop.inEventLoop { begin() } else if !loop.execute(begin) { completion(.failure(.loopShutDown)) }
    }

    /// Connects to one `address` (TCP or a Unix socket path) on `loop`, within `options.timeout`
    /// and by `deadline`, whichever comes first. `completion` runs once, on `loop`, with the
    /// channel or the attempt's `ReactorError` (`.connectFailed` naming the attempt's error,
    /// `.connectTimedOut`, ...). Callable from any thread; if `loop` has already shut down,
    /// `completion` runs at once on the caller's thread.
    public func connect(
        to address: SocketAddress, deadline: Deadline = .distantFuture, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
    ) {
        let options = self.options
        let begin = { @Sendable in
            HappyEyeballsConnect(
                host: address.description, port: 0, loop: loop, options: options, deadline: deadline,
                completion: completion
            )
            .start(address: address)
        }
        if loop.inEventLoop { begin() } else if !loop.execute(begin) { completion(.failure(.loopShutDown)) }
    }

    /// `connect(host:port:on:_:)` for async callers. Throws the `ReactorError` the completion
    /// would carry.
    public func connect(
        host: String, port: UInt16, deadline: Deadline = .distantFuture, on loop: EventLoop
    ) async throws(ReactorError) -> Channel {
        let result = await awaitCallback { deliver in
            connect(host: host, port: port, deadline: deadline, on: loop, deliver)
        }
        return try result.get()
    }

    /// `connect(to:on:_:)` for async callers. Throws the `ReactorError` the completion would carry.
    public func connect(
        to address: SocketAddress, deadline: Deadline = .distantFuture, on loop: EventLoop
    ) async throws(ReactorError) -> Channel {
        let result = await awaitCallback { deliver in connect(to: address, deadline: deadline, on: loop, deliver) }
        return try result.get()
    }
}

/// Runs a `HappyEyeballs` machine on a loop: performs its actions with real sockets and timers.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every `var` is touched only on
/// `loop`'s thread. The object is created there and its only cross-thread path, the resolver's
/// completion, arrives through `loop.execute`. `Sendable` is needed only to be captured there.
final class HappyEyeballsConnect: @unchecked Sendable {
    private enum Event {
        case succeeded(HappyEyeballs.AttemptID, Channel)
        case failed(HappyEyeballs.AttemptID, ReactorError)
    }

    private let host: String
    private let port: UInt16
    private let loop: EventLoop
    private let options: ConnectOptions
    /// When the connect gives up: `options.timeout` from its creation, or the caller's deadline
    /// if that comes first.
    private let giveUpAt: Deadline
    private let completion: @Sendable (Result<Channel, ReactorError>) -> Void

    private var machine: HappyEyeballs
    private var attempts: [HappyEyeballs.AttemptID: ConnectAttempt] = [:]
    private var winners: [HappyEyeballs.AttemptID: Channel] = [:]
    private var attemptTimer: Scheduled?
    private var timeoutTimer: Scheduled?
    /// Attempt results that arrived while actions were being performed (an attempt can fail
    /// inside `startAttempt`); handled in order once the current batch is done.
    private var deferred: [Event] = []
    private var isPerforming = false
    /// Armed while IPv4 addresses wait for the AAAA answer (the Resolution Delay).
    private var resolutionTimer: Scheduled?
    /// When the resolver was asked; nil for a numeric host or a given address, which are not
    /// looked up.
    private var resolveStarted: Deadline?
    /// How long resolution took, up to the first attempt (the Resolution Delay included).
    private var resolveDuration: Duration?

    init(
        host: String, port: UInt16, loop: EventLoop, options: ConnectOptions, deadline: Deadline,
        completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
    ) {
        self.host = host
        self.port = port
        self.loop = loop
        self.options = options
        self.completion = completion
        let now = Deadline.now()
        giveUpAt = (now + options.timeout).earliest(deadline)
        // The error describes the time the connect really had.
        let allowed = giveUpAt.hasPassed(at: now) ? .zero : giveUpAt - now
        self.machine = HappyEyeballs(
            host: host, attemptDelay: options.connectionAttemptDelay, resolutionDelay: options.resolutionDelay,
            timeout: allowed)
    }

    /// Arms the overall timeout and asks the resolver for addresses, by family when it can.
    func start(resolver: any HostResolving) {
        armTimeout()
        // A numeric host is not looked up (the resolver answers at once), so it has no resolve time.
        resolveStarted = SocketAddress(numericHost: host, port: port) == nil ? .now() : nil
        resolver.resolveByFamily(host: host, port: port, on: loop) { answer in
            switch answer {
            case .ipv6(.failure(.loopShutDown)), .ipv4(.failure(.loopShutDown)), .all(.failure(.loopShutDown)):
                self.perform(self.machine.aborted(.loopShutDown))
            default:
                self.perform(self.machine.answerReceived(answer, now: .now()))
            }
        }
    }

    /// Arms the overall timeout and connects to `address` without resolving.
    func start(address: SocketAddress) {
        armTimeout()
        perform(machine.answerReceived(.all(.success([address])), now: .now()))
    }

    private func armTimeout() {
        loop.assertInEventLoop()
        timeoutTimer = loop.scheduleLocal(
            at: giveUpAt,
            onShutdown: { self.perform(self.machine.aborted(.loopShutDown)) },
            { self.perform(self.machine.timedOut()) })
    }

    private func perform(_ actions: [HappyEyeballs.Action]) {
        loop.assertInEventLoop()
        precondition(!isPerforming, "HappyEyeballsConnect: re-entrant perform")
        isPerforming = true
        for action in actions { run(action) }
        isPerforming = false
        while !deferred.isEmpty && !machine.isFinished {
            let event = deferred.removeFirst()
            handle(event)
        }
        // Results for attempts that the finished machine no longer tracks: close the losers.
        for event in deferred {
            if case .succeeded(_, let channel) = event { channel.close() }
        }
        deferred.removeAll()
    }

    private func handle(_ event: Event) {
        switch event {
        case .succeeded(let id, let channel):
            winners[id] = channel
            perform(machine.attemptSucceeded(id))
        case .failed(let id, let error):
            if error == .loopShutDown {
                perform(machine.aborted(.loopShutDown))
            } else {
                perform(machine.attemptFailed(id, error: error, now: .now()))
            }
        }
    }

    private func run(_ action: HappyEyeballs.Action) {
        switch action {
        case .startAttempt(let id, let address):
            if let started = resolveStarted, resolveDuration == nil { resolveDuration = .now() - started }
            let attempt = ConnectAttempt.start(to: address, on: loop, options: options.socket) { result in
                self.attempts[id] = nil
                switch result {
                case .success(let channel): self.report(.succeeded(id, channel))
                case .failure(let error): self.report(.failed(id, error))
                }
            }
            // Store only if still running: an attempt that finished inside `start` is done.
            if let attempt, !isFinishedAttempt(id) { attempts[id] = attempt }
        case .armAttemptTimer(let deadline):
            attemptTimer?.cancel()
            attemptTimer = loop.scheduleLocal(at: deadline) {
                self.perform(self.machine.attemptTimerFired(now: .now()))
            }
        case .disarmAttemptTimer:
            attemptTimer?.cancel()
            attemptTimer = nil
        case .armResolutionTimer(let deadline):
            resolutionTimer = loop.scheduleLocal(at: deadline) {
                self.resolutionTimer = nil
                self.perform(self.machine.resolutionDelayPassed(now: .now()))
            }
        case .disarmResolutionTimer:
            resolutionTimer?.cancel()
            resolutionTimer = nil
        case .cancelAttempt(let id):
            attempts.removeValue(forKey: id)?.cancel()
        case .succeed(let id):
            timeoutTimer?.cancel()
            guard let channel = winners.removeValue(forKey: id) else {
                preconditionFailure("HappyEyeballsConnect: succeed(\(id)) without a channel")
            }
            channel.resolveDuration = resolveDuration
            completion(.success(channel))
        case .fail(let error):
            timeoutTimer?.cancel()
            attemptTimer?.cancel()
            completion(.failure(error))
        }
    }

    /// Ids whose result is queued in `deferred` finished during `start`.
    private func isFinishedAttempt(_ id: HappyEyeballs.AttemptID) -> Bool {
        deferred.contains { event in
            switch event {
            case .succeeded(let other, _), .failed(let other, _): other == id
            }
        }
    }

    private func report(_ event: Event) {
        if isPerforming {
            deferred.append(event)
        } else if machine.isFinished {
            if case .succeeded(_, let channel) = event { channel.close() }
        } else {
            handle(event)
        }
    }
}
