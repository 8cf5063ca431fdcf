// The jar's rendered host list (HostCookieList): reused for the same host and security, whatever
// the path, while nothing changed; never once a cookie was stored, removed or expired; each
// field marking its cookies accessed as a walk of the store would.
import Foundation
import Testing

@testable import Wick

struct CookieFieldReuseTests {
    static let t0 = CookieJarTests.t0

    /// The `Cookie` field a request to `url` at `now` sends.
    static func field(_ world: inout CookieJarTests.World, _ url: String, at now: Date = t0) -> String? {
        world.jar.cookieFieldValue(for: CookieRequestURL(absoluteString: url)!, now: now)
    }

    @Test func aRepeatedRequestGetsTheSameFieldAndMarksItsCookiesAccessed() {
        var world = CookieJarTests.World()
        world.set("a=1; Path=/", from: "https://h.test/")
        world.set("b=2; Path=/", from: "https://h.test/", at: Self.t0 + 1)
        #expect(Self.field(&world, "https://h.test/x", at: Self.t0 + 2) == "a=1; b=2")
        #expect(Self.field(&world, "https://h.test/x", at: Self.t0 + 5) == "a=1; b=2")
        #expect(world.jar.allCookies(now: Self.t0 + 5).map(\.lastAccessTime) == [Self.t0 + 5, Self.t0 + 5])
    }

    @Test func aStoredOrReplacedCookieChangesTheNextField() {
        var world = CookieJarTests.World()
        world.set("a=1", from: "http://h.test/")
        #expect(Self.field(&world, "http://h.test/") == "a=1")
        world.set("b=2", from: "http://h.test/")
        #expect(Self.field(&world, "http://h.test/") == "a=1; b=2")
        world.set("a=3", from: "http://h.test/")
        #expect(Self.field(&world, "http://h.test/") == "a=3; b=2")
        world.set("b=; Max-Age=0", from: "http://h.test/")
        #expect(Self.field(&world, "http://h.test/") == "a=3")
        world.jar.removeAll()
        #expect(Self.field(&world, "http://h.test/") == nil)
    }

    @Test func aCookieOfTheFieldExpiringEndsTheReuseAtItsExpiry() {
        var world = CookieJarTests.World()
        world.set("a=1; Max-Age=10", from: "http://h.test/")
        world.set("b=2", from: "http://h.test/")
        #expect(Self.field(&world, "http://h.test/", at: Self.t0 + 9) == "a=1; b=2")
        #expect(Self.field(&world, "http://h.test/", at: Self.t0 + 9.5) == "a=1; b=2")
        // Expired at its expiry time itself (`expires <= now`), and removed by that walk.
        #expect(Self.field(&world, "http://h.test/", at: Self.t0 + 10) == "b=2")
        #expect(world.jar.count == 1)
    }

    @Test(arguments: [
        ("https://h.test/v1/x", "v=1; s=1; r=1"),
        ("https://h.test/other", "s=1; r=1"),
        ("http://h.test/v1/x", "v=1; r=1"),
        ("https://www.h.test/v1/x", "r=1"),
        ("https://h.test/v1/x?q=1", "v=1; s=1; r=1"),
    ])
    func anotherPathSecurityOrHostIsWalkedAfresh(url: String, expected: String) {
        var world = CookieJarTests.World()
        world.set("s=1; Path=/; Secure", from: "https://h.test/", at: Self.t0)
        world.set("v=1; Path=/v1", from: "https://h.test/", at: Self.t0 + 2)
        world.set("r=1; Domain=h.test; Path=/", from: "https://h.test/", at: Self.t0 + 1)
        #expect(Self.field(&world, "https://h.test/v1/x") == "v=1; s=1; r=1")
        #expect(Self.field(&world, url) == expected)
        // And back: the first request's field again, whichever was built last.
        #expect(Self.field(&world, "https://h.test/v1/x") == "v=1; s=1; r=1")
    }

