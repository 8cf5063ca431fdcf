// RFC 9111 §4: what a private cache does with a request — use, validate, 504 or fetch — for
// every request directive (§5.2.1), Vary (§4.1), must-revalidate and no-cache, and the four
// request cache policies.
import Foundation
import Testing
@testable import Wick

struct CacheDecisionTests {
    static let t0 = CacheFreshnessTests.t0

    /// A response stored at t0 with `fields` (and a Date of t0).
    static func stored(_ fields: [String: String], varying: [String: String?] = [:]) -> CachedResponse {
        var response = CacheFreshnessTests.stored(fields.merging(["Date": CacheFreshnessTests.http(t0)]) { a, _ in a })
        response.varyingRequestFields = varying
        return response
    }

    static func decide(
        _ stored: [CachedResponse], request: HTTPHeaders = [:], method: HTTPMethod = .get,
        policy: RequestCachePolicy = .useProtocolCachePolicy, at seconds: Double = 10, staleWhileRevalidate: Bool = false
    ) -> CacheDecision {
        CacheDecision.decide(
            method: method, headers: request, policy: policy, stored: stored, now: t0.addingTimeInterval(seconds),
            staleWhileRevalidate: staleWhileRevalidate)
    }

    static let fresh = stored(["Cache-Control": "max-age=60", "ETag": "\"v1\""])
    static let validators = stored([
        "Cache-Control": "max-age=5", "ETag": "\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
    ])

    @Test func aFreshResponseIsUsedWithItsAge() {
        #expect(Self.decide([Self.fresh]) == .useStored(Self.fresh, age: 10))
    }

    @Test func aStaleResponseIsValidatedWithBothValidators() {
        // §4.3.1: If-None-Match with the ETag, If-Modified-Since with Last-Modified.
        guard case .validate(let stored, let fields) = Self.decide([Self.validators]) else {
            Issue.record("expected a validation")
            return
        }
        #expect(stored == Self.validators)
        #expect(fields.value(for: "If-None-Match") == "\"v1\"")
        #expect(fields.value(for: "If-Modified-Since") == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func aStaleResponseWithoutValidatorsIsFetchedAgain() {
        #expect(Self.decide([Self.stored(["Cache-Control": "max-age=5"])]) == .network)
    }

    @Test func nothingStoredGoesToTheNetwork() {
        #expect(Self.decide([]) == .network)
    }

    @Test func onlyGETAndHEADReadTheCache() {
        for method in [HTTPMethod.post, .put, .delete, .patch, .options] {
            #expect(Self.decide([Self.fresh], method: method) == .network, "\(method)")
        }
        #expect(Self.decide([Self.fresh], method: .head) == .useStored(Self.fresh, age: 10))
    }

    @Test func theCallersOwnConditionalOrRangeRequestIsLeftAlone() {
        for name in CacheDecision.conditionalFieldNames {
            #expect(Self.decide([Self.fresh], request: [name: "x"]) == .network, "\(name)")
        }
    }

