// RFC 9111 §4.2: freshness lifetime (§4.2.1), heuristic freshness (§4.2.2) and age (§4.2.3),
// with time passed in.
import Foundation
import Testing
@testable import Wick

struct CacheFreshnessTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    /// IMF-fixdate (RFC 9110 §5.6.7), e.g. "Fri, 15 Jan 2027 08:00:00 GMT".
    static func http(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func stored(
        _ fields: [String: String], status: Int = 200, requested: Date = t0, received: Date = t0
    ) -> CachedResponse {
        var headers = HTTPHeaders()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        return CachedResponse(
            url: URL(string: "https://example.com/a")!, statusCode: status, headers: headers, data: Data(),
            requestDate: requested, responseDate: received)
    }

    @Test func maxAgeIsTheLifetime() {
        // §4.2.1: max-age first.
        let response = Self.stored(["Cache-Control": "max-age=60", "Date": Self.http(Self.t0)])
        #expect(CacheFreshness(of: response, now: Self.t0.addingTimeInterval(59)).isFresh)
        #expect(!CacheFreshness(of: response, now: Self.t0.addingTimeInterval(60)).isFresh)
    }

    @Test func maxAgeWinsOverExpiresAndSMaxageIsIgnoredByAPrivateCache() {
        // §4.2.1: "If the cache is shared and the s-maxage response directive is present, use
        // its value" — a private cache does not; max-age overrides Expires (§5.3).
        let response = Self.stored([
            "Cache-Control": "s-maxage=1000, max-age=10", "Expires": Self.http(Self.t0.addingTimeInterval(5000)),
            "Date": Self.http(Self.t0),
        ])
        #expect(CacheFreshness(of: response, now: Self.t0).lifetime == 10)
    }

    @Test func expiresMinusDate() {
        // §4.2.1: "Otherwise, if the Expires header field is present, use its value minus the
        // value of the Date header field".
        let response = Self.stored(["Expires": Self.http(Self.t0.addingTimeInterval(300)), "Date": Self.http(Self.t0)])
        let freshness = CacheFreshness(of: response, now: Self.t0)
        #expect(freshness.lifetime == 300 && !freshness.isHeuristic)
    }

    @Test func anInvalidExpiresIsInThePast() {
        // §5.3: "A cache recipient MUST interpret invalid date formats, especially the value
        // "0", as representing a time in the past".
        let response = Self.stored(["Expires": "0", "Date": Self.http(Self.t0)])
        #expect(CacheFreshness(of: response, now: Self.t0).lifetime == 0)
    }

    @Test func everyDateFormatOfRFC9110IsAccepted() {
        // RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form and asctime.
        for expires in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            let response = Self.stored(["Expires": expires, "Date": "Sun, 06 Nov 1994 08:48:37 GMT"])
            #expect(CacheFreshness(of: response, now: Self.t0).lifetime == 60, "\(expires)")
        }
    }

    @Test func heuristicIsTenPercentOfTheLastModifiedAge() {
        // §4.2.2: "a typical setting of this fraction might be 10%".
        let response = Self.stored(["Date": Self.http(Self.t0), "Last-Modified": Self.http(Self.t0.addingTimeInterval(-1000))])
        let freshness = CacheFreshness(of: response, now: Self.t0)
        #expect(freshness.lifetime == 100 && freshness.isHeuristic)
    }

    @Test func heuristicIsCappedAtADay() {
        let response = Self.stored(["Date": Self.http(Self.t0), "Last-Modified": Self.http(Self.t0.addingTimeInterval(-86_400 * 365))])
        #expect(CacheFreshness(of: response, now: Self.t0).lifetime == CacheFreshness.maximumHeuristicLifetime)
    }

    @Test func heuristicOnlyForHeuristicallyCacheableStatusesOrPublic() {
        // §4.2.2: only when "the response status code is heuristically cacheable" or "marked
        // explicitly cacheable (e.g., with a public response directive)".
        let fields = ["Date": Self.http(Self.t0), "Last-Modified": Self.http(Self.t0.addingTimeInterval(-1000))]
        #expect(CacheFreshness(of: Self.stored(fields, status: 404), now: Self.t0).lifetime == 100)
        #expect(CacheFreshness(of: Self.stored(fields, status: 302), now: Self.t0).lifetime == 0)
        var marked = fields
        marked["Cache-Control"] = "public"
        #expect(CacheFreshness(of: Self.stored(marked, status: 302), now: Self.t0).lifetime == 100)
    }

    @Test func noHeuristicWithoutLastModifiedOrWithAFutureOne() {
        #expect(CacheFreshness(of: Self.stored(["Date": Self.http(Self.t0)]), now: Self.t0).lifetime == 0)
        let future = Self.stored(["Date": Self.http(Self.t0), "Last-Modified": Self.http(Self.t0.addingTimeInterval(50))])
        #expect(CacheFreshness(of: future, now: Self.t0).lifetime == 0)
    }

    @Test func ageIsResidentTimePlusTheCorrectedInitialAge() {
        // §4.2.3: response_delay (2 s) is added to the Age the origin sent (10 s).
        let response = Self.stored(
            ["Age": "10", "Date": Self.http(Self.t0)], requested: Self.t0.addingTimeInterval(-2), received: Self.t0)
        #expect(CacheFreshness(of: response, now: Self.t0.addingTimeInterval(30)).age == 10 + 2 + 30)
    }

    @Test func apparentAgeCorrectsAServerClockThatIsBehind() {
        // §4.2.3: apparent_age = max(0, response_time - date_value) when it exceeds the
        // corrected Age: a Date 100 s before arrival makes the response 100 s old on arrival.
        let response = Self.stored(["Date": Self.http(Self.t0.addingTimeInterval(-100))])
        #expect(CacheFreshness(of: response, now: Self.t0).age == 100)
    }

    @Test func aServerClockAheadGivesNoNegativeAge() {
        // §4.2.3: apparent_age is never negative (clock skew).
        let response = Self.stored(["Date": Self.http(Self.t0.addingTimeInterval(3600)), "Cache-Control": "max-age=60"])
        let freshness = CacheFreshness(of: response, now: Self.t0.addingTimeInterval(5))
        #expect(freshness.age == 5 && freshness.isFresh)
    }

    @Test func anInvalidAgeCountsAsAbsent() {
        let response = Self.stored(["Age": "-5", "Date": Self.http(Self.t0)])
        #expect(CacheFreshness(of: response, now: Self.t0).age == 0)
        let huge = Self.stored(["Age": "99999999999999999999", "Date": Self.http(Self.t0)])
        #expect(CacheFreshness(of: huge, now: Self.t0).age == Int(Int32.max))
    }

    @Test func withoutDateTheArrivalIsTheDate() {
        // RFC 9110 §6.6.1: a recipient with a clock treats a missing Date as the time received.
        let response = Self.stored(["Cache-Control": "max-age=60"])
        #expect(CacheFreshness(of: response, now: Self.t0.addingTimeInterval(59)).isFresh)
    }
}
