// The Happy Eyeballs machine, played without sockets: events in, actions out, time as an argument.
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor

@Suite struct HappyEyeballsTests {
    private let v6a = SocketAddress(numericHost: "2001:db8::1", port: 443)!
    private let v6b = SocketAddress(numericHost: "2001:db8::2", port: 443)!
    private let v4a = SocketAddress(numericHost: "192.0.2.1", port: 443)!
    private let v4b = SocketAddress(numericHost: "192.0.2.2", port: 443)!
    private let t0 = Deadline(uptimeNanoseconds: 1_000_000_000)
    private let delay = Duration.milliseconds(250)
    private let resolutionDelay = Duration.milliseconds(50)

    private func machine(
        attemptDelay: Duration = .milliseconds(250), resolutionDelay: Duration = .milliseconds(50)
    ) -> HappyEyeballs {
        HappyEyeballs(
            host: "example.test", attemptDelay: attemptDelay, resolutionDelay: resolutionDelay, timeout: .seconds(10))
    }

    @Test func interleavesStartingWithTheFirstFamily() {
        #expect(HappyEyeballs.interleave([v6a, v6b, v4a, v4b]) == [v6a, v4a, v6b, v4b])
        #expect(HappyEyeballs.interleave([v4a, v4b, v6a]) == [v4a, v6a, v4b])
        #expect(HappyEyeballs.interleave([v4a, v4b]) == [v4a, v4b])
        #expect(HappyEyeballs.interleave([]) == [])
        #expect(HappyEyeballs.interleave([v4a, v4b, v6a], startingWithIPv6: true) == [v6a, v4a, v4b])
    }

    // MARK: One list (`.all`): a single getaddrinfo, an override, a plain user resolver