    @Test func requestMaxAge() {
        // §5.2.1.1: "the client prefers a response whose age is less than or equal to" max-age.
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "max-age=10"]) == .useStored(Self.fresh, age: 10))
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "max-age=9"]) != .useStored(Self.fresh, age: 10))
        // max-age=0 forces validation.
        guard case .validate = Self.decide([Self.fresh], request: ["Cache-Control": "max-age=0"]) else {
            Issue.record("max-age=0 must validate")
            return
        }
    }

    @Test func requestMinFresh() {
        // §5.2.1.3: fresh for at least min-fresh more seconds (60 - 10 = 50 left).
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "min-fresh=50"]) == .useStored(Self.fresh, age: 10))
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "min-fresh=51"]) != .useStored(Self.fresh, age: 10))
    }

    @Test func requestMaxStale() {
        // §5.2.1.2: stale by at most N seconds (at 70 s the response is 10 s stale), or any with no value.
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "max-stale=10"], at: 70) == .useStored(Self.fresh, age: 70))
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "max-stale=9"], at: 70) != .useStored(Self.fresh, age: 70))
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "max-stale"], at: 100_000) == .useStored(Self.fresh, age: 100_000))
    }

    @Test func mustRevalidateOverridesMaxStale() {
        // §5.2.2.2: once stale, "the cache MUST NOT reuse that response to satisfy another
        // request until it has been successfully validated".
        let strict = Self.stored(["Cache-Control": "max-age=60, must-revalidate", "ETag": "\"v1\""])
        guard case .validate = Self.decide([strict], request: ["Cache-Control": "max-stale"], at: 70) else {
            Issue.record("must-revalidate must validate")
            return
        }
    }

    @Test func noCacheInTheRequestOrTheResponseValidatesEvenWhenFresh() {
        // §5.2.1.4, §5.2.2.4, and Pragma: no-cache (§5.4).
        for request: HTTPHeaders in [["Cache-Control": "no-cache"], ["Pragma": "no-cache"]] {
            guard case .validate = Self.decide([Self.fresh], request: request) else {
                Issue.record("\(request) must validate")
                continue
            }
        }
        let noCache = Self.stored(["Cache-Control": "no-cache, max-age=600", "ETag": "\"v1\""])
        guard case .validate = Self.decide([noCache]) else {
            Issue.record("a no-cache response must be validated")
            return
        }
    }

    @Test func onlyIfCached() {
        // §5.2.1.7: use a stored response, or "respond with a 504 (Gateway Timeout)".
        #expect(Self.decide([], request: ["Cache-Control": "only-if-cached"]) == .gatewayTimeout)
        #expect(Self.decide([Self.fresh], request: ["Cache-Control": "only-if-cached"]) == .useStored(Self.fresh, age: 10))
        #expect(Self.decide([Self.validators], request: ["Cache-Control": "only-if-cached"]) == .gatewayTimeout)
        #expect(
            Self.decide([Self.validators], request: ["Cache-Control": "only-if-cached, max-stale"]) == .useStored(Self.validators, age: 10))
    }

    @Test func varySelectsTheMatchingVariant() {
        // §4.1: the stored response is used only when the fields its Vary names match.
        let english = Self.stored(["Cache-Control": "max-age=60", "Vary": "Accept-Language"], varying: ["accept-language": "en"])
        let french = Self.stored(["Cache-Control": "max-age=60", "Vary": "Accept-Language"], varying: ["accept-language": "fr"])
        #expect(Self.decide([english, french], request: ["Accept-Language": "fr"]) == .useStored(french, age: 10))
        #expect(Self.decide([english, french], request: ["accept-language": "en"]) == .useStored(english, age: 10))
        #expect(Self.decide([english, french], request: ["Accept-Language": "de"]) == .network)
        #expect(Self.decide([english, french], request: [:]) == .network)
    }

    @Test func varyNormalisesWhitespaceAndMatchesAbsentFields() {
        // §4.1: values may be normalised (whitespace after commas); a field absent from both requests matches.
        let response = Self.stored(["Cache-Control": "max-age=60", "Vary": "Accept, X-Absent"], varying: ["accept": "a,b", "x-absent": String?.none])
        #expect(Self.decide([response], request: ["Accept": "a,   b"]) == .useStored(response, age: 10))
        #expect(Self.decide([response], request: ["Accept": "a, b", "X-Absent": "1"]) == .network)
    }

    @Test func theNewestMatchingResponseIsUsed() {
        var older = Self.fresh
        older.responseDate = Self.t0.addingTimeInterval(-5)
        older.requestDate = older.responseDate
        #expect(Self.decide([older, Self.fresh]) == .useStored(Self.fresh, age: 10))
    }

    @Test func policies() {
        let stale = Self.validators
        // reloadIgnoringLocalCacheData never reads.
        #expect(Self.decide([Self.fresh], policy: .reloadIgnoringLocalCacheData) == .network)
        // returnCacheDataElseLoad uses whatever is stored, stale or not, without validation.
        #expect(Self.decide([stale], policy: .returnCacheDataElseLoad) == .useStored(stale, age: 10))
        #expect(Self.decide([], policy: .returnCacheDataElseLoad) == .network)
        // returnCacheDataDontLoad: stored or 504, never the network.
        #expect(Self.decide([stale], policy: .returnCacheDataDontLoad) == .useStored(stale, age: 10))
        #expect(Self.decide([], policy: .returnCacheDataDontLoad) == .gatewayTimeout)
    }

    @Test func storedVaryingFieldsAreTheRequestsCombinedValues() {
        var request = HTTPHeaders()
        request.add(name: "Accept", value: "a")
        request.add(name: "accept", value: " b ")
        let fields = CachedResponse.varyingFields(of: request, for: ["Vary": "accept, Accept-Language"])
        #expect(fields == ["accept": "a,b", "accept-language": String?.none])
    }
}

