// The default store around the jar: fields parsed and refused quietly, URLs without cookies,
// the Cookie field's value, and many threads at once.
import Foundation
import Testing
@testable import Wick

struct InMemoryCookieStorageTests {
    let now = CookieJarTests.t0

    @Test func storesParsedFieldsAndDropsTheRest() {
        let storage = InMemoryCookieStorage()
        let url = URL(string: "https://api.example.com/v1/items")!
        storage.storeCookies(from: ["a=1; Path=/", "", "b=2\u{0001}", "c=3; Secure; Path=/v1", "d=4; Domain=other.com"], for: url, now: now)
        #expect(storage.cookieFieldValue(for: URL(string: "https://api.example.com/v1/x")!, now: now) == "c=3; a=1")
        #expect(storage.cookieFieldValue(for: URL(string: "http://api.example.com/v1/x")!, now: now) == "a=1")
        #expect(storage.cookieFieldValue(for: URL(string: "https://example.com/")!, now: now) == nil)
        #expect(storage.allCookies(now: now).count == 2)
    }

    @Test func onlyHTTPAndHTTPSURLsHaveCookies() {
        let storage = InMemoryCookieStorage()
        storage.storeCookies(from: ["a=1"], for: URL(string: "http+unix://%2Ftmp%2Fs.sock/x")!, now: now)
        storage.storeCookies(from: ["a=1"], for: URL(string: "ftp://h/")!, now: now)
        #expect(storage.allCookies(now: now).isEmpty)
        storage.storeCookies(from: ["a=1"], for: URL(string: "http://user:pw@h:81/")!, now: now)
        #expect(storage.cookies(for: URL(string: "ftp://h/")!, now: now).isEmpty)
        #expect(storage.cookies(for: URL(string: "http://h/")!, now: now).map(\.name) == ["a"])
    }

    @Test func insertTakesACookieAsItIs() {
        let storage = InMemoryCookieStorage(maximumCookiesPerDomain: 2, maximumCookies: 10)
        #expect(storage.maximumCookiesPerDomain == 2)
        #expect(storage.maximumCookies == 10)
        storage.insert(Cookie(name: "a", value: "1", domain: "h.test", isHostOnly: false, creationTime: now), now: now)
        #expect(storage.cookieFieldValue(for: URL(string: "http://www.h.test/")!, now: now) == "a=1")
        storage.removeAll()
        #expect(storage.allCookies(now: now).isEmpty)
    }

    @Test func isEmptyFollowsEveryChangeToTheJar() {
        let storage = InMemoryCookieStorage()
        let url = URL(string: "http://h.test/")!
        #expect(storage.isEmpty)
        storage.storeCookies(from: ["a=1; Max-Age=10"], for: url, now: now)
        #expect(!storage.isEmpty)
        storage.removeAll()
        #expect(storage.isEmpty)
        storage.insert(Cookie(name: "b", value: "2", domain: "h.test", isHostOnly: true, creationTime: now), now: now)
        #expect(!storage.isEmpty)
        // A cookie that expires counts until a look-up drops it.
        storage.removeAll()
        storage.storeCookies(from: ["c=3; Max-Age=10"], for: url, now: now)
        #expect(storage.cookieFieldValue(for: url, now: now.addingTimeInterval(11)) == nil)
        #expect(storage.isEmpty)
        // A store that cannot tell says it may hold cookies.
        final class Opaque: CookieStorage {
            func storeCookies(from setCookieFields: [String], for url: URL, now: Date) {}
            func cookies(for url: URL, now: Date) -> [Cookie] { [] }
        }
        #expect(!Opaque().isEmpty)
    }

    @Test func manyThreadsStoreAndReadAtOnce() async {
        let storage = InMemoryCookieStorage()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let url = URL(string: "http://h\(worker % 4).test/")!
                    for index in 0..<200 {
                        storage.storeCookies(from: ["c\(index % 60)=\(worker)"], for: url, now: now + Double(index))
                        _ = storage.cookieFieldValue(for: url, now: now + Double(index))
                        await Task.yield()  // many short holds of the cooperative thread, not one long one
                    }
                }
            }
        }
        let cookies = storage.allCookies(now: now + 1000)
        #expect(cookies.count == 4 * InMemoryCookieStorage.defaultMaximumCookiesPerDomain)
    }
}
