// Request identifiers without a system call: a random process prefix and a counter.
import FoundationEssentials
import Synchronization

/// Makes the `UUID`s of requests. `UUID()` reads `/dev/urandom` (an open, a read and a close)
/// every time, which was three of a request's system calls; an identifier only has to be unique,
/// so each one is a random 64-bit prefix drawn once per process followed by a 64-bit counter,
/// laid out as a version 4, variant 1 UUID (RFC 9562). The version bits replace 4 bits of the
/// prefix and the variant bits the counter's top 2, leaving 2^62 identifiers before a repeat.
enum RequestIdentifier {
    private static let prefix: UInt64 = (UInt64.random(in: .min ... .max) & ~0xF000) | 0x4000
    private static let counter = Atomic<UInt64>(0)

    /// The next request's serial number: what a request keeps, so that its `UUID` is only
    /// made when asked for (`uuid(_:)`), which most requests never are.
    static func nextSerial() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The identifier of the request numbered `serial`: the process prefix and the serial, with
    /// the version and variant bits set. Distinct serials below 2^62 give distinct identifiers.
    static func uuid(_ serial: UInt64) -> UUID {
        let high = prefix
        let low = (serial & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
                byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
