// Rule 12: reports that a correct runner can never make trap, naming the state and the event.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Impossible transitions trap")
struct PoolImpossibleTransitionTests {
    @Test("A connection that is still connecting cannot come back idle; the message names state and event")
    func idleBeforeEstablishedTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var pool = PoolStateMachine<String, TestFailure>()
            let now = Deadline(uptimeNanoseconds: 1)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
            _ = pool.connectionBecameIdle(PoolConnectionID(1), isReusable: true, at: now)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("PoolStateMachine (running): connectionBecameIdle(C1): the connection is connecting"))
    }

    @Test("A connection the pool never created cannot be reported")
    func unknownConnectionTraps() async {
        await #expect(processExitsWith: .failure) {
            var pool = PoolStateMachine<String, TestFailure>()
            _ = pool.connectionEstablished(PoolConnectionID(7), at: Deadline(uptimeNanoseconds: 1))
        }
    }

    @Test("The same request cannot wait twice")
    func duplicateWaiterTraps() async {
        await #expect(processExitsWith: .failure) {
            var pool = PoolStateMachine<String, TestFailure>()
            let now = Deadline(uptimeNanoseconds: 1)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
        }
    }

    @Test("Only a connection the pool is closing may be reported closed by .local")
    func localCloseOfAnOpenConnectionTraps() async {
        await #expect(processExitsWith: .failure) {
            var pool = PoolStateMachine<String, TestFailure>()
            let now = Deadline(uptimeNanoseconds: 1)
            _ = pool.requestArrived(PoolRequestID(1), origin: "a", at: now)
            _ = pool.connectionEstablished(PoolConnectionID(1), at: now)
            _ = pool.connectionClosed(PoolConnectionID(1), by: .local, at: now)
        }
    }

    @Test("Settings that make no sense trap when the pool is made")
    func nonsenseSettingsTrap() async {
        await #expect(processExitsWith: .failure) {
            var settings = PoolSettings()
            settings.maximumConnectionsPerOrigin = 0
            _ = PoolStateMachine<String, TestFailure>(settings: settings)
        }
    }
}
