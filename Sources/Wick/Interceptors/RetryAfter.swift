// The delay a response's Retry-After field asks for (RFC 9110 §10.2.3).
public import FoundationEssentials
public import WickCore

/// Reads `Retry-After` (RFC 9110 §10.2.3): `Retry-After = HTTP-date / delay-seconds`, the time
/// a `503` or `429` asks the client to wait before trying again.
public enum RetryAfter {
    /// The delay `headers`' `Retry-After` asks for, or nil when there is none or it is neither
    /// form. A delay in seconds is taken as written (a value too large for `Int64` saturates);
    /// a date is measured from the response's own `Date` field when it has one (so a skewed
    /// clock on either side does not change the delay) and from `now` otherwise; a date in the
    /// past is a delay of zero. Dates are read as every HTTP-date form RFC 9110 §5.6.7 asks
    /// recipients to accept (IMF-fixdate, RFC 850, asctime), by the lenient cookie-date
    /// algorithm (`CookieDateParser`).
    public static func delay(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"]?.trimmingHTTPWhitespace, !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return .seconds(Int64(value) ?? .max)
        }
        guard let date = CookieDateParser.parse(value) else { return nil }
        let origin = headers["Date"].flatMap(CookieDateParser.parse) ?? now
        let seconds = date.timeIntervalSince(origin)
        return seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : .zero
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    fileprivate var trimmingHTTPWhitespace: Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = lastIndex(where: { !isWhitespace($0) })!
        return self[first...last]
    }
}