    @Test func startsOneAttemptAndArmsTheDelay() {
        var he = machine()
        #expect(
            he.answerReceived(.all(.success([v6a, v4a])), now: t0) == [
                .startAttempt(0, v6a), .armAttemptTimer(at: t0 + delay),
            ])
    }

    @Test func aListStartingWithIPv4IsTriedInItsOrderWithoutTheResolutionDelay() {
        var he = machine()
        #expect(
            he.answerReceived(.all(.success([v4a, v6a])), now: t0) == [
                .startAttempt(0, v4a), .armAttemptTimer(at: t0 + delay),
            ])
    }

    @Test func aSingleAddressArmsNoTimer() {
        var he = machine()
        #expect(he.answerReceived(.all(.success([v4a])), now: t0) == [.startAttempt(0, v4a)])
        #expect(he.attemptSucceeded(0) == [.succeed(0)])
        #expect(he.isFinished)
    }

    @Test func theDelayStartsTheNextFamilyAndTheFirstSuccessWins() {
        var he = machine()
        _ = he.answerReceived(.all(.success([v6a, v6b, v4a])), now: t0)
        let t1 = t0 + delay
        #expect(he.attemptTimerFired(now: t1) == [.startAttempt(1, v4a), .armAttemptTimer(at: t1 + delay)])
        #expect(he.attemptSucceeded(1) == [.disarmAttemptTimer, .cancelAttempt(0), .succeed(1)])
        #expect(he.isFinished)
    }

    @Test func aFailureStartsTheNextAttemptAtOnce() {
        var he = machine()
        _ = he.answerReceived(.all(.success([v6a, v4a])), now: t0)
        let t1 = t0 + .milliseconds(3)
        #expect(
            he.attemptFailed(0, error: .networkUnreachable, now: t1) == [.startAttempt(1, v4a), .disarmAttemptTimer])
        #expect(he.attemptSucceeded(1) == [.succeed(1)])
    }

    @Test func everyFailureIsReportedInOrder() {
        var he = machine()
        _ = he.answerReceived(.all(.success([v6a, v4a])), now: t0)
        _ = he.attemptTimerFired(now: t0 + delay)
        #expect(he.attemptFailed(1, error: .connectionRefused, now: t0 + delay) == [])
        let expected = ReactorError.connectFailed(
            host: "example.test",
            attempts: [
                ConnectAttemptFailure(address: v4a, error: .connectionRefused),
                ConnectAttemptFailure(address: v6a, error: .hostUnreachable),
            ])
        #expect(he.attemptFailed(0, error: .hostUnreachable, now: t0 + delay) == [.fail(expected)])
        #expect(he.isFinished)
    }

    @Test func theTimeoutCancelsAttemptsInFlightAndListsFailures() {
        var he = machine()
        _ = he.answerReceived(.all(.success([v6a, v4a, v6b])), now: t0)
        _ = he.attemptFailed(0, error: .connectionRefused, now: t0)
        let actions = he.timedOut()
        #expect(
            actions == [
                .disarmAttemptTimer, .cancelAttempt(1),
                .fail(
                    .connectTimedOut(
                        host: "example.test", timeout: .seconds(10),
                        attempts: [
                            ConnectAttemptFailure(address: v6a, error: .connectionRefused)
                        ])),
            ])
    }

    @Test func resolutionOutcomes() {
        var failed = machine()
        #expect(
            failed.answerReceived(.all(.failure(.unknownHost("example.test"))), now: t0) == [
                .fail(.unknownHost("example.test"))
            ])
        var empty = machine()
        #expect(empty.answerReceived(.all(.success([])), now: t0) == [.fail(.unknownHost("example.test"))])
        var late = machine()
        #expect(late.timedOut() == [.fail(.resolutionTimedOut(host: "example.test", timeout: .seconds(10)))])
        #expect(late.answerReceived(.all(.success([v4a])), now: t0) == [], "a result after the timeout is ignored")
        var aborted = machine()
        _ = aborted.answerReceived(.all(.success([v4a, v6a])), now: t0)
        #expect(aborted.aborted(.loopShutDown) == [.disarmAttemptTimer, .cancelAttempt(0), .fail(.loopShutDown)])
    }

    // MARK: Answers per family (RFC 8305 §3)

    @Test func aPositiveAAAAAnswerFirstStartsAtOnce() {
        var he = machine()
        #expect(
            he.answerReceived(.ipv6(.success([v6a, v6b])), now: t0) == [
                .startAttempt(0, v6a), .armAttemptTimer(at: t0 + delay),
            ])
    }

    @Test func aPositiveAAnswerFirstWaitsTheResolutionDelay() {
        var he = machine()
        #expect(
            he.answerReceived(.ipv4(.success([v4a, v4b])), now: t0) == [.armResolutionTimer(at: t0 + resolutionDelay)])
        let t1 = t0 + resolutionDelay
        #expect(he.resolutionDelayPassed(now: t1) == [.startAttempt(0, v4a), .armAttemptTimer(at: t1 + delay)])
    }

    @Test func anAAAAAnswerWithinTheResolutionDelayGoesFirst() {
        var he = machine()
        _ = he.answerReceived(.ipv4(.success([v4a, v4b])), now: t0)
        let t1 = t0 + .milliseconds(20)
        #expect(
            he.answerReceived(.ipv6(.success([v6a, v6b])), now: t1) == [
                .disarmResolutionTimer, .startAttempt(0, v6a), .armAttemptTimer(at: t1 + delay),
            ])
        // The rest alternates families: IPv4, IPv6, IPv4.
        var started: [SocketAddress] = []
        var now = t1
        for id in 1...3 {
            now = now + delay
            if case .startAttempt(id, let address) = he.attemptTimerFired(now: now).first { started.append(address) }
        }
        #expect(started == [v4a, v6b, v4b])
    }

    @Test func aNegativeAAAAAnswerWithinTheResolutionDelayStartsIPv4AtOnce() {
        var he = machine()
        _ = he.answerReceived(.ipv4(.success([v4a])), now: t0)
        let t1 = t0 + .milliseconds(10)
        #expect(
            he.answerReceived(.ipv6(.success([])), now: t1) == [.disarmResolutionTimer, .startAttempt(0, v4a)])
        var failed = machine()
        _ = failed.answerReceived(.ipv4(.success([v4a])), now: t0)
        #expect(
            failed.answerReceived(.ipv6(.failure(.resolutionFailed(host: "example.test", reason: "SERVFAIL"))), now: t1)
                == [.disarmResolutionTimer, .startAttempt(0, v4a)])
    }

    @Test func anAAAAAnswerAfterTheResolutionDelayIsInterleavedIntoTheRace() {
        var he = machine()
        _ = he.answerReceived(.ipv4(.success([v4a, v4b])), now: t0)
        let t1 = t0 + resolutionDelay
        #expect(he.resolutionDelayPassed(now: t1) == [.startAttempt(0, v4a), .armAttemptTimer(at: t1 + delay)])
        // The AAAA answer comes while the IPv4 attempt runs: IPv6 goes next, then the families alternate.
        let t2 = t1 + .milliseconds(30)
        #expect(he.answerReceived(.ipv6(.success([v6a, v6b])), now: t2) == [], "the armed attempt timer still holds")
        #expect(he.attemptTimerFired(now: t1 + delay) == [.startAttempt(1, v6a), .armAttemptTimer(at: t1 + delay * 2)])
        #expect(
            he.attemptTimerFired(now: t1 + delay * 2) == [.startAttempt(2, v4b), .armAttemptTimer(at: t1 + delay * 3)])
        #expect(he.attemptTimerFired(now: t1 + delay * 3) == [.startAttempt(3, v6b)], "the last: no timer")
    }

    @Test func aLateAnswerWaitsOutTheRunningAttemptsDelay() {
        // One IPv6 address: no timer runs. The A answer 40 ms later is due 250 ms after the IPv6
        // attempt started, not 250 ms after it arrived.
        var he = machine()
        #expect(he.answerReceived(.ipv6(.success([v6a])), now: t0) == [.startAttempt(0, v6a)])
        #expect(
            he.answerReceived(.ipv4(.success([v4a])), now: t0 + .milliseconds(40)) == [
                .armAttemptTimer(at: t0 + delay)
            ])
        #expect(he.attemptTimerFired(now: t0 + delay) == [.startAttempt(1, v4a)])
        // An answer that comes after that delay has passed starts at once.
        var slow = machine()
        _ = slow.answerReceived(.ipv6(.success([v6a])), now: t0)
        let late = t0 + .milliseconds(400)
        #expect(slow.answerReceived(.ipv4(.success([v4a])), now: late) == [.startAttempt(1, v4a)])
    }

    @Test func whenTheOnlyAttemptFailsTheOutstandingFamilyIsAwaited() {
        var he = machine()
        _ = he.answerReceived(.ipv6(.success([v6a])), now: t0)
        let t1 = t0 + .milliseconds(5)
        #expect(he.attemptFailed(0, error: .networkUnreachable, now: t1) == [], "the A answer may still come")
        #expect(!he.isFinished)
        let t2 = t1 + .milliseconds(100)
        #expect(
            he.answerReceived(.ipv4(.success([v4a, v4b])), now: t2) == [
                .startAttempt(1, v4a), .armAttemptTimer(at: t2 + delay),
            ])
        _ = he.attemptFailed(1, error: .connectionRefused, now: t2)
        let expected = ReactorError.connectFailed(
            host: "example.test",
            attempts: [
                ConnectAttemptFailure(address: v6a, error: .networkUnreachable),
                ConnectAttemptFailure(address: v4a, error: .connectionRefused),
                ConnectAttemptFailure(address: v4b, error: .connectionRefused),
            ])
        #expect(he.attemptFailed(2, error: .connectionRefused, now: t2) == [.fail(expected)], "every attempt is listed")
    }

    @Test func whenOneFamilyFailsToResolveTheOtherIsUsed() {
        let servfail = ReactorError.resolutionFailed(host: "example.test", reason: "SERVFAIL")
        // AAAA fails first: the A answer then starts at once, with no Resolution Delay.
        var noIPv6 = machine()
        #expect(noIPv6.answerReceived(.ipv6(.failure(servfail)), now: t0) == [])
        #expect(noIPv6.answerReceived(.ipv4(.success([v4a])), now: t0 + .milliseconds(1)) == [.startAttempt(0, v4a)])
        // A fails first: IPv6 starts when it comes.
        var noIPv4 = machine()
        #expect(noIPv4.answerReceived(.ipv4(.failure(.unknownHost("example.test"))), now: t0) == [])
        #expect(noIPv4.answerReceived(.ipv6(.success([v6a])), now: t0) == [.startAttempt(0, v6a)])
        // A fails while IPv6 races: the race goes on, and its failure is the attempts'.
        var racing = machine()
        _ = racing.answerReceived(.ipv6(.success([v6a])), now: t0)
        #expect(racing.answerReceived(.ipv4(.failure(servfail)), now: t0) == [])
        #expect(
            racing.attemptFailed(0, error: .connectionRefused, now: t0) == [
                .fail(
                    .connectFailed(
                        host: "example.test", attempts: [ConnectAttemptFailure(address: v6a, error: .connectionRefused)]
                    ))
            ])
    }

    @Test func whenBothFamiliesFailToResolveTheConnectFailsWithAResolutionError() {
        var none = machine()
        _ = none.answerReceived(.ipv6(.success([])), now: t0)
        #expect(
            none.answerReceived(.ipv4(.failure(.unknownHost("example.test"))), now: t0) == [
                .fail(.unknownHost("example.test"))
            ])
        let timedOut = ReactorError.resolutionFailed(
            host: "example.test", reason: "temporary failure in name resolution")
        var failed = machine()
        _ = failed.answerReceived(.ipv4(.failure(timedOut)), now: t0)
        #expect(
            failed.answerReceived(.ipv6(.failure(.unknownHost("example.test"))), now: t0) == [.fail(timedOut)],
            "the failure that says more than 'no such name'")
    }

    @Test func answersAfterTheConnectEndedAreIgnored() {
        var he = machine()
        _ = he.answerReceived(.ipv6(.success([v6a])), now: t0)
        _ = he.attemptSucceeded(0)
        #expect(he.answerReceived(.ipv4(.success([v4a])), now: t0) == [])
    }

    @Test func theTimeoutDuringTheResolutionDelayDisarmsItsTimer() {
        var he = machine()
        _ = he.answerReceived(.ipv4(.success([v4a])), now: t0)
        #expect(
            he.timedOut() == [
                .disarmResolutionTimer, .fail(.resolutionTimedOut(host: "example.test", timeout: .seconds(10))),
            ])
        var aborted = machine()
        _ = aborted.answerReceived(.ipv4(.success([v4a])), now: t0)
        #expect(aborted.aborted(.loopShutDown) == [.disarmResolutionTimer, .fail(.loopShutDown)])
    }

    // MARK: Configured delays

    @Test func aZeroResolutionDelayStartsWithTheFirstAnswer() {
        var he = machine(resolutionDelay: .zero)
        #expect(he.answerReceived(.ipv4(.success([v4a])), now: t0) == [.startAttempt(0, v4a)])
        #expect(he.answerReceived(.ipv6(.success([v6a])), now: t0) == [.armAttemptTimer(at: t0 + delay)])
    }

    @Test func theConfiguredDelaysAreUsed() {
        var he = machine(attemptDelay: .milliseconds(700), resolutionDelay: .milliseconds(120))
        #expect(
            he.answerReceived(.ipv4(.success([v4a, v4b])), now: t0) == [
                .armResolutionTimer(at: t0 + .milliseconds(120))
            ])
        let t1 = t0 + .milliseconds(120)
        #expect(
            he.resolutionDelayPassed(now: t1) == [.startAttempt(0, v4a), .armAttemptTimer(at: t1 + .milliseconds(700))])
    }

    /// RFC 8305 §5: no attempt within 10 ms of the previous one, whatever the setting.
    @Test(arguments: [(9, 10), (10, 10), (11, 11)])
    func theAttemptDelayHasA10MillisecondFloor(configured: Int, used: Int) {
        var he = machine(attemptDelay: .milliseconds(configured))
        #expect(
            he.answerReceived(.all(.success([v6a, v4a])), now: t0) == [
                .startAttempt(0, v6a), .armAttemptTimer(at: t0 + .milliseconds(used)),
            ])
    }

    // MARK: Random sequences

    /// The interesting paths one random run went through.
    private struct Paths {
        var resolutionDelayPassed = false
        var ipv6EndedTheResolutionDelay = false
        var lateAddressesJoinedTheRace = false
        var awaitedAnOutstandingFamily = false
        var succeeded = false
        var failedEveryAttempt = false
        var failedToResolve = false
        var timedOut = false
    }

    /// Plays random resolver answers (one list, or per family in either order, each positive,
    /// empty or failed, at random times) and random attempt outcomes against a model of the
    /// runner, checking after every step: at most one outcome, never an action for an unknown
    /// attempt or timer, no timer firing before its deadline, no address tried twice or before
    /// it was answered, no IPv4 attempt before the Resolution Delay while the AAAA answer is
    /// awaited, and at the end every attempt closed or handed over and every timer fired or
    /// disarmed.
    @Test(arguments: 0..<300)
    func randomSequencesKeepTheInvariants(seed: UInt64) {
        _ = play(seed: seed)
    }

    /// The random runs reach every path of the machine, or they prove little.
    @Test func randomSequencesReachEveryPath() {
        let runs = (0..<300).map { play(seed: $0) }
        func count(_ path: KeyPath<Paths, Bool>) -> Int { runs.filter { $0[keyPath: path] }.count }
        #expect(count(\.resolutionDelayPassed) > 10)
        #expect(count(\.ipv6EndedTheResolutionDelay) > 10)
        #expect(count(\.lateAddressesJoinedTheRace) > 10)
        #expect(count(\.awaitedAnOutstandingFamily) > 5)
        #expect(count(\.succeeded) > 10 && count(\.failedEveryAttempt) > 10)
        #expect(count(\.failedToResolve) > 10 && count(\.timedOut) > 10)
    }

    private func play(seed: UInt64) -> Paths {
        var random = SeededRandom(seed: seed)
        func pick(_ options: [[SocketAddress]]) -> [SocketAddress] {
            options[Int(random.next() % UInt64(options.count))]
        }
        let ipv6 = pick([[], [v6a], [v6a, v6b]])
        let ipv4 = pick([[], [v4a], [v4a, v4b]])
        let servfail = ReactorError.resolutionFailed(host: "example.test", reason: "SERVFAIL")
        var pending: [ResolverAnswer]
        if random.next() % 4 == 0 {
            pending = [.all(.success(HappyEyeballs.interleave(ipv6 + ipv4)))]
        } else {
            pending = [
                random.next() % 5 == 0 ? .ipv6(.failure(servfail)) : .ipv6(.success(ipv6)), .ipv4(.success(ipv4)),
            ]
        }
        if random.next() % 2 == 0 { pending.reverse() }
        var he = machine()
        var paths = Paths()
        var now = t0
        var inFlight: Set<Int> = []
        var started: [SocketAddress] = []
        var answered: Set<SocketAddress> = []
        var ipv6Awaited = pending.contains { if case .ipv6 = $0 { true } else { false } }
        var ipv4ArrivedAt: Deadline?
        var attemptTimerDue: Deadline?
        var resolutionTimerDue: Deadline?
        var outcomes = 0
        func apply(_ actions: [HappyEyeballs.Action]) {
            for action in actions {
                switch action {
                case .startAttempt(let id, let address):
                    #expect(id == started.count)
                    #expect(!started.contains(address), "tried twice")
                    #expect(answered.contains(address), "tried before it was answered")
                    if !address.isIPv6, ipv6Awaited, let arrived = ipv4ArrivedAt {
                        #expect(now >= arrived + resolutionDelay, "IPv4 started inside the Resolution Delay")
                    }
                    started.append(address)
                    inFlight.insert(id)
                case .armAttemptTimer(let deadline):
                    #expect(deadline > now)
                    attemptTimerDue = deadline
                case .disarmAttemptTimer:
                    #expect(attemptTimerDue != nil)
                    attemptTimerDue = nil
                case .armResolutionTimer(let deadline):
                    #expect(deadline == now + resolutionDelay && resolutionTimerDue == nil)
                    resolutionTimerDue = deadline
                case .disarmResolutionTimer:
                    #expect(resolutionTimerDue != nil)
                    resolutionTimerDue = nil
                    paths.ipv6EndedTheResolutionDelay = paths.ipv6EndedTheResolutionDelay || !ipv6Awaited
                case .cancelAttempt(let id):
                    #expect(inFlight.remove(id) != nil)
                case .succeed(let id):
                    #expect(inFlight.remove(id) != nil)
                    outcomes += 1
                    paths.succeeded = true
                case .fail(let error):
                    outcomes += 1
                    switch error {
                    case .connectFailed: paths.failedEveryAttempt = true
                    case .unknownHost, .resolutionFailed: paths.failedToResolve = true
                    case .connectTimedOut, .resolutionTimedOut: paths.timedOut = true
                    default: Issue.record("unexpected failure \(error)")
                    }
                }
            }
        }
        func deliver() {
            let answer = pending.removeFirst()
            let addresses: [SocketAddress]
            switch answer {
            case .ipv6(let result):
                ipv6Awaited = false
                addresses = (try? result.get()) ?? []
            case .ipv4(let result):
                ipv4ArrivedAt = now
                addresses = (try? result.get()) ?? []
            case .all(let result):
                ipv6Awaited = false
                addresses = (try? result.get()) ?? []
            }
            answered.formUnion(addresses)
            if !he.isFinished, !started.isEmpty, !addresses.isEmpty { paths.lateAddressesJoinedTheRace = true }
            apply(he.answerReceived(answer, now: now))
        }
        for _ in 0..<30 where !he.isFinished {
            now = now + .milliseconds(Int64(random.next() % 120))
            switch random.next() % 7 {
            case 0...1 where !pending.isEmpty:
                deliver()
            case 2 where resolutionTimerDue != nil:
                // A timer fires at its deadline or later, never before.
                now = max(now, resolutionTimerDue!)
                resolutionTimerDue = nil
                paths.resolutionDelayPassed = true
                apply(he.resolutionDelayPassed(now: now))
            case 3 where attemptTimerDue != nil:
                now = max(now, attemptTimerDue!)
                attemptTimerDue = nil
                apply(he.attemptTimerFired(now: now))
            case 4 where !inFlight.isEmpty:
                let id = inFlight.sorted()[Int(random.next() % UInt64(inFlight.count))]
                inFlight.remove(id)
                apply(he.attemptFailed(id, error: .connectionRefused, now: now))
                if inFlight.isEmpty, !he.isFinished, !pending.isEmpty { paths.awaitedAnOutstandingFamily = true }
            case 5 where !inFlight.isEmpty && random.next() % 3 == 0:
                let id = inFlight.min()!
                apply(he.attemptSucceeded(id))
                inFlight.remove(id)  // handed over: the runner delivered it
            case 6 where random.next() % 8 == 0:
                apply(he.timedOut())
            default:
                break
            }
            #expect(outcomes <= 1)
        }
        if !he.isFinished { apply(he.timedOut()) }
        while !pending.isEmpty { deliver() }  // late answers change nothing
        #expect(outcomes == 1)
        #expect(inFlight.isEmpty)
        #expect(attemptTimerDue == nil && resolutionTimerDue == nil)
        return paths
    }
}
