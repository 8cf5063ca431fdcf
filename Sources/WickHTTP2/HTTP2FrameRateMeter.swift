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

    /// Refills the bucket for the time elapsed up to `now` (time never runs backwards here).
    mutating func advance(to now: Deadline) {
        defer { if lastRefill.map({ now > $0 }) ?? true { lastRefill = now } }
        guard let lastRefill, now > lastRefill else { return }
        let elapsedNanoseconds = now.uptimeNanoseconds - lastRefill.uptimeNanoseconds
        let capacity = limit.burst * 1000
        // perSecond * 1000 milli-tokens per 1e9 ns; capped first so the product cannot overflow.
        let cappedNanoseconds = min(elapsedNanoseconds, 1_000_000_000 * UInt64(limit.burst + 1))
        let refill = Int(cappedNanoseconds / 1_000) * limit.perSecond / 1_000
        milliTokens = min(capacity, milliTokens + refill)
    }

    /// Counts one frame; false when the bucket is empty (the server is flooding).
    mutating func admit() -> Bool {
        guard milliTokens >= 1000 else { return false }
        milliTokens -= 1000
        return true
    }
}
