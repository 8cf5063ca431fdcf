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

    private func machine() -> HappyEyeballs {
        HappyEyeballs(host: "example.test", attemptDelay: delay, timeout: .seconds(10))
    }

    @Test func interleavesStartingWithTheFirstFamily() {
        #expect(HappyEyeballs.interleave([v6a, v6b, v4a, v4b]) == [v6a, v4a, v6b, v4b])
        #expect(HappyEyeballs.interleave([v4a, v4b, v6a]) == [v4a, v6a, v4b])
        #expect(HappyEyeballs.interleave([v4a, v4b]) == [v4a, v4b])
        #expect(HappyEyeballs.interleave([]) == [])
    }

    @Test func startsOneAttemptAndArmsTheDelay() {
        var he = machine()
        #expect(
            he.addressesResolved([v6a, v4a], now: t0) == [.startAttempt(0, v6a), .armAttemptTimer(at: t0 + delay)])
    }

    @Test func aSingleAddressArmsNoTimer() {
        var he = machine()
        #expect(he.addressesResolved([v4a], now: t0) == [.startAttempt(0, v4a)])
        #expect(he.attemptSucceeded(0) == [.succeed(0)])
        #expect(he.isFinished)
    }

    @Test func theDelayStartsTheNextFamilyAndTheFirstSuccessWins() {
        var he = machine()
        _ = he.addressesResolved([v6a, v6b, v4a], now: t0)
        let t1 = t0 + delay
        #expect(he.attemptTimerFired(now: t1) == [.startAttempt(1, v4a), .armAttemptTimer(at: t1 + delay)])
        #expect(he.attemptSucceeded(1) == [.disarmAttemptTimer, .cancelAttempt(0), .succeed(1)])
        #expect(he.isFinished)
    }

    @Test func aFailureStartsTheNextAttemptAtOnce() {
        var he = machine()
        _ = he.addressesResolved([v6a, v4a], now: t0)
        let t1 = t0 + .milliseconds(3)
        #expect(
            he.attemptFailed(0, error: .networkUnreachable, now: t1) == [.startAttempt(1, v4a), .disarmAttemptTimer])
        #expect(he.attemptSucceeded(1) == [.succeed(1)])
    }

    @Test func everyFailureIsReportedInOrder() {
        var he = machine()
        _ = he.addressesResolved([v6a, v4a], now: t0)
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
        _ = he.addressesResolved([v6a, v4a, v6b], now: t0)
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
        #expect(failed.resolutionFailed(.unknownHost("example.test")) == [.fail(.unknownHost("example.test"))])
        var empty = machine()
        #expect(empty.addressesResolved([], now: t0) == [.fail(.unknownHost("example.test"))])
        var late = machine()
        _ = late.timedOut()
        #expect(late.addressesResolved([v4a], now: t0) == [], "a result after the timeout is ignored")
        var aborted = machine()
        _ = aborted.addressesResolved([v4a, v6a], now: t0)
        #expect(aborted.aborted(.loopShutDown) == [.disarmAttemptTimer, .cancelAttempt(0), .fail(.loopShutDown)])
    }

    /// Plays random event sequences against a model of the runner and checks the invariants after
    /// every step: at most one outcome, never an action for an unknown attempt, the timer armed
    /// only while addresses remain, and every attempt closed or handed over at the end.
    @Test(arguments: 0..<200)
    func randomSequencesKeepTheInvariants(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pool = [v6a, v6b, v4a, v4b]
        let addresses = Array(pool.prefix(1 + Int(random.next() % 4)))
        var he = machine()
        var now = t0
        var inFlight: Set<Int> = []
        var started = 0
        var timerArmed = false
        var outcomes = 0
        func apply(_ actions: [HappyEyeballs.Action]) {
            for action in actions {
                switch action {
                case .startAttempt(let id, _):
                    #expect(id == started)
                    started += 1
                    inFlight.insert(id)
                case .armAttemptTimer(let deadline):
                    #expect(deadline > now)
                    timerArmed = true
                case .disarmAttemptTimer:
                    #expect(timerArmed)
                    timerArmed = false
                case .cancelAttempt(let id):
                    #expect(inFlight.remove(id) != nil)
                case .succeed(let id):
                    #expect(inFlight.remove(id) != nil)
                    outcomes += 1
                case .fail:
                    outcomes += 1
                }
            }
        }
        apply(he.addressesResolved(addresses, now: now))
        for _ in 0..<20 where !he.isFinished {
            now = now + .milliseconds(Int64(random.next() % 300))
            switch random.next() % 5 {
            case 0 where timerArmed:
                timerArmed = false
                apply(he.attemptTimerFired(now: now))
            case 1 where !inFlight.isEmpty:
                let id = inFlight.sorted()[Int(random.next() % UInt64(inFlight.count))]
                inFlight.remove(id)
                apply(he.attemptFailed(id, error: .connectionRefused, now: now))
            case 2 where !inFlight.isEmpty:
                let id = inFlight.min()!
                apply(he.attemptSucceeded(id))
                inFlight.remove(id)  // handed over: the runner delivered it
            case 3:
                apply(he.timedOut())
            default:
                break
            }
            #expect(outcomes <= 1)
            #expect(started <= addresses.count)
        }
        if !he.isFinished { apply(he.timedOut()) }
        #expect(outcomes == 1)
        #expect(inFlight.isEmpty)
        #expect(!timerArmed)
    }
}
