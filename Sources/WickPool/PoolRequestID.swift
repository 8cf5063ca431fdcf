// The identity of a request that wants a connection, chosen by the runner.
import WickCore

/// A request that wants a connection. The runner chooses the number and keeps it unique among the
/// requests waiting in the pool (a replay may reuse the number of the request it replays).
public struct PoolRequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number that identifies it.
    public let rawValue: UInt64

    /// An identifier with the runner's number for the request.
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

    /// `R<number>`.
    public var description: String { "R\(rawValue)" }
}
