// Revocation answers kept until their nextUpdate, so that each is fetched once per validity window.
import FoundationEssentials
import Synchronization

/// OCSP responses and CRLs by request, each kept until its own nextUpdate. Thread-safe; bounded
/// (at `capacity` entries the entry expiring first is dropped). Shared by the connections of a
/// `TLSContext`.
public final class RevocationCache: Sendable {
    private struct Entry {
        var bytes: [UInt8]
        var expires: Date
    }

    /// The most entries kept.
    public let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    /// A cache of at most `capacity` answers (default 1,024).
    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "a revocation cache holds at least one entry")
        self.capacity = capacity
    }

    /// The cached answer for `key` if it is still valid at `now`.
    func answer(for key: String, at now: Date) -> [UInt8]? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now < entry.expires else {
                entries[key] = nil
                return nil
            }
            return entry.bytes
        }
    }

    /// Keeps `bytes` for `key` until `expires`.
    func store(_ bytes: [UInt8], for key: String, until expires: Date) {
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity,
                let soonest = entries.min(by: { $0.value.expires < $1.value.expires })?.key
            {
                entries[soonest] = nil
            }
            entries[key] = Entry(bytes: bytes, expires: expires)
        }
    }

    /// The number of answers held.
    public var count: Int { entries.withLock { $0.count } }
}
