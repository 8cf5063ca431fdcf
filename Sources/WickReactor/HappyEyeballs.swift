// Happy Eyeballs v2 (RFC 8305) connection racing, as a pure state machine: events in, actions out.
//
// Rules (RFC 8305 sections in brackets):
// - Addresses come from one `getaddrinfo` call, already in the system's RFC 6724 order, so the
//   separate AAAA/A queries and the Resolution Delay of §3 do not apply.
// - The list is interleaved by family, starting with the family of the first address, one
//   address of each in turn (§4, "First Address Family Count" = 1).
// - One attempt starts at once; the next starts when the Connection Attempt Delay passes
//   (250 ms default, §5) or as soon as an attempt fails, whichever comes first.
// - The first attempt to connect wins; every other attempt in flight is closed (§5).
// - The caller's overall timeout covers resolution and every attempt; when it fires, attempts in
//   flight are closed and the error lists the attempts that had failed.
// - When every address has failed, the error lists each attempt's address and error, in order.
// Time is an argument; the machine never reads a clock and never touches a socket.
import WickCore

/// The decisions of a Happy Eyeballs connect. `HappyEyeballsConnect` performs its actions.
struct HappyEyeballs {
    /// Identifies one connection attempt, in the order attempts were started (0, 1, ...).
    typealias AttemptID = Int

    /// What the runner must do, in order.
    enum Action: Equatable {
        /// Open a socket and connect it to this address.
        case startAttempt(AttemptID, SocketAddress)
        /// Arm the attempt-delay timer for `deadline`, replacing any armed one.
        case armAttemptTimer(at: Deadline)
        /// Disarm the attempt-delay timer.
        case disarmAttemptTimer
        /// Close this attempt's socket; it lost or was abandoned.
        case cancelAttempt(AttemptID)
        /// Hand this attempt's connected channel to the caller: the connect succeeded.
        case succeed(AttemptID)
        /// Report this error to the caller: the connect failed.
        case fail(ReactorError)
    }

    private struct Racing {
        var remaining: [SocketAddress]
        var inFlight: [AttemptID: SocketAddress] = [:]
        var failures: [ConnectAttemptFailure] = []
        var nextID: AttemptID = 0
        var timerArmed = false
    }

    private enum State {
        case resolving
        case racing(Racing)
        case finished
    }

    private let host: String
    private let attemptDelay: Duration
    private let timeout: Duration
    private var state = State.resolving

    /// A connect to `host` that staggers attempts by `attemptDelay`; `timeout` is only used to
    /// describe a timeout in the error.
    init(host: String, attemptDelay: Duration, timeout: Duration) {
        self.host = host
        self.attemptDelay = attemptDelay
        self.timeout = timeout
    }

    /// Whether the connect has succeeded or failed.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Orders addresses per RFC 8305 §4: alternate families, starting with the first address's.
    static func interleave(_ addresses: [SocketAddress]) -> [SocketAddress] {
        guard let first = addresses.first else { return [] }
        let preferred = addresses.filter { $0.isIPv6 == first.isIPv6 }
        let other = addresses.filter { $0.isIPv6 != first.isIPv6 }
        var result: [SocketAddress] = []
        result.reserveCapacity(addresses.count)
        for index in 0..<max(preferred.count, other.count) {
            if index < preferred.count { result.append(preferred[index]) }
            if index < other.count { result.append(other[index]) }
        }
        return result
    }

    /// The resolver returned `addresses` at `now`.
    mutating func addressesResolved(_ addresses: [SocketAddress], now: Deadline) -> [Action] {
        switch state {
        case .resolving:
            guard !addresses.isEmpty else {
                state = .finished
                return [.fail(.unknownHost(host))]
            }
            var racing = Racing(remaining: Self.interleave(addresses))
            let actions = startNext(&racing, now: now)
            state = .racing(racing)
            return actions
        case .finished:
            return []  // the timeout won the race with the resolver
        case .racing:
            preconditionFailure("HappyEyeballs: addressesResolved in state racing")
        }
    }

