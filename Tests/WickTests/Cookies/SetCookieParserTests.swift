// RFC 6265bis §5.6, rule by rule: the name-value split, trimming, the size limits, control
// characters, and each attribute's parsing, with the last valid attribute winning.
import Foundation
import Testing
@testable import Wick

struct SetCookieParserTests {
    private static func parse(_ field: String) -> SetCookie? { SetCookieParser.parse(field) }

    @Test(arguments: [
        // field, name, value
        ("a=b", "a", "b"),
        ("  a  =  b  ", "a", "b"),
        ("\ta\t=\tb\t", "a", "b"),
        ("a=b=c", "a", "b=c"),  // split at the first "="
        ("a=", "a", ""),
        ("=b", "", "b"),
        ("b", "", "b"),  // no "=": the whole pair is the value
        ("  b  ", "", "b"),
        ("a b=c d", "a b", "c d"),  // inner spaces stay
        ("a=\"quoted\"", "a", "\"quoted\""),  // quotes are part of the value
        ("a=b; Path=/", "a", "b"),
        ("a=b;", "a", "b"),
        ("a=;b", "a", ""),
        ("ünï=cødé", "ünï", "cødé"),
        ("a=b\u{0009}c", "a", "b\tc"),  // HTAB is allowed inside
    ])
    func theNameValuePair(field: String, name: String, value: String) throws {
        let cookie = try #require(Self.parse(field))
        #expect(cookie.name == name)
        #expect(cookie.value == value)
    }

    @Test(arguments: [
        "", "=", " = ", ";", "=; Path=/", "  ;a=b",
        // Control characters other than HTAB ignore the whole field, wherever they are.
        "a=b\u{0000}", "a\u{0001}=b", "a=b\u{001F}", "a=b\u{007F}", "a=b; Path=/\u{0008}", "a=b\r\nX: y",
        "a=b\n", "a=b; Domain=exa\u{000B}mple.com",
    ])
    func ignoredFields(field: String) {
        #expect(Self.parse(field) == nil, "\(field.debugDescription)")
    }

    @Test func theSizeLimitIsOnNameAndValueTogether() {
        let limit = SetCookieParser.maximumNameValueBytes
        #expect(Self.parse(String(repeating: "n", count: 96) + "=" + String(repeating: "v", count: limit - 96)) != nil)
        #expect(Self.parse(String(repeating: "n", count: 96) + "=" + String(repeating: "v", count: limit - 95)) == nil)
        #expect(Self.parse(String(repeating: "v", count: limit)) != nil)
        #expect(Self.parse(String(repeating: "v", count: limit + 1)) == nil)
        // Whitespace trimmed away does not count; attributes do not count.
        #expect(Self.parse("  " + String(repeating: "v", count: limit) + "  ; Path=/" + String(repeating: "p", count: 1000)) != nil)
        // Bytes, not characters.
        #expect(Self.parse("a=" + String(repeating: "é", count: (limit - 1) / 2)) != nil)
        #expect(Self.parse("a=" + String(repeating: "é", count: (limit - 1) / 2 + 1)) == nil)
    }

    @Test func anAttributeValueOverTheLimitIsIgnored() throws {
        let limit = SetCookieParser.maximumAttributeValueBytes
        let fits = "/" + String(repeating: "p", count: limit - 1)
        let tooLong = "/" + String(repeating: "p", count: limit)
        #expect(try #require(Self.parse("a=b; Path=\(fits)")).path == fits)
        let ignored = try #require(Self.parse("a=b; Path=/kept; Path=\(tooLong)"))
        #expect(ignored.path == "/kept")
        let domain = String(repeating: "d", count: limit + 1)
        #expect(try #require(Self.parse("a=b; Domain=\(domain)")).domain == nil)
    }

