// Optional durations and deadlines in 8 bytes, for metrics that are copied with every response.

/// An optional `Duration` kept as whole nanoseconds in 8 bytes, where `Duration?` takes 24 once
/// padded: a response's metrics hold several and are moved through every layer with it. The
/// sub-nanosecond part is dropped (measured phases are differences of `Deadline`s, whole
/// nanoseconds), and a duration beyond ±292 years is clamped.
package struct CompactDuration: Sendable, Hashable {
    private var nanoseconds: Int64
    private static let absent = Int64.min

    /// `duration`, or nil.
    package init(_ duration: Duration?) {
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
    package var value: Duration? {
        nanoseconds == Self.absent ? nil : .nanoseconds(nanoseconds)
    }
}

/// An optional `Deadline` in 8 bytes (`Deadline?` takes 16 once padded), for the same reason as
/// `CompactDuration`. `Deadline.distantFuture` cannot be kept: it reads back as nil (a metric
/// records a clock reading, never that).
package struct CompactDeadline: Sendable, Hashable {
    private var uptimeNanoseconds: UInt64

    /// `deadline`, or nil.
    package init(_ deadline: Deadline?) {
        uptimeNanoseconds = deadline?.uptimeNanoseconds ?? .max
    }

    /// The deadline, or nil.
    package var value: Deadline? {
        uptimeNanoseconds == .max ? nil : Deadline(uptimeNanoseconds: uptimeNanoseconds)
    }
}
