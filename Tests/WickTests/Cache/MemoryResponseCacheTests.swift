// The memory store: variants by Vary, the byte budget, least-recently-used eviction, the
// entry limit (tested at N and N+1), fragments, and concurrent use.
import Foundation
import Testing
@testable import Wick

struct MemoryResponseCacheTests {
    static func response(_ path: String, bytes: Int = 10, varying: [String: String?] = [:]) -> CachedResponse {
        CachedResponse(
            url: URL(string: "https://example.com\(path)")!, statusCode: 200, headers: [:], data: Data(count: bytes),
            requestDate: CacheFreshnessTests.t0, responseDate: CacheFreshnessTests.t0, varyingRequestFields: varying)
    }

    @Test func storesLooksUpAndRemoves() {
        let cache = MemoryResponseCache()
        let a = Self.response("/a")
        cache.store(a)
        #expect(cache.cachedResponses(for: a.url) == [a])
        #expect(cache.cachedResponses(for: URL(string: "https://example.com/b")!).isEmpty)
        cache.removeCachedResponses(for: a.url)
        #expect(cache.cachedResponses(for: a.url).isEmpty && cache.currentBytes == 0)
    }

    @Test func theFragmentIsNotPartOfTheKey() {
        // RFC 9111 §2: the cache key is the target URI, which has no fragment.
        let cache = MemoryResponseCache()
        cache.store(Self.response("/a#top"))
        #expect(cache.cachedResponses(for: URL(string: "https://example.com/a#bottom")!).count == 1)
    }

    @Test func variantsAreKeptApartAndReplacedByTheirVaryingFields() {
        let cache = MemoryResponseCache()
        cache.store(Self.response("/a", varying: ["accept": "x"]))
        cache.store(Self.response("/a", varying: ["accept": "y"]))
        let replacement = Self.response("/a", bytes: 20, varying: ["accept": "x"])
        cache.store(replacement)
        let stored = cache.cachedResponses(for: replacement.url)
        #expect(stored.count == 2 && stored.contains(replacement))
        #expect(cache.currentBytes == stored.reduce(0) { $0 + $1.cost })
    }

    @Test func theBudgetEvictsTheLeastRecentlyUsed() {
        let one = Self.response("/1").cost
        let cache = MemoryResponseCache(maximumBytes: one * 3, maximumEntryBytes: one * 3)
        for path in ["/1", "/2", "/3"] { cache.store(Self.response(path)) }
        // A look-up is a use: /1 becomes the most recent, so /2 goes first.
        _ = cache.cachedResponses(for: URL(string: "https://example.com/1")!)
        cache.store(Self.response("/4"))
        #expect(cache.count == 3 && cache.currentBytes <= one * 3)
        #expect(cache.cachedResponses(for: URL(string: "https://example.com/2")!).isEmpty)
        for path in ["/1", "/3", "/4"] {
            #expect(cache.cachedResponses(for: URL(string: "https://example.com\(path)")!).count == 1, "\(path)")
        }
    }

    @Test func theEntryLimitAtNAndNPlusOne() {
        let size = Self.response("/a").cost
        let cache = MemoryResponseCache(maximumBytes: 1 << 20, maximumEntryBytes: size)
        cache.store(Self.response("/a"))
        cache.store(Self.response("/b", bytes: 11))
        #expect(cache.count == 1 && cache.cachedResponses(for: URL(string: "https://example.com/b")!).isEmpty)
    }

    @Test func removeAllEmptiesTheCache() {
        let cache = MemoryResponseCache()
        for index in 0..<10 { cache.store(Self.response("/\(index)")) }
        cache.removeAllCachedResponses()
        #expect(cache.count == 0 && cache.currentBytes == 0)
    }

    @Test func manyStoresStayWithinTheBudget() {
        // A flood of distinct URLs: memory is bounded by the budget whatever arrives.
        let cache = MemoryResponseCache(maximumBytes: 64 * 1024)
        for index in 0..<5_000 { cache.store(Self.response("/flood/\(index)", bytes: 500)) }
        #expect(cache.currentBytes <= 64 * 1024 && cache.count > 0)
        #expect(cache.cachedResponses(for: URL(string: "https://example.com/flood/4999")!).count == 1)
    }

    @Test func concurrentUseKeepsTheAccountsRight() async {
        let cache = MemoryResponseCache(maximumBytes: 16 * 1024)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let response = Self.response("/\((worker * 7 + index) % 64)", bytes: index % 300)
                        cache.store(response)
                        _ = cache.cachedResponses(for: response.url)
                        if index % 50 == 0 { cache.removeCachedResponses(for: response.url) }
                    }
                }
            }
        }
        var total = 0
        for index in 0..<64 {
            total += cache.cachedResponses(for: URL(string: "https://example.com/\(index)")!).reduce(0) { $0 + $1.cost }
        }
        #expect(total == cache.currentBytes && total <= 16 * 1024)
    }
}
