// Whether callers of a runner wait inline for their responses: learnt, since a blocked caller
// thread hides the very concurrency that would make waiting wrong.

/// A runner's rule for callers that would wait inline for their response
/// (`TransportCancellation.waitInline`).
///
/// Waiting blocks the caller's Swift pool thread. For one task sending requests one after
/// another that is the fast path (the response is taken without a thread switch). For many
/// tasks it is the slow one, and invisibly so: while one caller waits, the others cannot run
/// to send their requests, so the waiter always looks alone on the loop and the tasks go one
/// at a time (64 lanes of GETs fell from 19,000 to 9,500 a second). So the gate probes: every
/// `probeInterval`-th alone caller does not wait but sleeps as usual, and if another exchange
/// entered the pool meanwhile, other work was held back and waiting stops. A caller that finds
/// others in flight stops it too. It starts again after `calmAwaitsToResume` callers in a row
/// found themselves alone. Callers decide under the runner's lock of it.
struct InlineWaitGate {
    /// How a caller about to await goes on.
    enum Decision: Equatable {
        /// Wait inline.
        case wait
        /// Sleep as usual, and report whether other exchanges entered meanwhile.
        case probe
        /// Sleep as usual.
        case skip
    }

    /// One alone caller in this many is a probe.
    static let probeInterval = 32
    /// Alone callers in a row that make waiting resume.
    static let calmAwaitsToResume = 64

    private(set) var isWaiting = true
    private var sinceProbe = 0
    private var calmAwaits = 0

    /// What a caller about to await does; `alone`: its exchange is the only one in flight.
    mutating func decide(alone: Bool) -> Decision {
        guard alone else {
            isWaiting = false
            calmAwaits = 0
            return .skip
        }
        guard isWaiting else {
            calmAwaits += 1
            if calmAwaits >= Self.calmAwaitsToResume {
                isWaiting = true
                sinceProbe = 0
            }
            return .skip
        }
        sinceProbe += 1
        guard sinceProbe >= Self.probeInterval else { return .wait }
        sinceProbe = 0
        return .probe
    }

    /// A probe's caller woke: other exchanges entered the pool while it slept, or none did.
    mutating func probeEnded(othersEntered: Bool) {
        guard othersEntered else { return }
        isWaiting = false
        calmAwaits = 0
    }
}

/// A caller that slept as usual to see whether others send meanwhile (`InlineWaitGate`).
package struct InlineWaitProbe: Sendable {
    let runner: ConnectionPoolRunner
    /// `exchangesEntered` when it went to sleep (its own exchange included).
    let entered: Int

    /// The caller woke: tells the gate whether other exchanges entered the pool meanwhile.
    package func end() {
        let othersEntered = runner.exchangesEntered.load(ordering: .relaxed) != entered
        runner.inlineWaitGate.withLock { $0.probeEnded(othersEntered: othersEntered) }
    }
}
