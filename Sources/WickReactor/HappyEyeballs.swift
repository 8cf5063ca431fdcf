// Happy Eyeballs v2 (RFC 8305) connection racing, as a pure state machine: events in, actions out.
//
// Rules (RFC 8305 sections in brackets):
// 1. Answers [§3]. The resolver answers once per family, `.ipv6` (the AAAA query) and `.ipv4`
//    (the A query), in whatever order they arrive; or once with `.all`, a list already in the
//    order to try (one `getaddrinfo` call, a `--resolve` override, a user resolver that gives one
//    list). An empty list or a failure is a negative answer.
// 2. A positive AAAA answer starts the first attempt at once, whether the A answer came or not.
// 3. A positive A answer while the AAAA answer is outstanding waits the Resolution Delay (50 ms
//    by default) for it: a positive AAAA answer within the delay starts with IPv6, both lists
//    interleaved; a negative one, or the delay passing, starts with IPv4. A zero delay waits not.
// 4. A negative answer waits for the other family. When both are negative the connect fails with
//    the first failure that says more than "no such name", else `.unknownHost`.
// 5. Order [§4]. The addresses are interleaved by family, starting with the first address's
//    family ("First Address Family Count" = 1). Addresses that arrive once attempts have started
//    [§3, §6] join those not yet tried, interleaved again starting with the family other than
//    the last attempt's.
// 6. Attempts [§5]. One attempt starts at a time; the next starts when the Connection Attempt
//    Delay (250 ms by default, never under 10 ms, §5's floor) has passed since the last start, or
//    as soon as an attempt fails, whichever comes first. Late addresses that find no attempt in
//    flight start at once; those that find one wait out its delay.
// 7. The first attempt to connect wins; every other attempt in flight is closed, and answers
//    that arrive later are ignored [§5].
// 8. When every attempt has failed and no answer is outstanding, the connect fails listing each
//    attempt's address and error, in the order they failed; while an answer is outstanding, it
//    waits for it.
// 9. The caller's overall timeout covers resolution (the Resolution Delay included) and every
//    attempt: when it fires, timers are disarmed, attempts in flight closed, and the error lists
//    the attempts that had failed (`.resolutionTimedOut` if none had started).
// Time is an argument; the machine never reads a clock and never touches a socket.
import WickCore

/// The decisions of a Happy Eyeballs connect. `HappyEyeballsConnect` performs its actions.
struct HappyEyeballs {
    /// Identifies one connection attempt, in the order attempts were started (0, 1, ...).
    typealias AttemptID = Int

    /// The shortest Connection Attempt Delay: RFC 8305 §5 forbids starting an attempt within
    /// 10 ms of the previous one. A smaller configured delay is raised to it.
    static let minimumAttemptDelay = Duration.milliseconds(10)

    /// What the runner must do, in order.
    enum Action: Equatable {
        /// Open a socket and connect it to this address.
        case startAttempt(AttemptID, SocketAddress)
        /// Arm the Resolution Delay timer for `deadline` (rule 3).
        case armResolutionTimer(at: Deadline)
        /// Disarm the Resolution Delay timer.
        case disarmResolutionTimer
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

    /// Which answers are still to come, and the failure to report if none has an address.
    private struct Answers: Equatable {
        var awaitingIPv6 = true
        var awaitingIPv4 = true
        /// The first negative answer's error that says more than "no such name" (rule 4).
        var failure: ReactorError?

        var isComplete: Bool { !awaitingIPv6 && !awaitingIPv4 }
    }

    private struct Resolving {
        var answers = Answers()
        /// IPv4 addresses that came before the AAAA answer, held while the Resolution Delay
        /// runs (rule 3); empty otherwise, so non-empty exactly while that timer is armed.
        var heldIPv4: [SocketAddress] = []
    }

    private struct Racing {
        var answers: Answers
        var remaining: [SocketAddress]
        var inFlight: [AttemptID: SocketAddress] = [:]
        var failures: [ConnectAttemptFailure] = []
        var nextID: AttemptID = 0
        var timerArmed = false
        /// When the last attempt started, and its family (rules 5 and 6).
        var lastStart: Deadline
        var lastStartWasIPv6: Bool
    }

    private enum State {
        case resolving(Resolving)
        case racing(Racing)
        case finished
    }

    private let host: String
    private let attemptDelay: Duration
    private let resolutionDelay: Duration
    private let timeout: Duration
    private var state = State.resolving(Resolving())

