// A cheap hash for the small numbers Wick picks as keys (requests, connections, timers, streams,
// descriptors), for Swift's hashed collections.

/// The hash a `Dictionary` or `Set` asks of an identifier (`_rawHashValue(seed:)`): the number
/// and the collection's seed through SplitMix64's finalizer (two multiplications and three
/// shifts, about ten instructions), instead of SipHash (about 90 a lookup; a request makes about
/// a dozen).
///
/// Only for numbers Wick or the kernel chooses (counters, descriptors, stream ids): a key an
/// attacker chooses needs the standard library's keyed hash against collision floods. Every
/// bit of the input reaches the low bits a dictionary picks its bucket by, so consecutive and
/// strided numbers spread over the buckets as a random hash's would.
@inlinable
package func identifierHash(_ value: UInt64, seed: Int) -> Int {
    var mixed = (value ^ UInt64(UInt(bitPattern: seed))) &+ 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(bitPattern: UInt(truncatingIfNeeded: mixed ^ (mixed >> 31)))
}
