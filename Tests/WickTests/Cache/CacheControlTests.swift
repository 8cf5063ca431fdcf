// RFC 9111 §5.2: the Cache-Control grammar, request and response directives, malformed input.
import Foundation
import Testing
@testable import Wick

struct CacheControlTests {
    @Test func responseDirectivesOfTheRFC() {
        // §5.2.2: max-age, s-maxage, no-cache, no-store, must-revalidate, proxy-revalidate, private, public.
        let control = CacheControl("max-age=60, s-maxage=120, no-cache, no-store, must-revalidate, proxy-revalidate, private, public")
        #expect(control.maxAge == 60 && control.sharedMaxAge == 120)
        #expect(control.noCache && control.noStore && control.mustRevalidate && control.proxyRevalidate)
        #expect(control.isPrivate && control.isPublic)
    }

    @Test func requestDirectivesOfTheRFC() {
        // §5.2.1: max-age, max-stale (with and without a value), min-fresh, no-cache, no-store, only-if-cached.
        let control = CacheControl("max-age=5, max-stale=30, min-fresh=10, only-if-cached")
        #expect(control.maxAge == 5 && control.maxStale == 30 && control.minFresh == 10 && control.onlyIfCached)
        #expect(CacheControl("max-stale").maxStale == Int.max)
    }

    @Test func namesAreCaseInsensitiveAndWhitespaceIsOptional() {
        // §5.2: "Cache directives are identified by a token, to be compared case-insensitively".
        let control = CacheControl("  MAX-AGE = 7 ,No-Store,\tPUBLIC  ")
        #expect(control.maxAge == 7 && control.noStore && control.isPublic)
    }

    @Test func quotedArgumentsAreAcceptedAndFieldNameListsCountAsTheBareDirective() {
        // §5.2: "both the token and quoted-string forms of the argument syntax" must be accepted;
        // §5.2.2.4: no-cache="Set-Cookie" may be treated as unqualified no-cache.
        let control = CacheControl(#"max-age="42", no-cache="Set-Cookie, X-Foo", private="X-Bar""#)
        #expect(control.maxAge == 42 && control.noCache && control.isPrivate)
    }

    @Test func everyFieldOfAMessageCounts() {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "max-age=1")
        headers.add(name: "Cache-Control", value: "no-cache")
        let control = CacheControl(headers: headers)
        #expect(control.maxAge == 1 && control.noCache)
    }

    @Test func aMalformedMaxAgeMakesTheResponseStale() {
        // §4.2.1: "If ... the max-age directive is present with an invalid value, a cache SHOULD
        // consider the response to be stale."
        #expect(CacheControl("max-age=abc").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
        #expect(CacheControl("max-age=-1").maxAge == 0)
        #expect(CacheControl(#"max-age="12"x"#).maxAge == 0)
    }

    @Test func malformedOptionalArgumentsAreIgnored() {
        let control = CacheControl("min-fresh=soon, max-stale=later, s-maxage=")
        #expect(control.minFresh == nil && control.maxStale == nil && control.sharedMaxAge == nil)
    }

    @Test func deltaSecondsAreCappedAt2To31() {
        // §1.2.2: a value past the largest integer it can represent is taken as 2147483648.
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == 2_147_483_648)
        #expect(CacheControl("max-age=2147483648").maxAge == 2_147_483_648)
        #expect(CacheControl("max-age=2147483647").maxAge == 2_147_483_647)
    }

    @Test func unknownDirectivesAreIgnored() {
        // §5.2.3: extensions a cache does not understand are ignored.
        let control = CacheControl("community=\"UCI\", foo, bar=baz, max-age=3")
        #expect(control.maxAge == 3 && !control.noCache)
    }

    @Test func rfc5861DirectivesAreParsed() {
        let control = CacheControl("stale-while-revalidate=30, stale-if-error=600, immutable")
        #expect(control.staleWhileRevalidate == 30 && control.staleIfError == 600 && control.immutable)
    }

    @Test func theBytesReadAreBoundedAtTheLimitAndNotPastIt() {
        // A directive ending exactly at maximumFieldBytes counts; one byte further it does not.
        let filler = String(repeating: "x", count: CacheControl.maximumFieldBytes - ",no-store".utf8.count)
        #expect(CacheControl(filler + ",no-store").noStore)
        #expect(!CacheControl(filler + "y,no-store").noStore)
        // The budget is shared by all of a message's fields.
        let full = String(repeating: "x", count: CacheControl.maximumFieldBytes)
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: full)
        headers.add(name: "Cache-Control", value: "no-store")
        #expect(!CacheControl(headers: headers).noStore)
    }

    @Test func hostileInputNeverTraps() {
        for text in ["", ",", ",,,", "=", "==", "\"", "max-age=\"", "no-cache=\"\\", ";;", "\u{0}max-age=1", "max-age=1\u{7f}"] {
            _ = CacheControl(text)
        }
        // A quoted comma does not end a directive.
        let quoted = CacheControl(#"private="a,no-store", max-age=2"#)
        #expect(quoted.isPrivate && quoted.maxAge == 2 && !quoted.noStore)
    }

    @Test func pragmaNoCacheCountsOnlyWithoutCacheControl() {
        // §5.4: Pragma: no-cache is no-cache only when the request has no Cache-Control field.
        #expect(CacheControl.requestWantsNoCache(["Pragma": "no-cache"]))
        #expect(!CacheControl.requestWantsNoCache(["Pragma": "no-cache", "Cache-Control": "max-age=5"]))
        #expect(CacheControl.requestWantsNoCache(["Cache-Control": "no-cache"]))
        #expect(!CacheControl.requestWantsNoCache([:]))
    }
}
