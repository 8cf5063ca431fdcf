// RFC 6265bis §5.1.1's date parser: every accepted spelling, the two-digit years, and each
// reason a date fails, one table row per case (many from the http-state test suite's dates).
import Foundation
import Testing
@testable import Wick

struct CookieDateParserTests {
    /// The UTC instant of a calendar date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    @Test(arguments: [
        // The three formats of RFC 9110 §5.6.7, and RFC 850 with a four-digit year.
        ("Sun, 06 Nov 1994 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("Sun Nov  6 08:49:37 1994", utc(1994, 11, 6, 8, 49, 37)),
        ("Mon, 10-Dec-2007 17:02:24 GMT", utc(2007, 12, 10, 17, 2, 24)),
        ("Thu, 01-Jan-1970 00:00:00 GMT", utc(1970, 1, 1)),
        // Tokens in any order, any delimiters, trailing junk after each part.
        ("Wed,18-Apr-07 22:50:12 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("WillyWonka  , 18-Apr-07 22:50:12 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("WillyWonka  ,  18-apr-07   22:50:12", utc(2007, 4, 18, 22, 50, 12)),
        ("Partyday, 18- April-07 22:50:12", utc(2007, 4, 18, 22, 50, 12)),
        ("Wednes, 1-Januar-2003 00:00:00 GMT", utc(2003, 1, 1)),
        (", 1-Jan-2003 00:00:00 GMT", utc(2003, 1, 1)),
        (" 1-Jan-2003 00:00:00 GMT", utc(2003, 1, 1)),
        ("Thu, 19/Apr\\2007 16:00:00 GMT", utc(2007, 4, 19, 16)),
        ("Sat, 15-Apr-17 21:01:22 GMT-0400 (EDT)", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 21:01:22 -0400", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 21:01:22 11:22:33", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 ::00 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 boink:z 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("22:50:12 Thu Apr 18 2007 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("Thu Apr 22:50:12 18 2007 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("Thu Apr 18 2007 GMT 22:50:12", utc(2007, 4, 18, 22, 50, 12)),
        ("15-Sat, Apr-17 21:01:22 GMT", utc(2017, 4, 15, 21, 1, 22)),
        ("15 17 Apr 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("Apr 15 21:01:22 17", utc(2017, 4, 15, 21, 1, 22)),
        ("2017 April 15 21:01:22 +0400", utc(2017, 4, 15, 21, 1, 22)),
        ("6 nov 1994 8:49:37", utc(1994, 11, 6, 8, 49, 37)),
        ("1 JAN 2000 1:2:3xyz", utc(2000, 1, 1, 1, 2, 3)),
        ("1st Jan 2000 00:00:00", utc(2000, 1, 1)),
        ("01 Jan 2000abc 00:00:00", utc(2000, 1, 1)),
        ("Partyday, 18 - Apri-07 22:50:12", utc(2007, 4, 18, 22, 50, 12)),  // "Apri" starts with a month
        // Two-digit years: 70-99 are 19xx, 00-69 are 20xx.
        ("01 Jan 70 00:00:00", utc(1970, 1, 1)),
        ("01 Jan 99 00:00:00", utc(1999, 1, 1)),
        ("01 Jan 00 00:00:00", utc(2000, 1, 1)),
        ("01 Jan 69 00:00:00", utc(2069, 1, 1)),
        // The earliest year, leap days, the last second of a day.
        ("01 Jan 1601 00:00:00", utc(1601, 1, 1)),
        ("29 Feb 2000 00:00:00", utc(2000, 2, 29)),
        ("29 Feb 2024 23:59:59", utc(2024, 2, 29, 23, 59, 59)),
        ("31 Dec 9999 23:59:59", utc(9999, 12, 31, 23, 59, 59)),
    ] as [(String, Date?)])
    func acceptedDates(text: String, expected: Date?) {
        #expect(CookieDateParser.parse(text) == expected, "\(text)")
    }

    @Test(arguments: [
        "",  // nothing
        "Jan 2000 10:00:00",  // no day of month ("2000" has too many digits for one)
        "01 2000 10:00:00",  // no month
        "01 Jan 10:00:00",  // no year
        "01 Jan 2000",  // no time
        "01 Jan 2000 10:00",  // a time needs three fields
        "01 Jan 2000 10:00:000",  // a time field of three digits
        "01 Jan 2000 100:00:00",
        "00 Jan 2000 00:00:00",  // day 0
        "32 Jan 2000 00:00:00",  // day 32
        "01 Jan 1600 00:00:00",  // before 1601
        "01 Jan 100 00:00:00",  // a three-digit year is taken as it is: before 1601
        "01 Jan 12345 00:00:00",  // a five-digit year matches nothing
        "01 Jan 2000 24:00:00",  // hour 24
        "01 Jan 2000 23:60:00",  // minute 60
        "01 Jan 2000 23:59:60",  // second 60 (no leap seconds)
        "Sat, 15-Apr-17 91:22:33 21:01:22",  // the first time token wins, and is out of range
        "29 Feb 2100 00:00:00",  // not a leap year
        "30 Feb 2000 00:00:00",
        "31 Apr 2021 00:00:00",
        "31 Jun 2021 00:00:00",
        "31 Sep 2021 00:00:00",
        "31 Nov 2021 00:00:00",
        "01 Ja 2000 00:00:00",  // two letters are no month
        "\u{7F}01\u{7F} Jan 2000 00:00:00",  // DEL is a non-delimiter: "\u{7F}01\u{7F}" is no day
    ])
    func refusedDates(text: String) {
        #expect(CookieDateParser.parse(text) == nil, "\(text)")
    }

    @Test func theFirstTokenOfEachKindWins() {
        // "18" is the day; then "19" can only be the year (2019), and the later "2007" is ignored.
        #expect(CookieDateParser.parse("18 19 Apr 2007 22:50:12") == Self.utc(2019, 4, 18, 22, 50, 12))
        // A later month name is ignored too.
        #expect(CookieDateParser.parse("18 Apr May 2007 22:50:12") == Self.utc(2007, 4, 18, 22, 50, 12))
    }

    @Test func nonASCIIBytesAreNonDelimiters() {
        // "é" joins its token, so "1é" is still a day of month (a non-digit follows the digits).
        #expect(CookieDateParser.parse("1é Jan 2000 00:00:00") == Self.utc(2000, 1, 1))
        #expect(CookieDateParser.parse("é1 Jan 2000 00:00:00") == nil)
    }
}