    @Test func aReuseCountsAsAnAccessForEviction() {
        // Past the per-domain limit the least recently accessed cookie goes. `a` is older and
        // was first sent before `b` was stored; only the reuse at t0 + 2 makes it the more
        // recently accessed one, so `b` is evicted, not `a`.
        var world = CookieJarTests.World()
        world.jar = CookieJar(limits: .init(perDomain: 2, total: 3000))
        world.set("a=1; Path=/x", from: "http://h.test/x/", at: Self.t0)
        #expect(Self.field(&world, "http://h.test/x/1", at: Self.t0 + 0.5) == "a=1")
        world.set("b=1; Path=/y", from: "http://h.test/y/", at: Self.t0 + 1)
        #expect(Self.field(&world, "http://h.test/x/1", at: Self.t0 + 2) == "a=1")
        world.set("c=1; Path=/z", from: "http://h.test/z/", at: Self.t0 + 3)
        #expect(world.jar.allCookies(now: Self.t0 + 3).map(\.name) == ["a", "c"])
    }

    @Test func eachPathsFieldMarksOnlyItsOwnCookiesAccessed() {
        var world = CookieJarTests.World()
        world.set("root=1; Path=/", from: "http://h.test/")
        world.set("x=1; Path=/x", from: "http://h.test/x/")
        world.set("y=1; Path=/y", from: "http://h.test/y/")
        #expect(Self.field(&world, "http://h.test/x/1", at: Self.t0 + 1) == "x=1; root=1")
        #expect(Self.field(&world, "http://h.test/y/1", at: Self.t0 + 2) == "y=1; root=1")
        #expect(Self.field(&world, "http://h.test/x/2", at: Self.t0 + 3) == "x=1; root=1")
        let times = Dictionary(
            uniqueKeysWithValues: world.jar.allCookies(now: Self.t0 + 3).map { ($0.name, $0.lastAccessTime) })
        #expect(times == ["root": Self.t0 + 3, "x": Self.t0 + 3, "y": Self.t0 + 2])
    }

    @Test func severalHostsKeepTheirRenderedCookiesAndAStoreRendersThemAnew() {
        // More hosts than are kept rendered, in turn, then a store: every field stays right, and
        // each cookie's access time is the last time a field carried it.
        var world = CookieJarTests.World()
        let hosts = (0...CookieJar.renderedHostLimit).map { "h\($0).test" }
        for (index, host) in hosts.enumerated() { world.set("c\(index)=\(index)", from: "https://\(host)/") }
        for round in 0..<3 {
            for (index, host) in hosts.enumerated() {
                let now = Self.t0 + Double(round * 10 + index)
                #expect(Self.field(&world, "https://\(host)/p\(round)", at: now) == "c\(index)=\(index)")
            }
        }
        world.set("c0=new", from: "https://h0.test/", at: Self.t0 + 30)
        #expect(Self.field(&world, "https://h0.test/", at: Self.t0 + 31) == "c0=new")
        #expect(Self.field(&world, "https://h1.test/", at: Self.t0 + 32) == "c1=1")
        let times = Dictionary(
            uniqueKeysWithValues: world.jar.allCookies(now: Self.t0 + 32).map { ($0.name, $0.lastAccessTime) })
        var expected = Dictionary(uniqueKeysWithValues: hosts.indices.map { ("c\($0)", Self.t0 + Double(20 + $0)) })
        expected["c0"] = Self.t0 + 31
        expected["c1"] = Self.t0 + 32
        #expect(times == expected)
    }

    @Test func aWalkThatRemovedExpiredCookiesStillGivesTheRightFieldNext() {
        // The walk that meets an expired cookie removes it, which moves the others: its field
        // is not kept, and the next request walks again.
        var world = CookieJarTests.World()
        world.set("a=1; Max-Age=5", from: "http://h.test/")
        world.set("b=2", from: "http://h.test/", at: Self.t0 + 1)
        world.set("c=3", from: "http://h.test/", at: Self.t0 + 2)
        #expect(Self.field(&world, "http://h.test/", at: Self.t0 + 6) == "b=2; c=3")
        #expect(Self.field(&world, "http://h.test/", at: Self.t0 + 7) == "b=2; c=3")
        #expect(world.jar.allCookies(now: Self.t0 + 7).map(\.lastAccessTime) == [Self.t0 + 7, Self.t0 + 7])
    }
}
