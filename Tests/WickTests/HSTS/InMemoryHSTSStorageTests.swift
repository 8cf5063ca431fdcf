// RFC 6797 §8: known HSTS hosts — recording, expiry, max-age=0, includeSubDomains matching,
// IP literals, the preload list, and the bound on hosts.
import Foundation
import Testing
@testable import Wick

struct InMemoryHSTSStorageTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRecordedHostIsKnownUntilItExpires() {
        // §8.1.1: the host is known for max-age seconds from receipt.
        let store = InMemoryHSTSStorage()
        store.record(StrictTransportSecurity(maxAge: 60, includesSubdomains: false), forHost: "example.com", now: Self.t0)
        #expect(store.requiresHTTPS(forHost: "example.com", now: Self.t0.addingTimeInterval(59)))
        #expect(store.requiresHTTPS(forHost: "EXAMPLE.com.", now: Self.t0))
        #expect(!store.requiresHTTPS(forHost: "example.com", now: Self.t0.addingTimeInterval(60)))
        // The expired entry was forgotten when it was met.
        #expect(store.count == 0)
    }

    @Test func isEmptyFollowsRecordsExpiryAndThePreloadList() {
        let store = InMemoryHSTSStorage()
        #expect(store.isEmpty)
        store.record(StrictTransportSecurity(maxAge: 60, includesSubdomains: false), forHost: "example.com", now: Self.t0)
        #expect(!store.isEmpty)
        // Expired: forgotten when met by a look-up, and the store is empty again.
        #expect(!store.requiresHTTPS(forHost: "example.com", now: Self.t0.addingTimeInterval(61)))
        #expect(store.isEmpty)
        store.record(StrictTransportSecurity(maxAge: 60, includesSubdomains: false), forHost: "example.com", now: Self.t0)
        store.record(StrictTransportSecurity(maxAge: 0, includesSubdomains: false), forHost: "example.com", now: Self.t0)
        #expect(store.isEmpty)
        #expect(!InMemoryHSTSStorage(preloaded: ["example.org": true]).isEmpty)
    }

    @Test func maxAgeZeroForgetsTheHost() {
        // §6.1.1: "A max-age value of zero ... signals the UA to cease regarding the host as a Known HSTS Host".
        let store = InMemoryHSTSStorage()
        store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: true), forHost: "example.com", now: Self.t0)
        store.record(StrictTransportSecurity(maxAge: 0, includesSubdomains: false), forHost: "example.com", now: Self.t0)
        #expect(!store.requiresHTTPS(forHost: "example.com", now: Self.t0) && store.isEmpty)
    }

    @Test func subdomainsOnlyWithIncludeSubDomains() {
        // §8.2: a superdomain match counts only when that host asserted includeSubDomains.
        let store = InMemoryHSTSStorage()
        store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: true), forHost: "example.com", now: Self.t0)
        store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: false), forHost: "example.org", now: Self.t0)
        #expect(store.requiresHTTPS(forHost: "a.b.example.com", now: Self.t0))
        #expect(!store.requiresHTTPS(forHost: "www.example.org", now: Self.t0))
        #expect(!store.requiresHTTPS(forHost: "badexample.com", now: Self.t0))
        #expect(!store.requiresHTTPS(forHost: "com", now: Self.t0))
    }

    @Test func ipLiteralsAreNeverRecorded() {
        // §8.1 and §8.3: IP-literal and IPv4address hosts are not HSTS hosts.
        let store = InMemoryHSTSStorage()
        for host in ["127.0.0.1", "::1", "[::1]", "192.168.0.255"] {
            store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: true), forHost: host, now: Self.t0)
            #expect(!store.requiresHTTPS(forHost: host, now: Self.t0), "\(host)")
        }
        #expect(store.isEmpty)
        // A name that only looks numeric in part is a name.
        store.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: false), forHost: "1.2.3.example", now: Self.t0)
        #expect(store.requiresHTTPS(forHost: "1.2.3.example", now: Self.t0))
    }

    @Test func preloadedHostsAreKnownFromTheStartAndStay() {
        let store = InMemoryHSTSStorage(preloaded: ["preloaded.example": true, "10.0.0.1": true])
        #expect(!store.isEmpty)
        #expect(store.requiresHTTPS(forHost: "preloaded.example", now: Self.t0))
        #expect(store.requiresHTTPS(forHost: "api.preloaded.example", now: Self.t0))
        #expect(!store.requiresHTTPS(forHost: "10.0.0.1", now: Self.t0))
        store.record(StrictTransportSecurity(maxAge: 0, includesSubdomains: false), forHost: "preloaded.example", now: Self.t0)
        #expect(store.requiresHTTPS(forHost: "preloaded.example", now: Self.t0))
    }

    @Test func theHostBoundAtNAndNPlusOne() {
        let store = InMemoryHSTSStorage(maximumHosts: 3)
        for (index, host) in ["a.example", "b.example", "c.example"].enumerated() {
            store.record(StrictTransportSecurity(maxAge: 100 + index, includesSubdomains: false), forHost: host, now: Self.t0)
        }
        #expect(store.count == 3)
        store.record(StrictTransportSecurity(maxAge: 1000, includesSubdomains: false), forHost: "d.example", now: Self.t0)
        // The one expiring soonest went.
        #expect(store.count == 3 && !store.requiresHTTPS(forHost: "a.example", now: Self.t0))
        #expect(store.requiresHTTPS(forHost: "d.example", now: Self.t0))
    }
}
