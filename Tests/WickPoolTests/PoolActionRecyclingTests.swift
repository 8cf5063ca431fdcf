// `recycle(_:)`: an event's performed actions give their storage to the next event's list.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Recycling action lists")
struct PoolActionRecyclingTests {
    /// The address of an action list's storage.
    static func storage(_ actions: [Action]) -> UnsafeRawPointer? {
        actions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("A recycled list's storage is the next event's list, emptied, and the actions are unchanged")
    func theNextEventReusesTheStorage() {
        var machine = Pool(settings: PoolSettings())
        let now = Deadline.now()
        var first = machine.requestArrived(PoolRequestID(1), origin: "a", at: now)
        #expect(first.count == 3)  // enqueue, its wait timer, a new connection
        let address = Self.storage(first)
        machine.recycle(&first)
        #expect(first.isEmpty)
        let second = machine.connectionEstablished(PoolConnectionID(1), at: now)
        #expect(Self.storage(second) == address)
        guard case .cancelTimer = second.first,
            case .leaseConnection(PoolConnectionID(1), PoolRequestID(1), false) = second.last
        else {
            Issue.record("unexpected actions \(second)")
            return
        }
        #expect(second.count == 2)
    }

    @Test("Without recycling, every event gets a list of its own")
    func listsThatAreKeptAreNotReused() {
        var machine = Pool(settings: PoolSettings())
        let now = Deadline.now()
        let first = machine.requestArrived(PoolRequestID(1), origin: "a", at: now)
        let second = machine.connectionEstablished(PoolConnectionID(1), at: now)
        #expect(Self.storage(first) != Self.storage(second))
        #expect(first.count == 3 && second.count == 2)
    }
}
