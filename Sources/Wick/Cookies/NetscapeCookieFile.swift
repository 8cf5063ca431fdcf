// The Netscape cookie-file format curl reads with `-b` and writes with `-c`: one cookie per
// line, seven fields separated by tabs.
public import FoundationEssentials

/// Reads and writes the cookie-file format of Netscape, curl (`-b FILE`, `-c FILE`) and wget:
///
/// ```
/// # Netscape HTTP Cookie File
/// .example.com	TRUE	/	TRUE	1767225600	session	abc
/// #HttpOnly_api.example.com	FALSE	/v1	FALSE	0	token	xyz
/// ```
///
/// Fields: the domain (a leading `.` when subdomains match), `TRUE` when subdomains match
/// (not host-only), the path, `TRUE` for a `Secure` cookie, the expiry in seconds since 1970 (0
/// for a session cookie), the name, the value (may be missing: empty). `#HttpOnly_` before the
/// domain marks an `HttpOnly` cookie; other lines starting with `#`, and blank lines, are
/// comments. `SameSite` and creation times are not in the format: cookies read get `.default`
/// and the time of reading, in the file's order.
public enum NetscapeCookieFile {
    /// A line that was not read as a cookie, and why.
    public struct SkippedLine: Sendable, Hashable, CustomStringConvertible {
        /// The line's number, from 1.
        public let number: Int
        /// What was wrong with it.
        public let reason: String

        /// "line N: reason".
        public var description: String { "line \(number): \(reason)" }
    }

    /// The first line of a file `serialize` writes (curl looks for none, but writes it too).
    public static let header = "# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n# Written by Wick.\n\n"

    /// The cookies in `bytes`, a cookie file, and the lines skipped as corrupt (wrong field
    /// count, a flag that is not `TRUE` or `FALSE`, a bad expiry, a path not starting with `/`,
    /// an empty or non-ASCII domain, control characters, invalid UTF-8, a name and value over
    /// 4096 bytes or both empty). Cookies expired at `now` are left out without a warning.
    /// Never throws and never traps: any bytes give some cookies and some skipped lines.
    public static func parse(_ bytes: some Sequence<UInt8>, now: Date) -> (cookies: [Cookie], skipped: [SkippedLine]) {
        var cookies: [Cookie] = []
        var skipped: [SkippedLine] = []
        for (index, rawLine) in Array(bytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            switch cookie(in: line, now: now) {
            case .cookie(let cookie): cookies.append(cookie)
            case .nothing: break
            case .corrupt(let reason): skipped.append(SkippedLine(number: index + 1, reason: reason))
            }
        }
        return (cookies, skipped)
    }

    /// The file's text for `cookies`: the header, then one line each, in the order given (a
    /// store's `allCookies` gives creation order, which reading keeps). A cookie whose name or
    /// value holds a tab or a line break cannot be written and is left out.
    public static func serialize(_ cookies: [Cookie]) -> String {
        var text = header
        for cookie in cookies where !(cookie.name + cookie.value).utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            let expires = cookie.expires.map { String(max(1, Int64($0.timeIntervalSince1970.rounded(.down)))) } ?? "0"
            let fields = [
                (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain,
                cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE", expires,
                cookie.name, cookie.value,
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// What one line holds.
    private enum Line {
        case cookie(Cookie)
        /// A comment, a blank line or an expired cookie.
        case nothing
        case corrupt(String)
    }

    /// The cookie on `line` (without its line break). The line is read by its UTF-8 bytes, as
    /// curl reads it: a tab, `#` or `/` followed by a combining mark is still that byte (compared
    /// as `Character`s, "/\u{301}" is one grapheme that is not "/", and a tab before a combining
    /// mark would not split two fields).
    private static func cookie(in line: ArraySlice<UInt8>, now: Date) -> Line {
        guard String(validating: line, as: UTF8.self) != nil else { return .corrupt("not UTF-8") }
        var rest = line
        var isHTTPOnly = false
        if rest.starts(with: httpOnlyPrefix) {
            isHTTPOnly = true
            rest = rest.dropFirst(httpOnlyPrefix.count)
        } else if rest.first == UInt8(ascii: "#") || rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == 0x09 }) {
            return .nothing
        }
        guard !rest.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            return .corrupt("a control character")
        }
        let fields = rest.split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count == 6 || fields.count == 7 else { return .corrupt("\(fields.count) fields, not 7") }
        var domain = fields[0]
        if domain.first == UInt8(ascii: ".") { domain = domain.dropFirst() }
        guard !domain.isEmpty, domain.allSatisfy({ $0 < 0x80 }) else { return .corrupt("no usable domain") }
        guard let includesSubdomains = flag(fields[1]), let isSecure = flag(fields[3]) else {
            return .corrupt("a flag that is not TRUE or FALSE")
        }
        let path = fields[2]
        guard path.first == UInt8(ascii: "/") else { return .corrupt("a path that does not start with /") }
        guard let seconds = Int64(String(decoding: fields[4], as: UTF8.self)), seconds >= 0 else {
            return .corrupt("an expiry that is not a number")
        }
        let (name, value) = (fields[5], fields.count == 7 ? fields[6] : [])
        guard name.count + value.count <= SetCookieParser.maximumNameValueBytes, !(name.isEmpty && value.isEmpty)
        else { return .corrupt("a name and value that are empty or too long") }
        let expires = seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
        if let expires, expires <= now { return .nothing }
        // Split at ASCII tabs of valid UTF-8, every field is valid UTF-8: decoding loses nothing.
        return .cookie(
            Cookie(
                name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self),
                domain: String(decoding: domain, as: UTF8.self).lowercased(), path: String(decoding: path, as: UTF8.self),
                expires: expires, isHostOnly: !includesSubdomains, isSecure: isSecure, isHTTPOnly: isHTTPOnly,
                creationTime: now))
    }

    /// `#HttpOnly_`, before the domain of an `HttpOnly` cookie.
    private static let httpOnlyPrefix = Array("#HttpOnly_".utf8)

    /// `TRUE` or `FALSE` (curl writes them in upper case and reads them so).
    private static func flag(_ field: ArraySlice<UInt8>) -> Bool? {
        if field.elementsEqual("TRUE".utf8) { return true }
        if field.elementsEqual("FALSE".utf8) { return false }
        return nil
    }
}
