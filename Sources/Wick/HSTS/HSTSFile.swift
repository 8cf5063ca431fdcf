// curl's HSTS cache file (CURLOPT_HSTS, `curl --hsts FILE`): one `host "YYYYMMDD HH:MM:SS"` a line.
import FoundationEssentials

/// The text of curl's HSTS cache file, read and written:
///
///     # comment
///     .example.com "20271231 23:59:59"     (a leading dot: includeSubDomains)
///     www.example.org "unlimited"          (never expires)
///
/// The stamp is the expiry in UTC. A line that does not parse (no quotes, a bad date, an IP
/// literal, an empty host) is skipped and counted, never an error.
enum HSTSFile {
    /// One known host as the file holds it; `expiry` nil means "unlimited".
    struct Entry: Equatable, Sendable {
        var host: String
        var includesSubdomains: Bool
        var expiry: Date?
    }

    /// The entries of `text` and the number of lines skipped.
    static func parse(_ text: String) -> (entries: [Entry], skipped: Int) {
        var entries: [Entry] = []
        var skipped = 0
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let entry = entry(line) else {
                skipped += 1
                continue
            }
            entries.append(entry)
        }
        return (entries, skipped)
    }

    /// The file's text for `entries`, with curl's header comment.
    static func serialize(_ entries: [Entry]) -> String {
        var text = "# Your HSTS cache. https://curl.se/docs/hsts.html\n# Written by Wick.\n"
        for entry in entries {
            text += "\(entry.includesSubdomains ? "." : "")\(entry.host) \"\(entry.expiry.map(stamp) ?? "unlimited")\"\n"
        }
        return text
    }

    private static func entry(_ line: Substring) -> Entry? {
        guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        var host = line[..<space]
        let rest = line[space...].drop { $0 == " " || $0 == "\t" }
        guard rest.count >= 2, rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
        let stamp = rest[rest.index(after: rest.startIndex)..<close]
        let includesSubdomains = host.hasPrefix(".")
        if includesSubdomains { host = host.dropFirst() }
        guard let normalized = HSTSHost(String(host)) else { return nil }
        if stamp == "unlimited" { return Entry(host: normalized.name, includesSubdomains: includesSubdomains, expiry: nil) }
        guard let expiry = date(stamp) else { return nil }
        return Entry(host: normalized.name, includesSubdomains: includesSubdomains, expiry: expiry)
    }

    private static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// "YYYYMMDD HH:MM:SS" in UTC.
    private static func date(_ stamp: Substring) -> Date? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == 17, bytes[8] == UInt8(ascii: " "), bytes[11] == UInt8(ascii: ":"), bytes[14] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            bytes[range].allSatisfy { ($0 &- 0x30) < 10 } ? bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } : nil
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(12..<14), let second = number(15..<17), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = utc.date(from: components), utc.component(.day, from: date) == day else { return nil }
        return date
    }

    /// `date` as "YYYYMMDD HH:MM:SS" in UTC.
    private static func stamp(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(parts.year, 4) + padded(parts.month, 2) + padded(parts.day, 2) + " " + padded(parts.hour, 2) + ":"
            + padded(parts.minute, 2) + ":" + padded(parts.second, 2)
    }
}
