// The Content-Range field of a 206 or 416 response (RFC 9110 §14.4), as a resumed download reads it.
/// A `Content-Range` value: `bytes first-last/complete` (206) or `bytes */complete` (416);
/// `complete` may be `*` (unknown) in the first form.
struct ContentRange: Sendable, Equatable {
    /// The first and last byte positions sent; nil for `bytes */complete`.
    var range: ClosedRange<Int64>?
    /// The representation's whole length, when the server knows it.
    var completeLength: Int64?

    /// Parses `value`; nil unless it is one of the two forms with the `bytes` unit.
    init?(_ value: String?) {
        guard let value else { return nil }
        let trimmed = Self.trimmed(value[...])
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = Self.trimmed(trimmed.dropFirst("bytes ".count))
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            completeLength = nil
        } else {
            guard let length = Self.digits(parts[1]) else { return nil }
            completeLength = length
        }
        if parts[0] == "*" {
            // `bytes */*` says nothing.
            guard completeLength != nil else { return nil }
            range = nil
        } else {
            let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let first = Self.digits(bounds[0]), let last = Self.digits(bounds[1]),
                first <= last
            else { return nil }
            if let completeLength, last >= completeLength { return nil }
            range = first...last
        }
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isBlank($0) }), let end = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[start...end]
    }

    /// A non-negative decimal integer of 1 to 18 digits (no sign, no spaces).
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
