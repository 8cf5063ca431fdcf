// The default HSTS store: known hosts in memory, bounded, with an optional preload list.
public import FoundationEssentials
import Synchronization
import WickReactor

/// A thread-safe `HSTSStorage` in memory: the known HSTS hosts of RFC 6797 §8, each with its
/// expiry and `includeSubDomains`, plus an optional preload list given at creation (hosts
/// known before any response, as browsers ship; they never expire, and a response's
/// `max-age=0` does not remove them). Bounded: past `maximumHosts` hosts, the one expiring
/// soonest is forgotten first.
///
/// A request to an http URL costs one atomic load while the store is empty; a lock and a
/// look-up per label of its host otherwise.
public final class InMemoryHSTSStorage: HSTSStorage {
    /// One known host's policy.
    struct Entry: Sendable {
        var expiry: Date
        var includesSubdomains: Bool
    }

    /// The default bound on known hosts: 10,000.
    public static let defaultMaximumHosts = 10_000

    /// The most hosts remembered from responses.
    public let maximumHosts: Int
    /// The preloaded hosts: never expire, never removed.
    private let preloaded: [HSTSHost: Bool]
    private let entries = Locked<[HSTSHost: Entry]>([:])
    /// `entries`' count as of its last change, readable without the lock (`isEmpty`).
    private let storedCount = Atomic<Int>(0)

    /// A store with no known host but the preloaded ones.
    /// - Parameter preloaded: host names known from the start, each with whether its
    ///   subdomains are included (a preload list, as RFC 6797 §12.3 describes). IP literals
    ///   are ignored.
    /// - Parameter maximumHosts: the most hosts recorded from responses (at least 1).
    public init(preloaded: [String: Bool] = [:], maximumHosts: Int = defaultMaximumHosts) {
        precondition(maximumHosts >= 1, "InMemoryHSTSStorage: maximumHosts must be positive")
        self.maximumHosts = maximumHosts
        var hosts: [HSTSHost: Bool] = [:]
        for (name, includesSubdomains) in preloaded {
            if let host = HSTSHost(name) { hosts[host] = includesSubdomains }
        }
        self.preloaded = hosts
    }

    /// How many hosts responses have recorded (expired ones included until they are looked up
    /// or evicted).
    public var count: Int { entries.withLock { $0.count } }

    /// Whether no host is known or preloaded (expired ones count until looked up).
    public var isEmpty: Bool { preloaded.isEmpty && storedCount.load(ordering: .acquiring) == 0 }

    /// `body` on the entries under their lock, then the count `isEmpty` reads.
    private func changingEntries<Result>(_ body: (inout [HSTSHost: Entry]) -> Result) -> Result {
        entries.withLock { entries in
            let result = body(&entries)
            storedCount.store(entries.count, ordering: .releasing)
            return result
        }
    }

    /// Records, updates or (with `max-age=0`) forgets `host` (§8.1.1).
    public func record(_ policy: StrictTransportSecurity, forHost host: String, now: Date) {
        guard let host = HSTSHost(host) else { return }
        changingEntries { entries in
            guard policy.maxAge > 0 else {
                entries[host] = nil
                return
            }
            entries[host] = Entry(
                expiry: now.addingTimeInterval(TimeInterval(policy.maxAge)),
                includesSubdomains: policy.includesSubdomains)
            if entries.count > maximumHosts, let soonest = entries.min(by: { $0.value.expiry < $1.value.expiry })?.key {
                entries[soonest] = nil
            }
        }
    }

    /// Every host recorded from responses (or restored) and not expired at `now`, by name.
    func recordedHosts(now: Date) -> [(name: String, expiry: Date, includesSubdomains: Bool)] {
        entries.withLock { entries in
            entries.filter { $0.value.expiry > now }.map { ($0.key.name, $0.value.expiry, $0.value.includesSubdomains) }
                .sorted { $0.name < $1.name }
        }
    }

    /// Adds `host` with an absolute expiry (an entry read from a file); an IP literal is ignored.
    func restore(host: String, expiry: Date, includesSubdomains: Bool) {
        guard let host = HSTSHost(host) else { return }
        changingEntries { entries in
            entries[host] = Entry(expiry: expiry, includesSubdomains: includesSubdomains)
            if entries.count > maximumHosts, let soonest = entries.min(by: { $0.value.expiry < $1.value.expiry })?.key {
                entries[soonest] = nil
            }
        }
    }

    /// Whether `host` or a superdomain with `includeSubDomains` is known at `now` (§8.2);
    /// expired entries met on the way are forgotten.
    public func requiresHTTPS(forHost host: String, now: Date) -> Bool {
        if isEmpty { return false }
        guard let host = HSTSHost(host) else { return false }
        if preloaded[host] != nil { return true }
        for superdomain in host.superdomains where preloaded[HSTSHost(uncheckedName: superdomain)] == true {
            return true
        }
        return changingEntries { entries in
            if Self.live(&entries, host, now: now) != nil { return true }
            for superdomain in host.superdomains {
                if let entry = Self.live(&entries, HSTSHost(uncheckedName: superdomain), now: now),
                    entry.includesSubdomains
                {
                    return true
                }
            }
            return false
        }
    }

    /// The entry for `host` if it has not expired; an expired one is removed (§8.1.1's
    /// "expired Known HSTS Host").
    private static func live(_ entries: inout [HSTSHost: Entry], _ host: HSTSHost, now: Date) -> Entry? {
        guard let entry = entries[host] else { return nil }
        guard entry.expiry > now else {
            entries[host] = nil
            return nil
        }
        return entry
    }
}