/// RFC 5861 §4: stale-if-error, from the response or the request, within its window only, and
/// never past must-revalidate.
struct CacheStaleIfErrorTests {
    static let t0 = CacheFreshnessTests.t0

    @Test func theWindowOfTheResponseOrTheRequest() {
        let stored = CacheDecisionTests.stored(["Cache-Control": "max-age=10, stale-if-error=60", "ETag": "\"v1\""])
        // At 70 s the response is 60 s stale: inside the window; at 71 s, outside.
        #expect(CacheDecision.staleIfErrorAge(of: stored, requestHeaders: [:], now: Self.t0.addingTimeInterval(70)) == 70)
        #expect(CacheDecision.staleIfErrorAge(of: stored, requestHeaders: [:], now: Self.t0.addingTimeInterval(71)) == nil)
        #expect(
            CacheDecision.staleIfErrorAge(
                of: stored, requestHeaders: ["Cache-Control": "stale-if-error=100"], now: Self.t0.addingTimeInterval(71)) == 71)
        let plain = CacheDecisionTests.stored(["Cache-Control": "max-age=10", "ETag": "\"v1\""])
        #expect(CacheDecision.staleIfErrorAge(of: plain, requestHeaders: [:], now: Self.t0.addingTimeInterval(11)) == nil)
    }

    @Test func mustRevalidateWins() {
        let strict = CacheDecisionTests.stored(["Cache-Control": "max-age=10, stale-if-error=60, must-revalidate"])
        #expect(CacheDecision.staleIfErrorAge(of: strict, requestHeaders: [:], now: Self.t0.addingTimeInterval(20)) == nil)
    }
}

/// RFC 9111 §4 and RFC 9110 §9.3.2: a HEAD answered from a stored GET; a stale one is not
/// validated with a conditional HEAD but sent as it is, and its 200 freshens the stored GET
/// (§4.3.5, `CacheHeadFresheningTests`).
struct CacheHeadDecisionTests {
    @Test func aFreshStoredGETAnswersAHEAD() {
        #expect(CacheDecisionTests.decide([CacheDecisionTests.fresh], method: .head) == .useStored(CacheDecisionTests.fresh, age: 10))
    }

    @Test func aStaleOneSendsTheHEADUnconditionally() {
        #expect(CacheDecisionTests.decide([CacheDecisionTests.validators], method: .head) == .network)
        // Even where a GET would be served stale while it is revalidated.
        let swr = CacheDecisionTests.stored(["Cache-Control": "max-age=5, stale-while-revalidate=60", "ETag": "\"v1\""])
        #expect(CacheDecisionTests.decide([swr], method: .head, staleWhileRevalidate: true) == .network)
    }

    @Test func theRequestsDirectivesAndPoliciesCountAsForAGET() {
        let stale = CacheDecisionTests.validators
        #expect(CacheDecisionTests.decide([stale], request: ["Cache-Control": "only-if-cached"], method: .head) == .gatewayTimeout)
        #expect(CacheDecisionTests.decide([stale], request: ["Cache-Control": "max-stale"], method: .head) == .useStored(stale, age: 10))
        #expect(CacheDecisionTests.decide([stale], method: .head, policy: .returnCacheDataElseLoad) == .useStored(stale, age: 10))
        #expect(CacheDecisionTests.decide([CacheDecisionTests.fresh], request: ["Range": "bytes=0-1"], method: .head) == .network)
    }

    @Test func theHEADGetsTheStoredFieldsAndNoBody() {
        var stored = CacheDecisionTests.fresh
        stored.data = Data("hello".utf8)
        stored.headers.update(name: "Content-Length", value: "5")
        let head = Session.responseFromCache(stored, age: 3, to: .head)
        #expect(head.body.isEmpty && head.headers.value(for: "Content-Length") == "5" && head.headers.value(for: "Age") == "3")
        #expect(head.status.rawValue == 200 && head.headers.value(for: "ETag") == "\"v1\"")
        #expect(Session.responseFromCache(stored, age: 3, to: .get).body == stored.data)
    }
}

/// RFC 5861 §3 with RFC 9111 §4.2.4: a stale response within its `stale-while-revalidate`
/// window is used at once and revalidated in the background, only when the session opts in
/// and nothing forbids serving it stale.
struct CacheStaleWhileRevalidateDecisionTests {
    /// Fresh for 5 s, then usable stale for 60 s more; stored at t0 with both validators.
    static let swr = CacheDecisionTests.stored([
        "Cache-Control": "max-age=5, stale-while-revalidate=60", "ETag": "\"v1\"",
        "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
    ])

