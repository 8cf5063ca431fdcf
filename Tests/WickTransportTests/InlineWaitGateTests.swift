// Callers wait inline while they are alone, probe now and then, and stop when others send.
import Testing

@testable import WickTransport

@Suite struct InlineWaitGateTests {
    /// The decisions of `count` callers that all find themselves alone.
    private func aloneCallers(_ gate: inout InlineWaitGate, _ count: Int) -> [InlineWaitGate.Decision] {
        (0..<count).map { _ in gate.decide(alone: true) }
    }

    @Test func aloneCallersWaitAndEveryThirtySecondProbes() {
        var gate = InlineWaitGate()
        let decisions = aloneCallers(&gate, 2 * InlineWaitGate.probeInterval)
        let probes = decisions.indices.filter { decisions[$0] == .probe }
        #expect(probes == [InlineWaitGate.probeInterval - 1, 2 * InlineWaitGate.probeInterval - 1])
        #expect(decisions.filter { $0 == .wait }.count == 2 * InlineWaitGate.probeInterval - 2)
    }

    @Test func aProbeThatSawNoOtherSenderKeepsWaiting() {
        var gate = InlineWaitGate()
        _ = aloneCallers(&gate, InlineWaitGate.probeInterval)
        gate.probeEnded(othersEntered: false)
        #expect(gate.isWaiting)
        #expect(aloneCallers(&gate, 1) == [.wait])
    }

    /// The case the gate exists for: tasks held back by a waiting caller send as soon as a
    /// probe sleeps, and from then on nobody waits until callers are alone for long.
    @Test func aProbeThatSawOthersSendStopsWaitingUntilCallersAreAloneLong() {
        var gate = InlineWaitGate()
        _ = aloneCallers(&gate, InlineWaitGate.probeInterval)
        gate.probeEnded(othersEntered: true)
        #expect(!gate.isWaiting)
        let calm = aloneCallers(&gate, InlineWaitGate.calmAwaitsToResume)
        #expect(calm.allSatisfy { $0 == .skip })
        #expect(gate.isWaiting)
        #expect(aloneCallers(&gate, 1) == [.wait])
    }

    @Test func aCallerThatIsNotAloneStopsWaitingAndRestartsTheCalmCount() {
        var gate = InlineWaitGate()
        #expect(gate.decide(alone: false) == .skip)
        #expect(!gate.isWaiting)
        _ = aloneCallers(&gate, InlineWaitGate.calmAwaitsToResume - 1)
        #expect(gate.decide(alone: false) == .skip)
        _ = aloneCallers(&gate, InlineWaitGate.calmAwaitsToResume - 1)
        #expect(!gate.isWaiting)
        _ = aloneCallers(&gate, 1)
        #expect(gate.isWaiting)
    }
}