    @Test func attributeNamesIgnoreCaseAndSurroundingSpace() throws {
        let cookie = try #require(
            Self.parse("a=b;   sEcUrE  ; HTTPONLY;  pAtH  =  /x  ; DOMAIN = Example.COM ; samesite = STRICT"))
        #expect(cookie.isSecure)
        #expect(cookie.isHTTPOnly)
        #expect(cookie.path == "/x")
        #expect(cookie.domain == "example.com")
        #expect(cookie.sameSite == .strict)
    }

    @Test func flagsIgnoreTheirValues() throws {
        let cookie = try #require(Self.parse("a=b; Secure=no; HttpOnly=false"))
        #expect(cookie.isSecure)
        #expect(cookie.isHTTPOnly)
    }

    @Test func unknownAndEmptyAttributesAreIgnored() throws {
        let cookie = try #require(Self.parse("a=b; ; ;; Priority=High; =x; Partitioned; Comment=hi"))
        #expect(cookie == SetCookie(name: "a", value: "b"))
    }

    @Test func expiresParsesACookieDateAndTheLastValidOneWins() throws {
        let first = CookieDateParserTests.utc(2030, 1, 1)
        let second = CookieDateParserTests.utc(2031, 2, 3, 4, 5, 6)
        #expect(try #require(Self.parse("a=b; Expires=Tue, 01 Jan 2030 00:00:00 GMT")).expires == first)
        #expect(
            try #require(Self.parse("a=b; Expires=Tue, 01 Jan 2030 00:00:00 GMT; expires=3 Feb 2031 04:05:06")).expires
                == second)
        // An invalid date later does not undo an earlier valid one.
        #expect(try #require(Self.parse("a=b; Expires=1 Jan 2030 00:00:00; Expires=never")).expires == first)
        #expect(try #require(Self.parse("a=b; Expires=")).expires == nil)
        #expect(try #require(Self.parse("a=b; Expires=31 Feb 2030 00:00:00")).expires == nil)
    }

    @Test(arguments: [
        ("Max-Age=100", 100 as Int64?), ("Max-Age=0", 0), ("Max-Age=-1", -1), ("Max-Age=007", 7),
        ("max-age=  42  ", 42), ("Max-Age=99999999999999999999999", Int64.max),
        ("Max-Age=-99999999999999999999999", Int64.min),
        // Ignored: not "-" or a digit first, a non-digit later, empty, a lone "-", a plus sign.
        ("Max-Age=abc", nil), ("Max-Age=1a", nil), ("Max-Age=", nil), ("Max-Age=-", nil), ("Max-Age=+5", nil),
        ("Max-Age=1.5", nil), ("Max-Age=1 2", nil), ("Max-Age=--1", nil),
    ] as [(String, Int64?)])
    func maxAge(attribute: String, expected: Int64?) throws {
        #expect(try #require(Self.parse("a=b; \(attribute)")).maxAge == expected)
    }

    @Test func theLastValidMaxAgeWins() throws {
        #expect(try #require(Self.parse("a=b; Max-Age=5; Max-Age=x; Max-Age=9")).maxAge == 9)
        #expect(try #require(Self.parse("a=b; Max-Age=5; Max-Age=x")).maxAge == 5)
    }

    @Test(arguments: [
        ("Domain=example.com", "example.com" as String?), ("Domain=.example.com", "example.com"),
        ("Domain=EXAMPLE.Com", "example.com"), ("Domain=..example.com", ".example.com"),  // one dot only
        ("Domain=", nil), ("Domain", nil), ("Domain=  ", nil), ("Domain=.", ""),
    ] as [(String, String?)])
    func domain(attribute: String, expected: String?) throws {
        #expect(try #require(Self.parse("a=b; \(attribute)")).domain == expected)
    }

    @Test func anEmptyDomainDoesNotUndoAnEarlierOne() throws {
        #expect(try #require(Self.parse("a=b; Domain=a.example; Domain=")).domain == "a.example")
        #expect(try #require(Self.parse("a=b; Domain=a.example; Domain=b.example")).domain == "b.example")
    }

    @Test(arguments: [
        ("Path=/", "/" as String?, true), ("Path=/a/b", "/a/b", true), ("Path=/a/b/", "/a/b/", true),
        ("Path=a", nil, true), ("Path=", nil, true), ("Path", nil, true), ("", nil, false),
        ("Path=/a; Path=b", nil, true),  // the last one wins, and means the default path
        ("Path=b; Path=/a", "/a", true),
    ] as [(String, String?, Bool)])
    func path(attribute: String, expected: String?, present: Bool) throws {
        let cookie = try #require(Self.parse("a=b; \(attribute)"))
        #expect(cookie.path == expected)
        #expect(cookie.hasPath == present)
    }

    @Test(arguments: [
        ("SameSite=Strict", CookieSameSite.strict), ("SameSite=lax", .lax), ("SameSite=NONE", .none),
        ("SameSite=", .default), ("SameSite", .default), ("SameSite=Bogus", .default), ("", .default),
        ("SameSite=Lax; SameSite=Nonsense", .default), ("SameSite=None; SameSite=Strict", .strict),
    ])
    func sameSite(attribute: String, expected: CookieSameSite) throws {
        #expect(try #require(Self.parse("a=b; \(attribute)")).sameSite == expected)
    }

    @Test func aFullRealisticField() throws {
        let cookie = try #require(
            Self.parse(
                "SID=31d4d96e407aad42; Path=/; Domain=.Example.com; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Max-Age=3600; Secure; HttpOnly; SameSite=Lax"
            ))
        #expect(
            cookie
                == SetCookie(
                    name: "SID", value: "31d4d96e407aad42", expires: CookieDateParserTests.utc(2021, 6, 9, 10, 18, 14),
                    maxAge: 3600, domain: "example.com", path: "/", isSecure: true, isHTTPOnly: true, sameSite: .lax))
    }

    @Test func aSemicolonInsideQuotesStillEndsThePair() throws {
        // §5.6 knows no quoting: the value ends at the first ";".
        let cookie = try #require(Self.parse("a=\"b;c\"; Secure"))
        #expect(cookie.value == "\"b")
        #expect(cookie.isSecure)
    }
}
