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

    /// `C<number>`.
    public var description: String { "C\(rawValue)" }
}