    /// A connect to `host` that waits up to `resolutionDelay` for IPv6 addresses after IPv4 ones
    /// arrive and staggers attempts by `attemptDelay` (at least `minimumAttemptDelay`); `timeout`
    /// is only used to describe a timeout in the error.
    init(host: String, attemptDelay: Duration, resolutionDelay: Duration, timeout: Duration) {
        self.host = host
        self.attemptDelay = max(attemptDelay, Self.minimumAttemptDelay)
        self.resolutionDelay = resolutionDelay
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
        return interleave(addresses, startingWithIPv6: first.isIPv6)
    }

    /// Alternates families, starting with IPv6 if `startingWithIPv6` (and there is one), each
    /// family's addresses kept in their order.
    static func interleave(_ addresses: [SocketAddress], startingWithIPv6: Bool) -> [SocketAddress] {
        let preferred = addresses.filter { $0.isIPv6 == startingWithIPv6 }
        let other = addresses.filter { $0.isIPv6 != startingWithIPv6 }
        var result: [SocketAddress] = []
        result.reserveCapacity(addresses.count)
        for index in 0..<max(preferred.count, other.count) {
            if index < preferred.count { result.append(preferred[index]) }
            if index < other.count { result.append(other[index]) }
        }
        return result
    }

    /// The resolver answered at `now` (rules 1-5).
    mutating func answerReceived(_ answer: ResolverAnswer, now: Deadline) -> [Action] {
        switch state {
        case .finished:
            return []  // rule 7 or 9: the connect ended before this answer
        case .resolving(var resolving):
            switch answer {
            case .all(let result):
                precondition(
                    resolving.answers == Answers(), "HappyEyeballs: an answer with every address in state \(state)")
                guard case .success(let addresses) = result, !addresses.isEmpty else {
                    state = .finished
                    return [.fail(result.failure ?? .unknownHost(host))]
                }
                resolving.answers = Answers(awaitingIPv6: false, awaitingIPv4: false)
                return startRacing(Self.interleave(addresses), answers: resolving.answers, now: now)
            case .ipv6(let result):
                let addresses = record(result, ipv6: true, in: &resolving.answers)
                let held = resolving.heldIPv4
                guard !addresses.isEmpty || !held.isEmpty else { return waitForTheOtherFamily(resolving) }
                // Rules 2 and 3: IPv6 first when it has addresses, the held IPv4 ones otherwise.
                return (held.isEmpty ? [] : [.disarmResolutionTimer])
                    + startRacing(Self.interleave(addresses + held), answers: resolving.answers, now: now)
            case .ipv4(let result):
                let addresses = record(result, ipv6: false, in: &resolving.answers)
                guard !addresses.isEmpty else { return waitForTheOtherFamily(resolving) }
                guard resolving.answers.awaitingIPv6, resolutionDelay > .zero else {
                    return startRacing(addresses, answers: resolving.answers, now: now)
                }
                resolving.heldIPv4 = addresses
                state = .resolving(resolving)
                return [.armResolutionTimer(at: now + resolutionDelay)]
            }
        case .racing(var racing):
            let addresses: [SocketAddress]
            switch answer {
            case .all:
                preconditionFailure("HappyEyeballs: an answer with every address in state \(state)")
            case .ipv6(let result):
                addresses = record(result, ipv6: true, in: &racing.answers)
            case .ipv4(let result):
                addresses = record(result, ipv6: false, in: &racing.answers)
            }
            let actions =
                addresses.isEmpty ? failIfNothingIsLeft(racing) : merge(addresses, into: &racing, now: now)
            if !isFinished { state = .racing(racing) }
            return actions
        }
    }

