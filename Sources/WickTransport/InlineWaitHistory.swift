// When a caller waits on its own thread for a connection's response, and when it stops trying.

/// A connection's record of callers that waited for its responses inline
/// (`TransportCancellation.waitInline`): a wait that ran out (a server slower than the wait)
/// makes the next 1, 2, 4 … up to `maximumSkips` callers on the connection not wait, so a slow
/// server costs a blocked caller thread on at most one request in that many; a wait that got
/// its response lets the next caller wait again. Loop-confined, as its connection is.
struct InlineWaitHistory {
    /// The most requests skipped after a wait ran out.
    static let maximumSkips = 64

    /// How many of the next callers are not to wait.
    private var skipsLeft = 0
    /// How many the last run-out made skip.
    private var lastSkips = 0

    /// Whether this caller may wait; counts a skipped one.
    mutating func callerMayWait() -> Bool {
        guard skipsLeft == 0 else {
            skipsLeft -= 1
            return false
        }
        return true
    }

    /// A caller's wait got its response in time (`ranOut` false) or ran out.
    mutating func record(ranOut: Bool) {
        if ranOut {
            lastSkips = Swift.min(Swift.max(1, lastSkips * 2), Self.maximumSkips)
            skipsLeft = lastSkips
        } else {
            lastSkips = 0
        }
    }
}
