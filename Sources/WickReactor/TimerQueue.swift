// The loop's timers: a binary min-heap ordered by deadline, then by scheduling order.
//
// Pure and single-threaded: the event loop owns one and touches it only on its thread.
// Cancellation is lazy (the id is forgotten; its heap entry is skipped when it surfaces), and the
// heap is rebuilt when cancelled entries outnumber live ones, so memory stays O(live timers).
import WickCore

/// Timers keyed by id, popped in deadline order (ties in scheduling order).
struct TimerQueue<Payload> {
    private struct Entry {
        let deadline: Deadline
        let id: UInt64
    }

    private var heap: [Entry] = []
    private var payloads: [TimerKey: Payload] = [:]
    /// The id of the heap's top when it was last found live, so that the loop's several looks
    /// per iteration cost one dictionary lookup, not one each. Cleared when that timer is
    /// cancelled; ids are never reused, so a popped top cannot match again.
    private var liveTop: UInt64?

    /// The number of live (scheduled, not cancelled, not popped) timers.
    var count: Int { payloads.count }

    /// Whether no live timer remains.
    var isEmpty: Bool { payloads.isEmpty }

    /// The earliest live deadline, or `nil` if there is none. Discards cancelled entries on top.
    mutating func nextDeadline() -> Deadline? {
        discardCancelledTop()
        return heap.first?.deadline
    }

    /// Adds a timer. Ids must be unique and increasing (they break deadline ties).
    mutating func schedule(id: UInt64, at deadline: Deadline, _ payload: Payload) {
        precondition(payloads[TimerKey(id)] == nil, "TimerQueue.schedule: id \(id) is already scheduled")
        payloads[TimerKey(id)] = payload
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
    }

    /// Removes a timer; returns its payload, or `nil` if it already fired or was cancelled.
    mutating func cancel(id: UInt64) -> Payload? {
        guard let payload = payloads.removeValue(forKey: TimerKey(id)) else { return nil }
        if liveTop == id { liveTop = nil }
        if heap.count > 64 && heap.count > 2 * payloads.count { rebuild() }
        return payload
    }

    /// Removes and returns the earliest timer due at `now`, or `nil` if none is due.
    mutating func popDue(at now: Deadline) -> Payload? {
        discardCancelledTop()
        guard let top = heap.first, top.deadline <= now else { return nil }
        removeTop()
        return payloads.removeValue(forKey: TimerKey(top.id))
    }

    /// Removes every live timer, returning the payloads in deadline order.
    mutating func removeAll() -> [Payload] {
        var result: [Payload] = []
        while let top = heap.first {
            removeTop()
            if let payload = payloads.removeValue(forKey: TimerKey(top.id)) { result.append(payload) }
        }
        return result
    }

    private mutating func discardCancelledTop() {
        while let top = heap.first {
            if top.id == liveTop { return }
            if payloads[TimerKey(top.id)] != nil {
                liveTop = top.id
                return
            }
            removeTop()
        }
    }

    private mutating func rebuild() {
        heap.removeAll { payloads[TimerKey($0.id)] == nil }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private static func ordered(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.id < b.id
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.ordered(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && Self.ordered(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.ordered(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}

/// A timer's id as a dictionary key, hashed by `identifierHash` (the queue numbers its timers
/// itself): a request schedules and cancels at least one.
private struct TimerKey: Hashable {
    let id: UInt64

    init(_ id: UInt64) { self.id = id }

    func _rawHashValue(seed: Int) -> Int { identifierHash(id, seed: seed) }
}
