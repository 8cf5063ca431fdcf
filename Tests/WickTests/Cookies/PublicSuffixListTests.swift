// The Public Suffix List's own test cases (publicsuffix.org's tests/test_psl.txt, lower-cased
// as Wick's callers pass names), and what the list means for a cookie's Domain.
import Foundation
import Testing
@testable import Wick

struct PublicSuffixListTests {
    @Test(arguments: [
        // Mixed case (callers lower-case first).
        ("com", nil as String?), ("example.com", "example.com"), ("www.example.com", "example.com"),
        // Leading dot.
        (".com", nil), (".example", nil), (".example.com", nil), (".example.example", nil),
        // Unlisted TLD.
        ("example", nil), ("example.example", "example.example"), ("b.example.example", "example.example"),
        ("a.b.example.example", "example.example"),
        // TLD with only one rule.
        ("biz", nil), ("domain.biz", "domain.biz"), ("b.domain.biz", "domain.biz"), ("a.b.domain.biz", "domain.biz"),
        // TLD with some two-level rules.
        ("b.example.com", "example.com"), ("a.b.example.com", "example.com"), ("uk.com", nil),
        ("example.uk.com", "example.uk.com"), ("b.example.uk.com", "example.uk.com"),
        ("a.b.example.uk.com", "example.uk.com"), ("test.ac", "test.ac"),
        // TLD with only one wildcard rule.
        ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
        // More complex TLD.
        ("jp", nil), ("test.jp", "test.jp"), ("www.test.jp", "test.jp"), ("ac.jp", nil), ("test.ac.jp", "test.ac.jp"),
        ("www.test.ac.jp", "test.ac.jp"), ("kyoto.jp", nil), ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", nil),
        ("b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("c.kobe.jp", nil),
        ("b.c.kobe.jp", "b.c.kobe.jp"), ("a.b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"),
        ("www.city.kobe.jp", "city.kobe.jp"),
        // TLD with a wildcard rule and exceptions.
        ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("a.b.test.ck", "b.test.ck"), ("www.ck", "www.ck"),
        ("www.www.ck", "www.ck"),
        // US K12.
        ("us", nil), ("test.us", "test.us"), ("www.test.us", "test.us"), ("ak.us", nil), ("test.ak.us", "test.ak.us"),
        ("www.test.ak.us", "test.ak.us"), ("k12.ak.us", nil), ("test.k12.ak.us", "test.k12.ak.us"),
        ("www.test.k12.ak.us", "test.k12.ak.us"),
        // IDN labels, in their ASCII form.
        ("xn--85x722f.com.cn", "xn--85x722f.com.cn"), ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"), ("shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn"),
        ("xn--55qx5d.cn", nil), ("xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"),
        ("www.xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"), ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s"),
        ("xn--fiqs8s", nil),
    ])
    func registrableDomain(domain: String, expected: String?) {
        #expect(PublicSuffixList.registrableDomain(of: domain).map(String.init) == expected, "\(domain)")
    }

    @Test(arguments: [
        ("co.uk", true), ("uk", true), ("example.co.uk", false), ("com", true), ("github.io", true),  // private section
        ("user.github.io", false), ("localhost", true),  // any single label, by the rule "*"
        ("anything.ck", true), ("www.ck", false), ("city.kobe.jp", false), ("x.kobe.jp", true),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true), ("0", true), ("zzzzzzzzzz.zz", false)  // an unlisted TLD: "zz" is the suffix,
    ])
    func isPublicSuffix(domain: String, expected: Bool) {
        #expect(PublicSuffixList.isPublicSuffix(domain) == expected, "\(domain)")
    }

    @Test func theGeneratedTableIsSortedAndWhole() {
        let rules = PublicSuffixList.rules.split(separator: "\n")
        #expect(rules.count > 5000)
        #expect(zip(rules, rules.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for rule in ["com", "co.uk", "*.ck", "!www.ck", "github.io", "xn--55qx5d.cn"] { #expect(rules.contains(Substring(rule))) }
    }

    @Test func aCookieForAPublicSuffixIsRefusedUnlessItIsTheHost() {
        var world = CookieJarTests.World()
        #expect(world.refusal("a=1; Domain=co.uk", from: "http://www.example.co.uk/") == .publicSuffixDomain)
        #expect(world.refusal("a=1; Domain=.uk", from: "http://example.co.uk/") == .publicSuffixDomain)
        #expect(world.refusal("a=1; Domain=github.io", from: "https://user.github.io/") == .publicSuffixDomain)
        #expect(world.refusal("a=1; Domain=example.co.uk", from: "http://www.example.co.uk/") == nil)
        // The host itself is a public suffix: the cookie becomes host-only.
        #expect(world.refusal("b=1; Domain=localhost", from: "http://localhost/") == nil)
        #expect(world.jar.allCookies(now: CookieJarTests.t0).first { $0.name == "b" }?.isHostOnly == true)
        #expect(world.header("http://www.example.co.uk/") == "a=1")
        #expect(world.header("http://other.co.uk/") == "")
    }
}
