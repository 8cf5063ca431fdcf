// RFC 9111 §4.3.5: a 200 to a HEAD updates a stored GET response whose validators and length it
// matches, and makes one it contradicts unusable.
import Foundation
import Testing
@testable import Wick

struct CacheHeadFresheningTests {
    static let t0 = CacheFreshnessTests.t0
    static let later = t0.addingTimeInterval(100)

    /// A stored GET with a 5-byte body, an ETag, Last-Modified and Content-Length.
    static let stored: CachedResponse = {
        var response = CacheDecisionTests.stored([
            "Cache-Control": "max-age=5", "ETag": "\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
            "Content-Length": "5", "X-Version": "old",
        ])
        response.data = Data("hello".utf8)
        return response
    }()

    static func outcome(_ head: HTTPHeaders, of stored: CachedResponse = stored) -> CacheHeadFreshening.Outcome {
        CacheHeadFreshening.outcome(of: stored, headResponse: head, requestDate: later, responseDate: later)
    }

    @Test func matchingValidatorsAndLengthUpdateTheFieldsAndTheTimes() {
        let head: HTTPHeaders = [
            "ETag": "\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT", "Content-Length": "5",
            "Cache-Control": "max-age=60", "X-Version": "new", "Date": CacheFreshnessTests.http(Self.later),
        ]
        guard case .update(let updated) = Self.outcome(head) else {
            Issue.record("a matching HEAD response must update the stored one")
            return
        }
        // §3.2: the HEAD's fields replace the stored ones of the same name; the body stays.
        #expect(updated.headers.value(for: "Cache-Control") == "max-age=60")
        #expect(updated.headers.value(for: "X-Version") == "new")
        #expect(updated.data == Self.stored.data && updated.statusCode == 200)
        #expect(updated.requestDate == Self.later && updated.responseDate == Self.later)
        #expect(CacheFreshness(of: updated, now: Self.later).isFresh)
    }

    @Test func onlyTheValidatorsTheHEADCarriesAreCompared() {
        // "matching values for any received validator fields": a HEAD without validators and
        // with the same length updates (the case §4.3.5 exists for).
        guard case .update = Self.outcome(["Content-Length": "5"]), case .update = Self.outcome(["ETag": "\"v1\""]) else {
            Issue.record("absent validators are not a difference")
            return
        }
    }

    @Test func aDifferentValidatorOrLengthInvalidates() {
        #expect(Self.outcome(["ETag": "\"v2\""]) == .invalidate)
        #expect(Self.outcome(["Last-Modified": "Mon, 07 Nov 1994 08:49:37 GMT"]) == .invalidate)
        #expect(Self.outcome(["ETag": "\"v1\"", "Content-Length": "6"]) == .invalidate)
        // A validator the stored response lacks cannot match.
        var withoutETag = Self.stored
        withoutETag.headers.remove(name: "ETag")
        #expect(Self.outcome(["ETag": "\"v1\""], of: withoutETag) == .invalidate)
    }

    @Test func withoutAStoredContentLengthTheBodysSizeCounts() {
        var chunked = Self.stored
        chunked.headers.remove(name: "Content-Length")
        guard case .update = Self.outcome(["Content-Length": "5"], of: chunked) else {
            Issue.record("5 bytes stored, 5 announced")
            return
        }
        #expect(Self.outcome(["Content-Length": "4"], of: chunked) == .invalidate)
    }
}
