// The requests a session made and has not finished, kept by slot instead of by hashed identifier.
import Synchronization
import WickReactor

/// The session's unfinished requests, for `withAllRequests` and `cancelAllRequests`.
///
/// Each request sits in a slot of an array and remembers it (`Request.registrySlot`), so adding
/// and removing one is an index and a free-list push or pop. A dictionary keyed by the request's
/// UUID cost two SipHash passes over it per request (about 800 instructions, 1% of a small
/// keep-alive request). Slots are reused, so the array grows only to the most requests ever
/// unfinished at once.
final class RequestRegistry: Sendable {
    private struct Slots {
        var requests: [Request?] = []
        var free: [Int] = []
    }

    private let slots = RequestStateLock(Slots())

    /// Tracks `request` until `remove(_:)`.
    func add(_ request: Request) {
        slots.withLock { slots in
            let slot: Int
            if let free = slots.free.popLast() {
                slot = free
                slots.requests[slot] = request
            } else {
                slot = slots.requests.count
                slots.requests.append(request)
            }
            request.registrySlot = slot
        }
    }

    /// Stops tracking `request`; nothing happens if it is not tracked.
    func remove(_ request: Request) {
        slots.withLock { slots in
            let slot = request.registrySlot
            guard slot >= 0 else { return }
            request.registrySlot = -1
            slots.requests[slot] = nil
            slots.free.append(slot)
        }
    }

    /// Every tracked request, in no particular order.
    var all: [Request] {
        slots.withLock { $0.requests.compactMap { $0 } }
    }
}
