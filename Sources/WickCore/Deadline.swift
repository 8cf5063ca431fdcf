// A point in monotonic time, in nanoseconds: the currency of every timeout in Wick.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A point on the system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds since boot.
///
/// Sans-I/O code never reads the clock: it receives `Deadline`s as arguments. Only I/O layers
/// call `now()`. Arithmetic saturates, so `distantFuture + anything` stays `distantFuture`.
public struct Deadline: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds on the monotonic clock.
    public let uptimeNanoseconds: UInt64

    /// A deadline at an exact reading of the monotonic clock.
    public init(uptimeNanoseconds: UInt64) {
        self.uptimeNanoseconds = uptimeNanoseconds
    }

    /// A deadline that never passes.
    public static let distantFuture = Deadline(uptimeNanoseconds: .max)

    /// The earliest possible deadline: already passed.
    public static let distantPast = Deadline(uptimeNanoseconds: 0)

    /// The current reading of the monotonic clock.
    public static func now() -> Deadline {
        var time = timespec()
        // SAFETY: clock_gettime writes one timespec into a stack value we own. CLOCK_MONOTONIC
        // always exists on Linux, so the call cannot fail.
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Deadline(uptimeNanoseconds: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
    }

    /// Whether this deadline is at or before `now`.
    public func hasPassed(at now: Deadline) -> Bool {
        self <= now
    }

    /// How long from `now` until this deadline; zero if it has passed.
    public func timeRemaining(at now: Deadline) -> Duration {
        guard uptimeNanoseconds > now.uptimeNanoseconds else { return .zero }
        return .nanoseconds(clampedToInt64(uptimeNanoseconds - now.uptimeNanoseconds))
    }

    /// The deadline `amount` later, saturating at `distantFuture` (and at `distantPast` for a
    /// negative amount).
    public static func + (lhs: Deadline, rhs: Duration) -> Deadline {
        let delta = rhs.wholeNanosecondsClamped
        if delta >= 0 {
            let (sum, overflow) = lhs.uptimeNanoseconds.addingReportingOverflow(UInt64(delta))
            return overflow ? .distantFuture : Deadline(uptimeNanoseconds: sum)
        }
        let magnitude = delta.magnitude
        return lhs.uptimeNanoseconds > magnitude
            ? Deadline(uptimeNanoseconds: lhs.uptimeNanoseconds - magnitude) : .distantPast
    }

    /// The time from `rhs` to `lhs`; negative if `lhs` is earlier.
    public static func - (lhs: Deadline, rhs: Deadline) -> Duration {
        if lhs >= rhs {
            return .nanoseconds(clampedToInt64(lhs.uptimeNanoseconds - rhs.uptimeNanoseconds))
        }
        return .nanoseconds(-clampedToInt64(rhs.uptimeNanoseconds - lhs.uptimeNanoseconds))
    }

    /// The earlier of two deadlines.
    public func earliest(_ other: Deadline) -> Deadline {
        Swift.min(self, other)
    }

    /// Orders deadlines by clock reading.
    public static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.uptimeNanoseconds < rhs.uptimeNanoseconds
    }

    /// The clock reading in nanoseconds, or `distantFuture`.
    public var description: String {
        self == .distantFuture ? "Deadline(distantFuture)" : "Deadline(\(uptimeNanoseconds)ns)"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`'s range (about ±292 years).
    public var wholeNanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return total
    }
}

private func clampedToInt64(_ value: UInt64) -> Int64 {
    value > UInt64(Int64.max) ? .max : Int64(value)
}