    /// The Resolution Delay passed at `now` without a positive AAAA answer: start with the held
    /// IPv4 addresses (rule 3).
    mutating func resolutionDelayPassed(now: Deadline) -> [Action] {
        guard case .resolving(let resolving) = state, !resolving.heldIPv4.isEmpty else {
            preconditionFailure("HappyEyeballs: resolutionDelayPassed in state \(state)")
        }
        return startRacing(resolving.heldIPv4, answers: resolving.answers, now: now)
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
    /// none is left, nothing is in flight and no answer is outstanding.
    mutating func attemptFailed(_ id: AttemptID, error: ReactorError, now: Deadline) -> [Action] {
        guard case .racing(var racing) = state else {
            preconditionFailure("HappyEyeballs: attemptFailed(\(id)) in state \(state)")
        }
        guard let address = racing.inFlight.removeValue(forKey: id) else {
            preconditionFailure("HappyEyeballs: attempt \(id) failed but is not in flight")
        }
        racing.failures.append(ConnectAttemptFailure(address: address, error: error))
        let actions = racing.remaining.isEmpty ? failIfNothingIsLeft(racing) : startNext(&racing, now: now)
        if !isFinished { state = .racing(racing) }
        return actions
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

    /// The overall timeout passed: abandon everything (rule 9).
    mutating func timedOut() -> [Action] {
        switch state {
        case .resolving(let resolving):
            state = .finished
            return (resolving.heldIPv4.isEmpty ? [] : [.disarmResolutionTimer])
                + [.fail(.resolutionTimedOut(host: host, timeout: timeout))]
        case .racing(let racing):
            state = .finished
            return abandon(racing)
                + [.fail(.connectTimedOut(host: host, timeout: timeout, attempts: racing.failures))]
        case .finished:
            preconditionFailure("HappyEyeballs: timedOut in state finished")
        }
    }

    /// Something outside the race ended it (the loop is shutting down): abandon everything.
    mutating func aborted(_ error: ReactorError) -> [Action] {
        switch state {
        case .resolving(let resolving):
            state = .finished
            return (resolving.heldIPv4.isEmpty ? [] : [.disarmResolutionTimer]) + [.fail(error)]
        case .racing(let racing):
            state = .finished
            return abandon(racing) + [.fail(error)]
        case .finished:
            return []
        }
    }

    // MARK: - Steps

    /// Marks the family answered and returns its addresses (empty for a negative answer, whose
    /// error is kept per rule 4).
    private func record(
        _ result: Result<[SocketAddress], ReactorError>, ipv6: Bool, in answers: inout Answers
    ) -> [SocketAddress] {
        let awaiting = ipv6 ? answers.awaitingIPv6 : answers.awaitingIPv4
        precondition(awaiting, "HappyEyeballs: a second \(ipv6 ? "IPv6" : "IPv4") answer in state \(state)")
        if ipv6 { answers.awaitingIPv6 = false } else { answers.awaitingIPv4 = false }
        switch result {
        case .success(let addresses):
            return addresses
        case .failure(.unknownHost):
            return []
        case .failure(let error):
            if answers.failure == nil { answers.failure = error }
            return []
        }
    }

    /// Rule 4 while resolving: wait for the other family, or fail when both were negative.
    private mutating func waitForTheOtherFamily(_ resolving: Resolving) -> [Action] {
        guard resolving.answers.isComplete else {
            state = .resolving(resolving)
            return []
        }
        state = .finished
        return [.fail(resolving.answers.failure ?? .unknownHost(host))]
    }

    private mutating func startRacing(_ addresses: [SocketAddress], answers: Answers, now: Deadline) -> [Action] {
        var racing = Racing(
            answers: answers, remaining: addresses, lastStart: now, lastStartWasIPv6: addresses[0].isIPv6)
        let actions = startNext(&racing, now: now)
        state = .racing(racing)
        return actions
    }

    /// Rules 5 and 6: late addresses join the untried ones, and start now or when the last
    /// attempt's delay has passed.
    private func merge(_ addresses: [SocketAddress], into racing: inout Racing, now: Deadline) -> [Action] {
        racing.remaining = Self.interleave(racing.remaining + addresses, startingWithIPv6: !racing.lastStartWasIPv6)
        guard !racing.inFlight.isEmpty else { return startNext(&racing, now: now) }
        guard !racing.timerArmed else { return [] }
        let due = racing.lastStart + attemptDelay
        guard !due.hasPassed(at: now) else { return startNext(&racing, now: now) }
        racing.timerArmed = true
        return [.armAttemptTimer(at: due)]
    }

    /// Rule 8: with nothing in flight, nothing left and no answer to come, the connect failed.
    private mutating func failIfNothingIsLeft(_ racing: Racing) -> [Action] {
        guard racing.inFlight.isEmpty, racing.remaining.isEmpty, racing.answers.isComplete else { return [] }
        // Nothing remains, so no attempt timer is armed (`startNext` disarmed it).
        state = .finished
        return [.fail(.connectFailed(host: host, attempts: racing.failures))]
    }

    private func abandon(_ racing: Racing) -> [Action] {
        (racing.timerArmed ? [.disarmAttemptTimer] : []) + racing.inFlight.keys.sorted().map { .cancelAttempt($0) }
    }

    private func startNext(_ racing: inout Racing, now: Deadline) -> [Action] {
        let address = racing.remaining.removeFirst()
        let id = racing.nextID
        racing.nextID += 1
        racing.inFlight[id] = address
        racing.lastStart = now
        racing.lastStartWasIPv6 = address.isIPv6
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

extension Result {
    /// The error of a failure; nil for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
