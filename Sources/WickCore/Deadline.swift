// A point in monotonic time, in nanoseconds: the currency of every timeout in Wick.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A point on the system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds since boot.
/// Its arithmetic and comparisons are inlinable: the request path compares and adds deadlines
/// several times per request, each a call into this module otherwise.
///
/// Sans-I/O code never reads the clock: it receives `Deadline`s as arguments. Only I/O layers
/// call `now()`. Arithmetic saturates, so `distantFuture + anything` stays `distantFuture`.
public struct Deadline: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds on the monotonic clock.
    public let uptimeNanoseconds: UInt64

    /// A deadline at an exact reading of the monotonic clock.
    @inlinable public init(uptimeNanoseconds: UInt64) {
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
    @inlinable public func hasPassed(at now: Deadline) -> Bool {
        self <= now
    }

    /// How long from `now` until this deadline; zero if it has passed.
    @inlinable public func timeRemaining(at now: Deadline) -> Duration {
        guard uptimeNanoseconds > now.uptimeNanoseconds else { return .zero }
        return .nanoseconds(clampedToInt64(uptimeNanoseconds - now.uptimeNanoseconds))
    }

    /// The deadline `amount` later, saturating at `distantFuture` (and at `distantPast` for a
    /// negative amount).
    @inlinable public static func + (lhs: Deadline, rhs: Duration) -> Deadline {
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
    @inlinable public static func - (lhs: Deadline, rhs: Deadline) -> Duration {
        if lhs >= rhs {
            return .nanoseconds(clampedToInt64(lhs.uptimeNanoseconds - rhs.uptimeNanoseconds))
        }
        return .nanoseconds(-clampedToInt64(rhs.uptimeNanoseconds - lhs.uptimeNanoseconds))
    }

    /// The earlier of two deadlines.
    @inlinable public func earliest(_ other: Deadline) -> Deadline {
        Swift.min(self, other)
    }

    /// Orders deadlines by clock reading.
    @inlinable public static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.uptimeNanoseconds < rhs.uptimeNanoseconds
    }

    /// The clock reading in nanoseconds, or `distantFuture`.
    public var description: String {
        self == .distantFuture ? "Deadline(distantFuture)" : "Deadline(\(uptimeNanoseconds)ns)"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated toward zero), clamped to `Int64`'s range
    /// (about ±292 years).
    ///
    /// The 128-bit attosecond count is divided by 10^9 in 32-bit digits, each step a 64-bit
    /// division by a constant (a multiplication). Deadlines are computed several times per
    /// request, and the alternatives divide in software: `components` divides a 128-bit value
    /// twice, and `dividingFullWidth` calls the C runtime's 128-bit division (`__udivti3`).
    public var wholeNanosecondsClamped: Int64 {
        let attoseconds = self.attoseconds
        let magnitude = attoseconds.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64)
        let low = UInt64(truncatingIfNeeded: magnitude)
        let divisor: UInt64 = 1_000_000_000
        // The quotient fits in 64 bits only when the high word is below the divisor; it is then
        // the first remainder of the long division, and each step's value stays below 2^62.
        guard high < divisor else { return attoseconds < 0 ? .min : .max }
        let upper = high << 32 | low >> 32
        let lower = (upper % divisor) << 32 | low & 0xFFFF_FFFF
        let nanoseconds = (upper / divisor) << 32 | lower / divisor
        guard nanoseconds <= UInt64(Int64.max) else { return attoseconds < 0 ? .min : .max }
        return attoseconds < 0 ? -Int64(nanoseconds) : Int64(nanoseconds)
    }
}

/// `value`, or `Int64.max` when it is larger.
@usableFromInline func clampedToInt64(_ value: UInt64) -> Int64 {
    value > UInt64(Int64.max) ? .max : Int64(value)
}
