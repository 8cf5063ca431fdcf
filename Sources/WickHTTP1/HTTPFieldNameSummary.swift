// Which field names a section may hold, in 64 bits, so that looking up a name the section lacks
// (most lookups on a typical response: Keep-Alive, Set-Cookie, Content-Encoding) ends without
// walking its fields.

/// A set of 64 buckets that every field name of a section falls into: a name whose bucket is
/// empty is not in the section; a name whose bucket is set may be. The bucket depends on the
/// name's length and on its first and last bytes with the ASCII case bit set, so names equal
/// ignoring ASCII case share a bucket.
struct HTTPFieldNameSummary: Sendable, Equatable {
    private var bits: UInt64 = 0

    /// A summary of no names.
    init() {}

    /// Adds the name `count` bytes long from `first` to `last`.
    mutating func insert(count: Int, first: UInt8, last: UInt8) {
        bits |= Self.bucket(count: count, first: first, last: last)
    }

    /// Whether the name in `bytes` may be in the section: false means it is not. An empty name
    /// may always be (no section holds one, so a caller's walk finds nothing).
    func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        return mayContain(count: bytes.count, first: first, last: last)
    }

    /// Whether the name `count` bytes long from `first` to `last` may be in the section: false
    /// means it is not.
    func mayContain(count: Int, first: UInt8, last: UInt8) -> Bool {
        bits & Self.bucket(count: count, first: first, last: last) != 0
    }

    @inline(__always)
    private static func bucket(count: Int, first: UInt8, last: UInt8) -> UInt64 {
        let mixed = count &* 7 &+ Int(first | 0x20) &* 3 &+ Int(last | 0x20)
        return 1 &<< UInt64(truncatingIfNeeded: mixed & 63)
    }
}
