// The Set-Cookie parsing algorithm of RFC 6265bis §5.6, step by step over the field's bytes.
import FoundationEssentials

/// Parses a `Set-Cookie` field value by RFC 6265bis §5.6, the algorithm user agents share (a
/// server's field rarely matches the §4.1 grammar, so this is not a grammar check):
///
/// 1. A field with a control character other than HTAB (`%x00-08 / %x0A-1F / %x7F`) is
///    ignored whole.
/// 2. The name-value pair is everything before the first `;`. Its name is what precedes the
///    first `=`, its value what follows; with no `=` the name is empty and the whole pair is
///    the value. Both lose their surrounding spaces and tabs.
/// 3. A cookie whose name and value are both empty, or whose name and value together pass
///    `maximumNameValueBytes` (4096), is ignored.
/// 4. Each attribute runs to the next `;`: its name before its first `=`, its value after,
///    both trimmed; a value over `maximumAttributeValueBytes` (1024) drops that attribute.
///    Names are matched without case; unknown names are ignored; the last valid one wins:
///    - `Expires`: a cookie date (`CookieDateParser`); one that does not parse is ignored.
///    - `Max-Age`: an optional `-` then digits (anything else is ignored); it wins over
///      `Expires`, and zero or less means expired.
///    - `Domain`: ignored when empty; a leading `.` is dropped, the rest lower-cased.
///    - `Path`: a value not starting with `/` means the default path.
///    - `Secure`, `HttpOnly`: flags.
///    - `SameSite`: `Strict`, `Lax` or `None` without case; any other value means the default.
public enum SetCookieParser {
    /// The most bytes a cookie's name and value may have together (§5.6 step 5).
    public static let maximumNameValueBytes = 4096
    /// The most bytes an attribute's value may have (§5.6, attributes step 6).
    public static let maximumAttributeValueBytes = 1024

    /// The cookie `fieldValue` sets, or nil when §5.6 ignores it.
    public static func parse(_ fieldValue: some StringProtocol) -> SetCookie? {
        let bytes = Substring(fieldValue).utf8
        // Step 1: a control character (HTAB excepted) ignores the whole field.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        // Steps 2-4: the name-value pair before the first ";", split at its first "=".
        let pairEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        // With no "=", the whole pair is the value.
        let (name, value) = splitAtFirstEquals(pair) ?? (pair[pair.startIndex..<pair.startIndex], trimmed(pair))
        // Step 5, and §5.7 step 2: too large, or nothing at all.
        guard name.count + value.count <= maximumNameValueBytes, !(name.isEmpty && value.isEmpty) else { return nil }
        var cookie = SetCookie(name: string(name), value: string(value))
        // The attributes: each runs from a ";" to the next one.
        var rest = bytes[pairEnd...]
        while let semicolon = rest.first, semicolon == UInt8(ascii: ";") {
            rest = rest.dropFirst()
            let end = rest.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
            let attribute = rest[..<end]
            rest = rest[end...]
            // With no "=", the whole attribute is the name.
            let (attributeName, attributeValue) =
                splitAtFirstEquals(attribute) ?? (trimmed(attribute), attribute[attribute.endIndex...])
            guard attributeValue.count <= maximumAttributeValueBytes else { continue }
            apply(attributeName, attributeValue, to: &cookie)
        }
        return cookie
    }

    /// §5.6.1-§5.6.7: one attribute's effect on `cookie`; unknown names do nothing.
    private static func apply(_ name: Substring.UTF8View, _ value: Substring.UTF8View, to cookie: inout SetCookie) {
        let name = Substring(name)
        if name.equalsIgnoringASCIICase("Expires") {
            if let date = CookieDateParser.parse(Substring(value)) { cookie.expires = date }
        } else if name.equalsIgnoringASCIICase("Max-Age") {
            if let seconds = maxAge(value) { cookie.maxAge = seconds }
        } else if name.equalsIgnoringASCIICase("Domain") {
            guard var domain = Optional(Substring(value)), !domain.isEmpty else { return }
            if domain.first == "." { domain = domain.dropFirst() }
            cookie.domain = String(domain).lowercased()
        } else if name.equalsIgnoringASCIICase("Path") {
            cookie.hasPath = true
            cookie.path = value.first == UInt8(ascii: "/") ? string(value) : nil
        } else if name.equalsIgnoringASCIICase("Secure") {
            cookie.isSecure = true
        } else if name.equalsIgnoringASCIICase("HttpOnly") {
            cookie.isHTTPOnly = true
        } else if name.equalsIgnoringASCIICase("SameSite") {
            let value = Substring(value)
            cookie.sameSite =
                if value.equalsIgnoringASCIICase("Strict") { .strict }
                else if value.equalsIgnoringASCIICase("Lax") { .lax }
                else if value.equalsIgnoringASCIICase("None") { .none }
                else { .default }
        }
    }

    /// §5.6.2: `-`? DIGIT+, clamped to `Int64`; nil for anything else.
    private static func maxAge(_ value: Substring.UTF8View) -> Int64? {
        let negative = value.first == UInt8(ascii: "-")
        let digits = negative ? value.dropFirst() : value[...]
        guard !digits.isEmpty, digits.allSatisfy({ ($0 &- 0x30) < 10 }) else { return nil }
        var magnitude: Int64 = 0
        for digit in digits {
            let (times, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times.addingReportingOverflow(Int64(digit - 0x30))
            if overflowed || overflowedAgain { return negative ? .min : .max }
            magnitude = sum
        }
        return negative ? -magnitude : magnitude
    }

    /// `bytes` split at its first `=`, both sides trimmed; nil when it has no `=`.
    private static func splitAtFirstEquals(
        _ bytes: Substring.UTF8View
    ) -> (before: Substring.UTF8View, after: Substring.UTF8View)? {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return (trimmed(bytes[..<equals]), trimmed(bytes[bytes.index(after: equals)...]))
    }

    /// `bytes` without leading and trailing SP and HTAB (WSP).
    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
            let last = bytes.lastIndex(where: { !isWhitespace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// The bytes as a string (a field value is a string, so cuts at ASCII bytes stay valid).
    private static func string(_ bytes: Substring.UTF8View) -> String { String(Substring(bytes)) }
}
