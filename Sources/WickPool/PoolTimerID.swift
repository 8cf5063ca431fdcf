// The identity of one scheduling of a timer the pool asked the runner for.

/// One scheduling of a timer. Every scheduling gets a new identifier, so a report that a timer
/// fired can never be mistaken for a later timer with the same purpose.
public struct PoolTimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number that identifies it.
    public let rawValue: UInt64

    /// An identifier with an explicit number. The pool makes these; runners and tests compare them.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders identifiers by number.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `T<number>`.
    public var description: String { "T\(rawValue)" }
}
