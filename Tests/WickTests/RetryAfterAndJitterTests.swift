// RetryPolicy's Retry-After (RFC 9110 §10.2.3) and jittered backoff, on plain values.
import Foundation
import Testing
import WickCore
import WickTestSupport

@testable import Wick

@Suite struct RetryAfterAndJitterTests {
    static let validation429 = WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 429))
    static let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    static func headers(_ fields: [(String, String)]) -> HTTPHeaders {
        HTTPHeaders(fields.map { HTTPHeader(name: $0.0, value: $0.1) })
    }

    /// RFC 9110 §10.2.3: `Retry-After = HTTP-date / delay-seconds`.
    @Test func delaySecondsAreTakenAsWritten() {
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "120")])) == .seconds(120))
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "0")])) == .zero)
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", " 7 ")])) == .seconds(7))
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "99999999999999999999999")])) == .seconds(Int64.max))
    }

    /// RFC 9110 §5.6.7: recipients accept IMF-fixdate, RFC 850 and asctime dates.
    @Test(arguments: [
        "Sun, 06 Nov 1994 08:50:37 GMT", "Sunday, 06-Nov-94 08:50:37 GMT", "Sun Nov  6 08:50:37 1994",
    ])
    func anHTTPDateIsMeasuredFromNow(date: String) {
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", date)]), now: Self.now) == .seconds(60))
    }

    @Test func anHTTPDateIsMeasuredFromTheResponsesDateWhenItHasOne() {
        // The server's clock is 30 s behind ours: the delay is still the 60 s it meant.
        let headers = Self.headers([
            ("Date", "Sun, 06 Nov 1994 08:49:07 GMT"), ("Retry-After", "Sun, 06 Nov 1994 08:50:07 GMT"),
        ])
        #expect(RetryAfter.delay(in: headers, now: Self.now) == .seconds(60))
    }

    @Test func aPastDateIsNoDelayAndGarbageIsNone() {
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "Sat, 05 Nov 1994 08:49:37 GMT")]), now: Self.now) == .zero)
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "-5")])) == nil)
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "soon")])) == nil)
        #expect(RetryAfter.delay(in: Self.headers([("Retry-After", "")])) == nil)
        #expect(RetryAfter.delay(in: Self.headers([])) == nil)
    }

    @Test func a429IsRetriedOnlyWithARetryAfterAndAnIdempotentMethod() {
        let policy = RetryPolicy()
        #expect(!policy.shouldRetry(method: .get, statusCode: 429, error: Self.validation429))
        #expect(policy.shouldRetry(method: .get, statusCode: 429, error: Self.validation429, asksToRetryAfter: true))
        #expect(!policy.shouldRetry(method: .post, statusCode: 429, error: Self.validation429, asksToRetryAfter: true))
    }

    @Test func retryAfterIsReadOnlyFrom429And503AndNotWhenIgnored() {
        let asks = Self.headers([("Retry-After", "3")])
        let policy = RetryPolicy()
        #expect(policy.retryAfter(in: HTTPResponse(status: .init(rawValue: 429), headers: asks, version: .http1_1)) == .seconds(3))
        #expect(policy.retryAfter(in: HTTPResponse(status: .init(rawValue: 503), headers: asks, version: .http1_1)) == .seconds(3))
        #expect(policy.retryAfter(in: HTTPResponse(status: .init(rawValue: 500), headers: asks, version: .http1_1)) == nil)
        #expect(policy.retryAfter(in: nil) == nil)
        let ignoring = RetryPolicy(maximumRetryAfter: nil)
        #expect(ignoring.retryAfter(in: HTTPResponse(status: .init(rawValue: 503), headers: asks, version: .http1_1)) == nil)
    }

    @Test func noJitterIsAlamofiresSchedule() {
        var random = SeededRandom(seed: 1)
        let policy = RetryPolicy(jitter: .none)
        #expect(
            (0...3).map { policy.delay(forRetry: $0, previous: nil, using: &random) }
                == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func fullJitterStaysUnderTheEnvelope(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let policy = RetryPolicy(jitter: .full)
        for retry in 0...4 {
            let delay = policy.delay(forRetry: retry, previous: nil, using: &random)
            #expect(delay >= .zero && delay <= policy.delay(forRetry: retry))
        }
    }

    @Test func fullJitterSpreadsDelays() {
        var random = SeededRandom(seed: 42)
        let policy = RetryPolicy(exponentialBackoffScale: 1, jitter: .full)
        let delays = (0..<200).map { _ in policy.delay(forRetry: 3, previous: nil, using: &random).timeInterval }
        // Uniform on [0, 8]: the mean is near 4 and both halves are used.
        let mean = delays.reduce(0, +) / Double(delays.count)
        #expect(abs(mean - 4) < 0.6)
        #expect(delays.contains { $0 < 2 } && delays.contains { $0 > 6 })
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func decorrelatedJitterGrowsFromThePreviousDelay(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let policy = RetryPolicy(exponentialBackoffScale: 0.5, jitter: .decorrelated)
        var previous: Duration? = nil
        for retry in 0...5 {
            let delay = policy.delay(forRetry: retry, previous: previous, using: &random)
            let upper = max(0.5, 3 * (previous?.timeInterval ?? 0.5))
            #expect(delay.timeInterval >= 0.5 && delay.timeInterval <= upper + 1e-9)
            previous = delay
        }
    }
}
