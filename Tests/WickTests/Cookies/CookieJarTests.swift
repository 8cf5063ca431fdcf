// RFC 6265bis §5.7 and §5.8.3 on the jar, rule by rule, with time passed in: domains, host-only
// cookies, paths, Secure, the prefixes, replacement, expiry, order, limits and eviction.
import Foundation
import Testing
@testable import Wick

struct CookieJarTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A jar with small limits unless told otherwise.
    struct World {
        var jar = CookieJar(limits: .init(perDomain: 50, total: 3000))

        @discardableResult
        mutating func set(_ field: String, from url: String, at now: Date = t0) -> Result<CookieJar.Stored, CookieJar.Refusal> {
            guard let parsed = SetCookieParser.parse(field) else { preconditionFailure("unparsable: \(field)") }
            let target = CookieRequestURL(absoluteString: url)!
            return Result { () throws(CookieJar.Refusal) in try jar.store(parsed, from: target, now: now) }
        }

        mutating func refusal(_ field: String, from url: String, at now: Date = t0) -> CookieJar.Refusal? {
            if case .failure(let refusal) = set(field, from: url, at: now) { return refusal }
            return nil
        }

        /// The `Cookie` field a request to `url` sends.
        mutating func header(_ url: String, at now: Date = t0) -> String {
            jar.cookies(for: CookieRequestURL(absoluteString: url)!, now: now).map(\.pair).joined(separator: "; ")
        }
    }

    // MARK: - Domains

    @Test func aCookieWithoutDomainIsHostOnly() {
        var world = World()
        world.set("a=1", from: "http://example.com/")
        #expect(world.header("http://example.com/") == "a=1")
        #expect(world.header("http://EXAMPLE.com/x") == "a=1")
        #expect(world.header("http://www.example.com/") == "")
        #expect(world.header("http://com/") == "")
        #expect(world.jar.allCookies(now: Self.t0).first?.isHostOnly == true)
    }

    @Test func aDomainCookieGoesToTheDomainAndItsSubdomains() {
        var world = World()
        #expect(world.refusal("a=1; Domain=.Example.COM", from: "http://www.example.com/") == nil)
        for url in ["http://example.com/", "http://www.example.com/", "http://a.b.example.com/", "https://example.com:8443/"] {
            #expect(world.header(url) == "a=1", "\(url)")
        }
        for url in ["http://notexample.com/", "http://example.org/", "http://com/", "http://example.com.evil/"] {
            #expect(world.header(url) == "", "\(url)")
        }
        #expect(world.jar.allCookies(now: Self.t0).first?.domain == "example.com")
    }

    @Test(arguments: [
        ("Domain=www.example.com", "http://example.com/", .domainMismatch),  // a subdomain of the host
        ("Domain=other.com", "http://example.com/", .domainMismatch),
        ("Domain=ample.com", "http://example.com/", .domainMismatch),  // a suffix, but not at a dot
        ("Domain=0.0.1", "http://127.0.0.1/", .domainMismatch),  // IP addresses match only themselves
        ("Domain=0.1", "http://127.0.0.1/", .domainMismatch),
        ("Domain=1", "http://127.0.0.1/", .publicSuffixDomain),  // one label: refused as a public suffix first
        ("Domain=:1", "http://[::1]/", .publicSuffixDomain),
    ] as [(String, String, CookieJar.Refusal)])
    func aDomainTheHostDoesNotMatchIsRefused(attribute: String, url: String, refusal: CookieJar.Refusal) {
        var world = World()
        #expect(world.refusal("a=1; \(attribute)", from: url) == refusal)
    }

    @Test func anIPAddressMayNameItselfAsDomain() {
        var world = World()
        #expect(world.refusal("a=1; Domain=127.0.0.1", from: "http://127.0.0.1:8080/") == nil)
        #expect(world.header("http://127.0.0.1/") == "a=1")
        #expect(world.refusal("b=2", from: "http://[::1]/") == nil)
        #expect(world.header("http://[::1]:80/") == "b=2")
    }

    @Test func aNonASCIIDomainIsRefused() {
        var world = World()
        #expect(world.refusal("a=1; Domain=exämple.com", from: "http://www.example.com/") == .nonASCIIDomain)
    }

    @Test func aDomainOfJustADotMakesAHostOnlyCookie() {
        var world = World()
        world.set("a=1; Domain=.", from: "http://example.com/")
        #expect(world.jar.allCookies(now: Self.t0).first?.isHostOnly == true)
    }

    // MARK: - Paths

    @Test(arguments: [
        ("http://h/a/b/c", "/a/b"), ("http://h/a/b/", "/a/b"), ("http://h/a", "/"), ("http://h/", "/"),
        ("http://h", "/"), ("http://h/a/b?x=/y/z", "/a"), ("http://h/a/b#/x/y", "/a"), ("http://h//", "/"),
    ])
    func theDefaultPath(url: String, expected: String) {
        var world = World()
        world.set("a=1", from: url)
        #expect(world.jar.allCookies(now: Self.t0).first?.path == expected)
    }

    @Test(arguments: [
        // cookie path, request path, sent
        ("/", "/", true), ("/", "/anything/at/all", true), ("/a", "/a", true), ("/a", "/a/", true),
        ("/a", "/a/b", true), ("/a", "/ab", false), ("/a", "/", false), ("/a/", "/a/b", true), ("/a/", "/a", false),
        ("/a/b", "/a", false), ("/A", "/a", false),  // case matters in paths
        ("/a", "/a?q", true), ("/a", "", false),
    ])
    func pathMatching(cookiePath: String, requestPath: String, sent: Bool) {
        var world = World()
        world.set("a=1; Path=\(cookiePath)", from: "http://h/")
        #expect((world.header("http://h\(requestPath)") == "a=1") == sent)
    }

    // MARK: - Secure

    @Test(arguments: ["http://example.com/", "http://localhost/", "http://127.0.0.1:8080/", "HTTP://example.com/"])
    func secureIsNeverSetFromAnInsecureURL(url: String) {
        var world = World()
        #expect(world.refusal("a=1; Secure", from: url) == .secureFromInsecureURL)
    }

    @Test func secureIsSentOnlyOverHTTPS() {
        var world = World()
        world.set("a=1; Secure", from: "https://example.com/")
        world.set("b=2", from: "https://example.com/")
        #expect(world.header("https://example.com/") == "a=1; b=2")
        #expect(world.header("http://example.com/") == "b=2")
        #expect(world.header("http://localhost/") == "")
    }

    @Test func anInsecureCookieMayNotShadowASecureOne() {
        var world = World()
        world.set("a=1; Secure; Domain=example.com; Path=/x", from: "https://www.example.com/")
        // Same name, related domain, and the new path path-matches the secure one's.
        #expect(world.refusal("a=2; Path=/x/y", from: "http://example.com/") == .shadowsSecureCookie)
        #expect(world.refusal("a=2; Path=/x", from: "http://sub.www.example.com/") == .shadowsSecureCookie)
        // Another name, an unrelated domain, or a path the secure one's does not cover: allowed.
        #expect(world.refusal("b=2; Path=/x", from: "http://example.com/") == nil)
        #expect(world.refusal("a=2; Path=/x", from: "http://example.org/") == nil)
        #expect(world.refusal("a=2; Path=/", from: "http://example.com/") == nil)
        // From https the rule does not apply.
        #expect(world.refusal("a=3; Path=/x/y", from: "https://example.com/") == nil)
    }

    // MARK: - Prefixes and SameSite

    @Test(arguments: [
        ("__Secure-a=1", "https://h/", CookieJar.Refusal.securePrefixWithoutSecure as CookieJar.Refusal?),
        ("__secure-a=1", "https://h/", .securePrefixWithoutSecure),  // without case
        ("__Secure-a=1; Secure", "https://h/", nil),
        ("__Secure-a=1; Secure; Domain=h.test; Path=/x", "https://a.h.test/", nil),
        ("__Host-a=1; Secure; Path=/", "https://h/", nil),
        ("__HOST-a=1; Secure; Path=/", "https://h/", nil),
        ("__Host-a=1; Secure", "https://h/x", .hostPrefixRequirementsUnmet),  // no Path attribute
        ("__Host-a=1; Secure; Path=/x", "https://h/", .hostPrefixRequirementsUnmet),
        ("__Host-a=1; Path=/", "https://h/", .hostPrefixRequirementsUnmet),  // not Secure
        ("__Host-a=1; Secure; Path=/; Domain=h.test", "https://h.test/", .hostPrefixRequirementsUnmet),
        ("__Host-a=1; Secure; Path=relative", "https://h/", nil),  // the default path of / is /
        ("__Host-a=1; Secure; Path=relative", "https://h/dir/x", .hostPrefixRequirementsUnmet),
        ("__Secure-x", "https://h/", .namelessPrefixedValue),  // a nameless cookie that looks prefixed
        ("=__Host-x", "https://h/", .namelessPrefixedValue),
        ("__host-x; Secure; Path=/", "https://h/", .namelessPrefixedValue),
        ("SameSite=None", "https://h/", nil),  // a cookie named "SameSite", not an attribute
    ])
    func prefixes(field: String, url: String, refusal: CookieJar.Refusal?) {
        var world = World()
        #expect(world.refusal(field, from: url) == refusal, "\(field)")
    }

    @Test func sameSiteNoneNeedsSecure() {
        var world = World()
        #expect(world.refusal("a=1; SameSite=None", from: "https://h/") == .sameSiteNoneWithoutSecure)
        #expect(world.refusal("a=1; SameSite=None; Secure", from: "https://h/") == nil)
        #expect(world.refusal("b=1; SameSite=Strict", from: "http://h/") == nil)
        let kept = world.jar.allCookies(now: Self.t0).map { ($0.name, $0.sameSite) }.sorted { $0.0 < $1.0 }
        #expect(kept.map(\.1) == [.none, .strict])
    }

    @Test func aNamelessCookieSendsItsValueAlone() {
        var world = World()
        world.set("token", from: "http://h/")
        world.set("a=1", from: "http://h/", at: Self.t0 + 1)
        #expect(world.header("http://h/", at: Self.t0 + 2) == "token; a=1")
    }

    // MARK: - Replacement and expiry

    @Test func replacingKeepsTheCreationTimeAndSoThePlace() {
        var world = World()
        world.set("a=1", from: "http://h/", at: Self.t0)
        world.set("b=2", from: "http://h/", at: Self.t0 + 1)
        world.set("a=3; HttpOnly", from: "http://h/", at: Self.t0 + 2)
        #expect(world.header("http://h/", at: Self.t0 + 3) == "a=3; b=2")
        let a = world.jar.allCookies(now: Self.t0 + 3).first { $0.name == "a" }
        #expect(a?.creationTime == Self.t0)
        #expect(a?.isHTTPOnly == true)
        #expect(world.jar.count == 2)
    }

    @Test func aCookieIsReplacedOnlyWithTheSameDomainHostOnlyFlagAndPath() {
        var world = World()
        world.set("a=1", from: "http://example.com/")
        world.set("a=2; Domain=example.com", from: "http://example.com/", at: Self.t0 + 1)  // not host-only
        world.set("a=3; Path=/x", from: "http://example.com/", at: Self.t0 + 2)  // another path
        world.set("a=4", from: "http://www.example.com/", at: Self.t0 + 3)  // another domain
        #expect(world.jar.count == 4)
        #expect(world.header("http://www.example.com/x", at: Self.t0 + 4) == "a=2; a=4")
        #expect(world.header("http://example.com/x", at: Self.t0 + 4) == "a=3; a=1; a=2")
    }

    @Test func maxAgeSetsTheExpiry() {
        var world = World()
        world.set("a=1; Max-Age=10", from: "http://h/")
        #expect(world.header("http://h/", at: Self.t0 + 9) == "a=1")
        #expect(world.header("http://h/", at: Self.t0 + 10) == "")
        #expect(world.jar.count == 0)  // removed once seen expired
    }

    @Test func maxAgeWinsOverExpiresInEitherOrder() {
        var world = World()
        world.set("a=1; Max-Age=100; Expires=Thu, 01 Jan 1970 00:00:00 GMT", from: "http://h/")
        world.set("b=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=100", from: "http://h/")
        world.set("c=1; Max-Age=0; Expires=Fri, 01 Jan 2100 00:00:00 GMT", from: "http://h/")
        #expect(world.header("http://h/", at: Self.t0 + 50) == "a=1; b=1")
    }

    @Test func expiresSetsTheExpiry() {
        var world = World()
        let expires = Self.t0 + 3600
        world.set("a=1; Expires=\(Self.imfDate(expires))", from: "http://h/")
        #expect(world.jar.allCookies(now: Self.t0).first?.expires == expires)
        #expect(world.header("http://h/", at: expires - 1) == "a=1")
        #expect(world.header("http://h/", at: expires) == "")
    }

    @Test func anExpiredCookieDeletesTheOneItReplaces() {
        var world = World()
        world.set("a=1", from: "http://h/")
        world.set("b=1", from: "http://h/")
        #expect(world.set("a=gone; Max-Age=0", from: "http://h/", at: Self.t0 + 1) == .success(.expired))
        #expect(world.set("b=gone; Max-Age=-5", from: "http://h/", at: Self.t0 + 1) == .success(.expired))
        #expect(world.jar.count == 0)
        world.set("c=1", from: "http://h/")
        world.set("c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT", from: "http://h/", at: Self.t0 + 1)
        #expect(world.jar.count == 0)
    }

    @Test func lifetimesAreCappedAt400Days() {
        var world = World()
        world.set("a=1; Max-Age=999999999", from: "http://h/")
        world.set("b=1; Expires=Fri, 01 Jan 9999 00:00:00 GMT", from: "http://h/")
        for cookie in world.jar.allCookies(now: Self.t0) {
            #expect(cookie.expires == Self.t0 + 400 * 86_400)
        }
    }

    @Test func aCookieWithoutExpiryIsASessionCookie() {
        var world = World()
        world.set("a=1", from: "http://h/")
        let cookie = world.jar.allCookies(now: Self.t0).first
        #expect(cookie?.expires == nil)
        #expect(cookie?.isPersistent == false)
        #expect(world.header("http://h/", at: .distantFuture) == "a=1")
    }

    // MARK: - Order

    @Test func longerPathsFirstThenEarlierCreation() {
        var world = World()
        world.set("root=1; Path=/", from: "http://h/", at: Self.t0)
        world.set("deep=1; Path=/a/b", from: "http://h/", at: Self.t0 + 1)
        world.set("mid2=1; Path=/a", from: "http://h/", at: Self.t0 + 3)
        world.set("mid1=1; Path=/a", from: "http://h/", at: Self.t0 + 2)
        world.set("dom=1; Domain=h.test; Path=/a/", from: "http://x.h.test/", at: Self.t0 + 4)
        world.set("same=1; Path=/a", from: "http://h/", at: Self.t0 + 3)  // same time as mid2: stored later
        #expect(world.header("http://h/a/b/c", at: Self.t0 + 5) == "deep=1; mid1=1; mid2=1; same=1; root=1")
        #expect(world.header("http://x.h.test/a/b", at: Self.t0 + 5) == "dom=1")
    }

    @Test func theOrderHoldsAcrossDomainsReplacementsAndInsertedCookies() {
        // Each domain's list is kept in retrieval order and the lists are merged per request:
        // interleave two domains' paths and creation times, replace one, insert an older one.
        var world = World()
        world.set("hostRoot=1; Path=/", from: "http://www.h.test/", at: Self.t0 + 1)
        world.set("domDeep=1; Domain=h.test; Path=/a/b", from: "http://www.h.test/", at: Self.t0 + 2)
        world.set("hostMid=1; Path=/a", from: "http://www.h.test/", at: Self.t0 + 3)
        world.set("domRoot=1; Domain=h.test; Path=/", from: "http://www.h.test/", at: Self.t0 + 0.5)
        world.set("domMid=1; Domain=h.test; Path=/a", from: "http://www.h.test/", at: Self.t0 + 2.5)
        // A replacement keeps its creation time, so its place.
        world.set("hostMid=2; Path=/a", from: "http://www.h.test/", at: Self.t0 + 9)
        // A cookie from a file, created before all of them.
        world.jar.insert(
            Cookie(name: "old", value: "1", domain: "www.h.test", path: "/a", creationTime: Self.t0),
            now: Self.t0 + 10)
        let expected = "domDeep=1; old=1; domMid=1; hostMid=2; domRoot=1; hostRoot=1"
        #expect(world.header("http://www.h.test/a/b", at: Self.t0 + 11) == expected)
        #expect(world.jar.cookieFieldValue(for: CookieRequestURL(absoluteString: "http://www.h.test/a/b")!, now: Self.t0 + 11) == expected)
        #expect(world.header("http://h.test/a/b", at: Self.t0 + 11) == "domDeep=1; domMid=1; domRoot=1")
    }

    @Test func threeDomainsRunsMergeIntoOneOrder() {
        // The host's run, then its parent's, then the grandparent's: each merged into the
        // order so far as it is collected.
        var world = World()
        world.set("hostRoot=1; Path=/", from: "http://x.www.h.test/", at: Self.t0 + 5)
        world.set("hostDeep=1; Path=/a/b", from: "http://x.www.h.test/", at: Self.t0 + 6)
        world.set("wwwRoot=1; Domain=www.h.test; Path=/", from: "http://x.www.h.test/", at: Self.t0 + 1)
        world.set("wwwMid=1; Domain=www.h.test; Path=/a", from: "http://x.www.h.test/", at: Self.t0 + 7)
        world.set("topRoot=1; Domain=h.test; Path=/", from: "http://x.www.h.test/", at: Self.t0 + 3)
        world.set("topDeep=1; Domain=h.test; Path=/a/b", from: "http://x.www.h.test/", at: Self.t0 + 2)
        #expect(
            world.header("http://x.www.h.test/a/b", at: Self.t0 + 8)
                == "topDeep=1; hostDeep=1; wwwMid=1; wwwRoot=1; topRoot=1; hostRoot=1")
    }

    @Test func sendingMarksTheCookiesAccessed() {
        var world = World()
        world.set("a=1; Path=/a", from: "http://h/")
        world.set("b=1; Path=/b", from: "http://h/")
        _ = world.header("http://h/a", at: Self.t0 + 7)
        let times = Dictionary(uniqueKeysWithValues: world.jar.allCookies(now: Self.t0).map { ($0.name, $0.lastAccessTime) })
        #expect(times == ["a": Self.t0 + 7, "b": Self.t0])
    }

    // MARK: - Limits

    @Test func thePerDomainLimitAtNAndNPlusOne() {
        var world = World(jar: CookieJar(limits: .init(perDomain: 3, total: 100)))
        for (index, name) in ["a", "b", "c"].enumerated() { world.set("\(name)=1", from: "http://h/", at: Self.t0 + Double(index)) }
        #expect(world.jar.count == 3)
        // The fourth evicts the least recently accessed.
        world.set("d=1", from: "http://h/", at: Self.t0 + 3)
        #expect(world.header("http://h/", at: Self.t0 + 4) == "b=1; c=1; d=1")
    }

    @Test func evictionTakesExpiredThenInsecureThenLeastRecentlyUsed() {
        var world = World(jar: CookieJar(limits: .init(perDomain: 3, total: 100)))
        world.set("secure=1; Secure", from: "https://h/", at: Self.t0)
        world.set("short=1; Max-Age=5", from: "https://h/", at: Self.t0 + 1)
        world.set("plain=1", from: "https://h/", at: Self.t0 + 2)
        // At t0+10 "short" has expired: it goes first, and nothing else does.
        world.set("new1=1", from: "https://h/", at: Self.t0 + 10)
        #expect(Set(world.jar.allCookies(now: Self.t0 + 10).map(\.name)) == ["secure", "plain", "new1"])
        // Then the insecure ones before the secure one, although the secure one is the oldest.
        world.set("new2=1", from: "https://h/", at: Self.t0 + 11)
        #expect(Set(world.jar.allCookies(now: Self.t0 + 11).map(\.name)) == ["secure", "new1", "new2"])
        // Using a cookie protects it.
        _ = world.header("https://h/", at: Self.t0 + 12)
        world.set("x=1; Path=/x", from: "https://h/", at: Self.t0 + 13)
        world.set("y=1; Path=/x", from: "https://h/", at: Self.t0 + 14)
        #expect(Set(world.jar.allCookies(now: Self.t0 + 14).map(\.name)) == ["secure", "x", "y"])
    }

    @Test func theTotalLimitAtNAndNPlusOne() {
        var world = World(jar: CookieJar(limits: .init(perDomain: 10, total: 4)))
        for index in 0..<4 { world.set("c=\(index)", from: "http://h\(index).test/", at: Self.t0 + Double(index)) }
        #expect(world.jar.count == 4)
        _ = world.header("http://h0.test/", at: Self.t0 + 5)  // h0's cookie is now the most recently used
        world.set("c=4", from: "http://h4.test/", at: Self.t0 + 6)
        #expect(world.jar.count == 4)
        #expect(Set(world.jar.allCookies(now: Self.t0 + 6).map(\.domain)) == ["h0.test", "h2.test", "h3.test", "h4.test"])
    }

    @Test func theTotalLimitRemovesExpiredCookiesFirst() {
        var world = World(jar: CookieJar(limits: .init(perDomain: 10, total: 3)))
        world.set("old=1", from: "http://a.test/", at: Self.t0)
        world.set("brief=1; Max-Age=1", from: "http://b.test/", at: Self.t0 + 1)
        world.set("new=1", from: "http://c.test/", at: Self.t0 + 2)
        world.set("newer=1", from: "http://d.test/", at: Self.t0 + 3)
        #expect(Set(world.jar.allCookies(now: Self.t0 + 3).map(\.name)) == ["old", "new", "newer"])
    }

    /// IMF-fixdate of `date`, as a server writes `Expires`.
    static func imfDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