    static func decide(
        _ stored: CachedResponse = swr, request: HTTPHeaders = [:], policy: RequestCachePolicy = .useProtocolCachePolicy,
        at seconds: Double = 10, enabled: Bool = true
    ) -> CacheDecision {
        CacheDecisionTests.decide([stored], request: request, policy: policy, at: seconds, staleWhileRevalidate: enabled)
    }

    @Test func withinTheWindowTheStaleResponseIsUsedAndRevalidated() {
        guard case .useStaleWhileRevalidating(let stored, let age, let fields) = Self.decide() else {
            Issue.record("expected the stale response while revalidating")
            return
        }
        #expect(stored == Self.swr && age == 10)
        #expect(fields == CacheDecision.conditionalFields(for: Self.swr))
        #expect(fields.value(for: "If-None-Match") == "\"v1\"")
        // Stale by exactly 60 s (65 s old) is the window's last second; 61 s is past it.
        guard case .useStaleWhileRevalidating = Self.decide(at: 65) else {
            Issue.record("65 s is within the window")
            return
        }
        guard case .validate = Self.decide(at: 66) else {
            Issue.record("past the window, the response is validated first")
            return
        }
    }

    @Test func whileFreshTheResponseIsSimplyUsed() {
        #expect(Self.decide(at: 4) == .useStored(Self.swr, age: 4))
    }

    @Test func offByDefault() {
        guard case .validate = Self.decide(enabled: false) else {
            Issue.record("without the option a stale response is validated first")
            return
        }
    }

    @Test func withoutValidatorsTheBackgroundRequestFetchesAnew() {
        let bare = CacheDecisionTests.stored(["Cache-Control": "max-age=5, stale-while-revalidate=60"])
        #expect(Self.decide(bare) == .useStaleWhileRevalidating(bare, age: 10, conditionalFields: [:]))
    }

    @Test func aResponseWithoutTheDirectiveIsValidated() {
        guard case .validate = Self.decide(CacheDecisionTests.validators) else {
            Issue.record("no stale-while-revalidate, no stale response")
            return
        }
    }

    @Test func whatForbidsAStaleResponseWins() {
        // §4.2.4: must-revalidate and no-cache in the response; no-cache (and Pragma) in the request.
        let forbidding: [(CachedResponse, HTTPHeaders)] = [
            (CacheDecisionTests.stored(["Cache-Control": "max-age=5, stale-while-revalidate=60, must-revalidate", "ETag": "\"v1\""]), [:]),
            (CacheDecisionTests.stored(["Cache-Control": "max-age=5, stale-while-revalidate=60, no-cache", "ETag": "\"v1\""]), [:]),
            (Self.swr, ["Cache-Control": "no-cache"]),
            (Self.swr, ["Pragma": "no-cache"]),
            // §5.2.1.1: max-age without max-stale: "the client does not wish to receive a stale response".
            (Self.swr, ["Cache-Control": "max-age=0"]),
            (Self.swr, ["Cache-Control": "max-age=3600"]),
            // §5.2.1.3: min-fresh asks for a response fresh a while longer.
            (Self.swr, ["Cache-Control": "min-fresh=1"]),
            // §5.2.1.2: the client accepts 2 s of staleness; the response is 5 s stale.
            (Self.swr, ["Cache-Control": "max-stale=2"]),
        ]
        for (stored, request) in forbidding {
            guard case .validate = Self.decide(stored, request: request) else {
                Issue.record("\(stored.headers) with request \(request) must validate")
                continue
            }
        }
    }

    @Test func maxStaleThatAcceptsTheStalenessUsesItWithoutARevalidation() {
        #expect(Self.decide(request: ["Cache-Control": "max-stale=30"]) == .useStored(Self.swr, age: 10))
    }

    @Test func onlyIfCachedAndThePoliciesAreUnchanged() {
        #expect(Self.decide(request: ["Cache-Control": "only-if-cached"]) == .gatewayTimeout)
        #expect(Self.decide(policy: .returnCacheDataElseLoad) == .useStored(Self.swr, age: 10))
        #expect(Self.decide(policy: .reloadIgnoringLocalCacheData) == .network)
        #expect(Self.decide(request: ["Range": "bytes=0-9"]) == .network)
    }
}