    /// The resolver failed.
    mutating func resolutionFailed(_ error: ReactorError) -> [Action] {
        switch state {
        case .resolving:
            state = .finished
            return [.fail(error)]
        case .finished:
            return []
        case .racing:
            preconditionFailure("HappyEyeballs: resolutionFailed in state racing")
        }
    }

    /// Attempt `id` connected.
    mutating func attemptSucceeded(_ id: AttemptID) -> [Action] {
        guard case .racing(var racing) = state else {
            preconditionFailure("HappyEyeballs: attemptSucceeded(\(id)) in state \(state)")
        }
        precondition(
            racing.inFlight.removeValue(forKey: id) != nil,
            "HappyEyeballs: attempt \(id) succeeded but is not in flight")
        state = .finished
        var actions: [Action] = []
        if racing.timerArmed { actions.append(.disarmAttemptTimer) }
        actions += racing.inFlight.keys.sorted().map { .cancelAttempt($0) }
        actions.append(.succeed(id))
        return actions
    }

    /// Attempt `id` failed with `error` at `now`: start the next address at once, or fail if
    /// none is left and nothing is in flight.
    mutating func attemptFailed(_ id: AttemptID, error: ReactorError, now: Deadline) -> [Action] {
        guard case .racing(var racing) = state else {
            preconditionFailure("HappyEyeballs: attemptFailed(\(id)) in state \(state)")
        }
        guard let address = racing.inFlight.removeValue(forKey: id) else {
            preconditionFailure("HappyEyeballs: attempt \(id) failed but is not in flight")
        }
        racing.failures.append(ConnectAttemptFailure(address: address, error: error))
        if !racing.remaining.isEmpty {
            let actions = startNext(&racing, now: now)
            state = .racing(racing)
            return actions
        }
        if racing.inFlight.isEmpty {
            state = .finished
            return (racing.timerArmed ? [.disarmAttemptTimer] : []) + [
                .fail(.connectFailed(host: host, attempts: racing.failures))
            ]
        }
        state = .racing(racing)
        return []
    }

    /// The attempt-delay timer fired at `now`: start the next address.
    mutating func attemptTimerFired(now: Deadline) -> [Action] {
        guard case .racing(var racing) = state else {
            preconditionFailure("HappyEyeballs: attemptTimerFired in state \(state)")
        }
        racing.timerArmed = false
        let actions = racing.remaining.isEmpty ? [] : startNext(&racing, now: now)
        state = .racing(racing)
        return actions
    }

    /// The overall timeout passed: abandon everything.
    mutating func timedOut() -> [Action] {
        switch state {
        case .resolving:
            state = .finished
            return [.fail(.resolutionTimedOut(host: host, timeout: timeout))]
        case .racing(let racing):
            state = .finished
            return (racing.timerArmed ? [.disarmAttemptTimer] : [])
                + racing.inFlight.keys.sorted().map { .cancelAttempt($0) }
                + [.fail(.connectTimedOut(host: host, timeout: timeout, attempts: racing.failures))]
        case .finished:
            preconditionFailure("HappyEyeballs: timedOut in state finished")
        }
    }

    /// Something outside the race ended it (the loop is shutting down): abandon everything.
    mutating func aborted(_ error: ReactorError) -> [Action] {
        switch state {
        case .resolving:
            state = .finished
            return [.fail(error)]
        case .racing(let racing):
            state = .finished
            return (racing.timerArmed ? [.disarmAttemptTimer] : [])
                + racing.inFlight.keys.sorted().map { .cancelAttempt($0) }
                + [.fail(error)]
        case .finished:
            return []
        }
    }

    private func startNext(_ racing: inout Racing, now: Deadline) -> [Action] {
        let address = racing.remaining.removeFirst()
        let id = racing.nextID
        racing.nextID += 1
        racing.inFlight[id] = address
        var actions: [Action] = [.startAttempt(id, address)]
        if !racing.remaining.isEmpty {
            racing.timerArmed = true
            actions.append(.armAttemptTimer(at: now + attemptDelay))
        } else if racing.timerArmed {
            racing.timerArmed = false
            actions.append(.disarmAttemptTimer)
        }
        return actions
    }
}
