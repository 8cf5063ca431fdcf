// The cookie date parser of RFC 6265bis §5.1.1: the one algorithm every user agent shares for
// `Expires`, which accepts far more than the IMF-fixdate servers are told to send.
public import FoundationEssentials

/// Parses a cookie date (an `Expires` attribute's value) by RFC 6265bis §5.1.1, which is not
/// a grammar to validate against but a tokenizer that picks out a time, a day of the month, a
/// month and a year wherever they stand:
///
/// ```
/// cookie-date     = *delimiter date-token-list *delimiter
/// date-token-list = date-token *( 1*delimiter date-token )
/// date-token      = 1*non-delimiter
/// delimiter       = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
/// non-delimiter   = %x00-08 / %x0A-1F / DIGIT / ":" / ALPHA / %x7F-FF
/// non-digit       = %x00-2F / %x3A-FF
/// day-of-month    = 1*2DIGIT [ non-digit *OCTET ]
/// month           = ( "jan" / "feb" / "mar" / "apr" / "may" / "jun" / "jul" / "aug" /
///                     "sep" / "oct" / "nov" / "dec" ) *OCTET
/// year            = 2*4DIGIT [ non-digit *OCTET ]
/// time            = hms-time [ non-digit *OCTET ]
/// hms-time        = time-field ":" time-field ":" time-field
/// time-field      = 1*2DIGIT
/// ```
///
/// Each token is tried, in order, as the first of time, day of month, month and year not yet
/// found. Years 70-99 mean 1970-1999 and 0-69 mean 2000-2069. The date fails (nil) when a part
/// is missing, the day is not 1-31, the year is before 1601, the hour past 23, the minute or
/// second past 59, or the day does not exist in that month (30 February). So
/// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`
/// and `6 nov 1994 8:49:37` are all the same instant. Every time is UTC; a zone name is ignored.
public enum CookieDateParser {
    /// The instant `text` names, or nil when it is not a cookie date.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var found = Found()
        var utf8 = text.utf8[...]
        while true {
            // Skip delimiters, then take the run of non-delimiters as one token.
            guard let start = utf8.firstIndex(where: { !isDelimiter($0) }) else { break }
            utf8 = utf8[start...]
            let end = utf8.firstIndex(where: isDelimiter) ?? utf8.endIndex
            found.take(Array(utf8[..<end]))
            utf8 = utf8[end...]
        }
        return found.date
    }

    /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    /// The month abbreviations, lower case, in order.
    private static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Array($0.utf8) }

    /// The parts found so far (§5.1.1 step 2's found-time, found-day-of-month, found-month and
    /// found-year with their values).
    private struct Found {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        /// Step 2's substeps for one token: the first production it matches among those not
        /// found yet, in the order time, day of month, month, year.
        mutating func take(_ token: [UInt8]) {
            if time == nil, let parsed = Self.time(token) {
                time = parsed
            } else if dayOfMonth == nil, let parsed = Self.digits(token, count: 1...2) {
                dayOfMonth = parsed
            } else if month == nil, let parsed = Self.month(token) {
                month = parsed
            } else if year == nil, let parsed = Self.digits(token, count: 2...4) {
                year = parsed
            }
        }

        /// Steps 3 to 7: the two-digit years placed, the ranges checked, the instant.
        var date: Date? {
            guard let time, let dayOfMonth, let month, var year else { return nil }
            if (70...99).contains(year) { year += 1900 }
            if (0...69).contains(year) { year += 2000 }
            guard (1...31).contains(dayOfMonth), year >= 1601, time.hour <= 23, time.minute <= 59,
                time.second <= 59, dayOfMonth <= Self.daysIn(month: month, year: year)
            else { return nil }
            let days = Self.daysSinceEpoch(year: year, month: month, day: dayOfMonth)
            let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: Double(seconds))
        }

        /// `count` digits at the token's start, then its end or a non-digit (`1*2DIGIT [
        /// non-digit *OCTET ]` and `2*4DIGIT [ non-digit *OCTET ]`).
        static func digits(_ token: [UInt8], count: ClosedRange<Int>) -> Int? {
            let run = token.prefix(while: isDigit)
            guard count.contains(run.count) else { return nil }
            return run.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }

        /// `hms-time [ non-digit *OCTET ]`: three fields of one or two digits joined by `:`.
        static func time(_ token: [UInt8]) -> (hour: Int, minute: Int, second: Int)? {
            var fields: [Int] = []
            var index = 0
            while fields.count < 3 {
                let run = token[index...].prefix(while: isDigit)
                guard (1...2).contains(run.count) else { return nil }
                fields.append(run.reduce(0) { $0 * 10 + Int($1 - 0x30) })
                index += run.count
                if fields.count < 3 {
                    guard index < token.count, token[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                }
            }
            // After the third field: the end, or a non-digit and anything (a digit would have
            // made the field longer than two).
            return (fields[0], fields[1], fields[2])
        }

        /// A month's three-letter abbreviation, in any case, at the token's start (1-12).
        static func month(_ token: [UInt8]) -> Int? {
            guard token.count >= 3 else { return nil }
            let prefix = token.prefix(3).map(\.asciiLowercased)
            return months.firstIndex { $0.elementsEqual(prefix) }.map { $0 + 1 }
        }

        static func isDigit(_ byte: UInt8) -> Bool { (byte &- 0x30) < 10 }

        static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: isLeap(year) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (Howard
        /// Hinnant's `days_from_civil`).
        static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }
}
