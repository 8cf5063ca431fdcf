// The timer heap pops in deadline order, breaks ties by scheduling order, and forgets cancels.
import Testing
import WickCore

@testable import WickReactor

@Suite struct TimerQueueTests {
    private func at(_ nanoseconds: UInt64) -> Deadline { Deadline(uptimeNanoseconds: nanoseconds) }

    @Test func popsInDeadlineOrderThenSchedulingOrder() {
        var queue = TimerQueue<String>()
        queue.schedule(id: 1, at: at(30), "c")
        queue.schedule(id: 2, at: at(10), "a")
        queue.schedule(id: 3, at: at(20), "b1")
        queue.schedule(id: 4, at: at(20), "b2")
        #expect(queue.nextDeadline() == at(10))
        var popped: [String] = []
        while let next = queue.popDue(at: at(100)) { popped.append(next) }
        #expect(popped == ["a", "b1", "b2", "c"])
        #expect(queue.isEmpty)
        #expect(queue.nextDeadline() == nil)
    }

    @Test func nothingIsDueBeforeItsDeadline() {
        var queue = TimerQueue<Int>()
        queue.schedule(id: 1, at: at(50), 1)
        #expect(queue.popDue(at: at(49)) == nil)
        #expect(queue.popDue(at: at(50)) == 1)
    }

    @Test func cancelledTimersNeverSurface() {
        var queue = TimerQueue<Int>()
        queue.schedule(id: 1, at: at(10), 1)
        queue.schedule(id: 2, at: at(20), 2)
        #expect(queue.cancel(id: 1) == 1)
        #expect(queue.cancel(id: 1) == nil)
        #expect(queue.nextDeadline() == at(20))
        #expect(queue.popDue(at: at(100)) == 2)
        #expect(queue.cancel(id: 2) == nil, "a popped timer cannot be cancelled")
    }

    @Test func cancellingMostTimersKeepsOrderAndCount() {
        var queue = TimerQueue<Int>()
        for id in 1...10_000 { queue.schedule(id: UInt64(id), at: at(UInt64((id * 7919) % 10_007)), id) }
        for id in 1...10_000 where id % 10 != 0 { _ = queue.cancel(id: UInt64(id)) }
        #expect(queue.count == 1_000)
        var last = Deadline.distantPast
        var popped = 0
        while let id = queue.popDue(at: .distantFuture) {
            #expect(id % 10 == 0)
            let deadline = at(UInt64((id * 7919) % 10_007))
            #expect(deadline >= last)
            last = deadline
            popped += 1
        }
        #expect(popped == 1_000)
    }

    @Test func removeAllReturnsLiveTimersInOrder() {
        var queue = TimerQueue<Int>()
        queue.schedule(id: 1, at: at(3), 3)
        queue.schedule(id: 2, at: at(1), 1)
        queue.schedule(id: 3, at: at(2), 2)
        _ = queue.cancel(id: 3)
        #expect(queue.removeAll() == [1, 3])
        #expect(queue.isEmpty)
    }
}
