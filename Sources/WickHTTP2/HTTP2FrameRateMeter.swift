// Counts control frames against HTTP2FrameRateLimit, with time passed in (no clock here).

import WickCore

/// The token bucket of `HTTP2FrameRateLimit`, fed the time of each read.
struct HTTP2FrameRateMeter: Sendable {
    let limit: HTTP2FrameRateLimit
    /// Frames that may still arrive now, in thousandths of a frame (so slow refills still count).
    private var milliTokens: Int
    private var lastRefill: Deadline?

    init(limit: HTTP2FrameRateLimit) {
        self.limit = limit
        milliTokens = limit.burst * 1000
    }

    /// Refills the bucket for the time elapsed up to `now`; a `now` earlier than the last one
    /// refills nothing.
    mutating func advance(to now: Deadline) {
        guard let last = lastRefill else {
            lastRefill = now
            return
        }
        guard now > last else { return }
        lastRefill = now
        // perSecond * 1000 milli-tokens per 1e9 ns, the elapsed time capped first (a full bucket
        // needs at most `burst + 1` seconds) so that the product cannot overflow.
        let elapsed = min(now.uptimeNanoseconds - last.uptimeNanoseconds, 1_000_000_000 * UInt64(limit.burst + 1))
        let (product, overflows) = Int(elapsed / 1_000).multipliedReportingOverflow(by: limit.perSecond)
        let refill = overflows ? limit.burst * 1000 : product / 1_000
        milliTokens = min(limit.burst * 1000, milliTokens + min(refill, limit.burst * 1000))
    }

    /// Counts one frame; false when the bucket is empty (the server is flooding).
    mutating func admit() -> Bool {
        guard milliTokens >= 1000 else { return false }
        milliTokens -= 1000
        return true
    }
}
