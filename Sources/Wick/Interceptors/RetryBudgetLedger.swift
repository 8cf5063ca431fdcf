// One budget's account: requests and retries counted in time slots over a sliding window.
import WickCore

/// The requests and retries of one retry budget (a session's, or one host's) over the last
/// `window`, counted in `slotCount` slots so old activity leaves the window a slot at a time.
///
/// A retry may be taken while `retries + 1 ≤ reserve + ratio × requests`, where `reserve` is
/// `minimumRetriesPerSecond × window` (gRPC's retry throttling and Finagle's `RetryBudget` work the
/// same way: a steady trickle of retries is always allowed, more only in proportion to traffic).
struct RetryBudgetLedger {
    /// The activity of one slot of the window.
    private struct Slot {
        /// Which slot of time (`uptime / slotWidth`) the counts belong to.
        var epoch: UInt64 = 0
        var requests = 0
        var retries = 0
    }

    static let slotCount = 10
    private let slotWidthNanoseconds: UInt64
    private let reserve: Double
    private let ratio: Double
    private var slots = [Slot](repeating: Slot(), count: RetryBudgetLedger.slotCount)
    /// When the ledger last counted something: a ledger idle for a whole window is empty.
    private(set) var lastActivity = Deadline.distantPast

    init(ratio: Double, minimumRetriesPerSecond: Double, window: Duration) {
        let windowNanoseconds = max(UInt64(Self.slotCount), UInt64(clamping: window.wholeNanosecondsClamped))
        slotWidthNanoseconds = windowNanoseconds / UInt64(Self.slotCount)
        reserve = minimumRetriesPerSecond * Double(windowNanoseconds) / 1e9
        self.ratio = ratio
    }

    /// Counts a request's first attempt.
    mutating func recordRequest(at now: Deadline) {
        slots[slotIndex(at: now)].requests += 1
        lastActivity = now
    }

    /// Counts a retry and returns true if the budget allows one more now; false (nothing counted)
    /// if not.
    mutating func withdrawRetry(at now: Deadline) -> Bool {
        let index = slotIndex(at: now)
        let epoch = slots[index].epoch
        var requests = 0
        var retries = 0
        for slot in slots where slot.epoch + UInt64(Self.slotCount) > epoch {
            requests += slot.requests
            retries += slot.retries
        }
        guard Double(retries + 1) <= reserve + ratio * Double(requests) else { return false }
        slots[index].retries += 1
        lastActivity = now
        return true
    }

    /// The slot `now` falls in, emptied first if it last held an older epoch.
    private mutating func slotIndex(at now: Deadline) -> Int {
        let epoch = now.uptimeNanoseconds / slotWidthNanoseconds
        let index = Int(epoch % UInt64(Self.slotCount))
        if slots[index].epoch != epoch { slots[index] = Slot(epoch: epoch) }
        return index
    }
}
