// Optional durations and deadlines in 8 bytes, for metrics that are copied with every response.

/// An optional `Duration` kept as whole nanoseconds in 8 bytes, where `Duration?` takes 24 once
/// padded: a response's metrics hold several and are moved through every layer with it. The
/// sub-nanosecond part is dropped (measured phases are differences of `Deadline`s, whole
/// nanoseconds), and a duration beyond ±292 years is clamped.
package struct CompactDuration: Sendable, Hashable {
    @usableFromInline var nanoseconds: Int64
    @usableFromInline static var absent: Int64 { .min }

    /// No duration: what every metrics value starts with, seven times, so it costs a constant
    /// store rather than a call to `init(_:)` (which the optimizer keeps out of line).
    @inlinable package static var none: CompactDuration { CompactDuration(nanoseconds: absent) }

    /// A reading already in this form (`absent` for none).
    @inlinable init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// `duration`, or nil.
    @inlinable package init(_ duration: Duration?) {
        guard let duration else {
            nanoseconds = Self.absent
            return
        }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow {
            nanoseconds = seconds < 0 ? Self.absent + 1 : .max
        } else {
            let (sum, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
            nanoseconds = overflowSum ? (whole < 0 ? Self.absent + 1 : .max) : Swift.max(sum, Self.absent + 1)
        }
    }

    /// The duration, or nil.
    @inlinable package var value: Duration? {
        nanoseconds == Self.absent ? nil : .nanoseconds(nanoseconds)
    }

    /// The time from `start` to `end`, or nil when `end` is: the same as
    /// `CompactDuration(end.value.map { $0 - start })` without building a `Duration` (whose
    /// 128-bit arithmetic cost about 70 instructions per phase, seven phases per response).
    @inlinable package init(from start: Deadline, to end: CompactDeadline) {
        guard let endNanoseconds = end.nanosecondsIfPresent else {
            nanoseconds = Self.absent
            return
        }
        // Both readings clamped to 0...Int64.max: the difference neither overflows nor reaches
        // the absent marker.
        nanoseconds = Int64(clamping: endNanoseconds) - Int64(clamping: start.uptimeNanoseconds)
    }
}

extension CompactDuration {
    /// The time from `start` to `end`: `CompactDuration(end - start)` without building a
    /// `Duration` (as `init(from:to:)` for an optional end does).
    @inlinable package init(from start: Deadline, to end: Deadline) {
        // Both readings clamped to 0...Int64.max: the difference neither overflows nor reaches
        // the absent marker.
        self.init(nanoseconds: Int64(clamping: end.uptimeNanoseconds) - Int64(clamping: start.uptimeNanoseconds))
    }
}

/// An optional `Deadline` in 8 bytes (`Deadline?` takes 16 once padded), for the same reason as
/// `CompactDuration`. `Deadline.distantFuture` cannot be kept: it reads back as nil (a metric
/// records a clock reading, never that).
package struct CompactDeadline: Sendable, Hashable {
    @usableFromInline var uptimeNanoseconds: UInt64

    /// No deadline (see `CompactDuration.none`).
    @inlinable package static var none: CompactDeadline { CompactDeadline(nil) }

    /// `deadline`, or nil.
    @inlinable package init(_ deadline: Deadline?) {
        uptimeNanoseconds = deadline?.uptimeNanoseconds ?? .max
    }

    /// The deadline, or nil.
    @inlinable package var value: Deadline? {
        uptimeNanoseconds == .max ? nil : Deadline(uptimeNanoseconds: uptimeNanoseconds)
    }

    /// The deadline's reading in nanoseconds, or nil.
    @inlinable var nanosecondsIfPresent: UInt64? { uptimeNanoseconds == .max ? nil : uptimeNanoseconds }
}
