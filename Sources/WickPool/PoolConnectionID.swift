// The identity of a connection the pool asked the runner to create.
import WickCore

/// A connection the pool asked the runner to create. The pool numbers connections itself, in
/// order of creation, so an identifier is never reused within one `PoolStateMachine`.
public struct PoolConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
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

    /// `C<number>`.
    public var description: String { "C\(rawValue)" }
}
