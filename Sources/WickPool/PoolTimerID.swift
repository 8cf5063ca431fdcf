// The identity of one scheduling of a timer the pool asked the runner for.
import WickCore

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

    /// Hashes the number as `UInt64` hashes itself.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The hash a `Dictionary` or `Set` uses: `identifierHash` (SplitMix64's finalizer) instead of the
    /// standard library's SipHash (the number is chosen here, never by a peer).
    public func _rawHashValue(seed: Int) -> Int { identifierHash(UInt64(rawValue), seed: seed) }

    /// `T<number>`.
    public var description: String { "T\(rawValue)" }
}
