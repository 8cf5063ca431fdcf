// The parts of an absolute URL the transport needs, split from its text in one pass.
package import FoundationEssentials

/// The scheme, host, port and origin-form target of an absolute URL, read from its
/// `absoluteString` in one pass over the bytes.
///
/// Foundation's component getters (`scheme`, `host()`, `port`, `path(percentEncoded:)`,
/// `query(percentEncoded:)`) each slice the string again; a request reads all of them, twice
/// (once when the session checks it, once when the transport prepares it). The `URL` has already
/// been parsed and validated by Foundation (RFC 3986), so splitting its text at the delimiters
/// gives the same percent-encoded parts: what this type returns is what those getters return.
package struct AbsoluteURLParts {
    /// The absolute text the offsets below index (UTF-8).
    private let text: String
    /// Where the scheme's ":" is, or nil when the text has no `scheme://`.
    private let schemeEnd: Int?
    private let hostRange: Range<Int>
    private let pathRange: Range<Int>
    /// The query without its "?"; nil when there is none.
    private let queryRange: Range<Int>?
    /// The port's digits as a number (saturating at `Int.max`); nil when the URL names no port,
    /// an empty one, or one that is not all digits.
    package let port: Int?

    /// Splits `url`'s absolute text.
    package init(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// Splits `text`, an absolute URL as Foundation writes it.
    package init(absoluteString text: String) {
        var text = text
        // SAFETY: `split` reads the local copy's UTF-8 buffer only inside this call, below bytes.count,
        // and returns offsets, not pointers.
        (schemeEnd, hostRange, port, pathRange, queryRange) = text.withUTF8(Self.split)
        self.text = text
    }

    /// The scheme as written (not lowercased), or nil when the text has no `scheme://`.
    package var scheme: String? { schemeEnd.map { slice(0..<$0) } }

    /// `http` or `https` when the scheme is one of them (in any case), without making a string;
    /// nil for any other scheme.
    package var webScheme: TransportOrigin.Scheme? {
        guard let schemeEnd, schemeEnd == 4 || schemeEnd == 5 else { return nil }
        var text = text
        let https: StaticString = "https"
        // SAFETY: `bytes` is valid for the closure and holds the text, whose scheme is its first
        // schemeEnd bytes; index < schemeEnd <= 5 reads inside both it and the 5-byte literal.
        return text.withUTF8 { bytes in
            // Only A-Z change under `| 0x20`, and scheme bytes are letters, digits, "+", "-", ".".
            for index in 0..<schemeEnd where bytes[index] | 0x20 != https.utf8Start[index] { return nil }
            return schemeEnd == 5 ? .https : .http
        }
    }
    /// The host as written, percent-encoded, an IP literal without its brackets; empty when the
    /// URL has no host.
    package var host: String { slice(hostRange) }
    /// Whether the URL names a host (a non-empty one).
    package var hasHost: Bool { !hostRange.isEmpty }
    /// The percent-encoded path, possibly empty.
    package var path: String { slice(pathRange) }
    /// The percent-encoded query without its `?`, or nil when the URL has none.
    package var query: String? { queryRange.map(slice) }

    /// The origin-form target: the path (`/` when empty) and `?query` when there is one, made
    /// from one slice of the text (the path and query are adjacent in it).
    package var target: String {
        let end = queryRange?.upperBound ?? pathRange.upperBound
        guard pathRange.isEmpty else { return slice(pathRange.lowerBound..<end) }
        return "/" + slice(pathRange.upperBound..<end)
    }

    private func slice(_ range: Range<Int>) -> String {
        var text = text
        // SAFETY: `range` is one of the ranges `split` found in this same text's UTF-8 (the copy has
        // the same bytes), so it lies inside the buffer, valid in the closure; String(decoding:) copies
        // it.
        return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The offsets of the parts in `bytes`.
    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (Int?, Range<Int>, Int?, Range<Int>, Range<Int>?) {
        let end = bytes.count
        func first(from start: Int, to stop: Int, where matches: (UInt8) -> Bool) -> Int? {
            var index = start
            while index < stop {
                if matches(bytes[index]) { return index }
                index += 1
            }
            return nil
        }
        func last(_ byte: UInt8, in range: Range<Int>) -> Int? {
            var index = range.upperBound
            while index > range.lowerBound {
                index -= 1
                if bytes[index] == byte { return index }
            }
            return nil
        }
        var schemeEnd: Int?
        var hostRange = 0..<0
        var port: Int?
        var position = 0
        // scheme ":" "//" authority; without "//" there is no authority.
        if let colon = first(from: 0, to: end, where: { !isSchemeByte($0) }), colon > 0,
            bytes[colon] == UInt8(ascii: ":"), colon + 3 <= end, bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/")
        {
            schemeEnd = colon
            let authorityStart = colon + 3
            // The authority ends at the first "/", "?" or "#".
            let authorityEnd =
                first(from: authorityStart, to: end) {
                    $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                } ?? end
            // userinfo "@": the last one (an "@" inside userinfo is percent-encoded).
            let hostStart = last(UInt8(ascii: "@"), in: authorityStart..<authorityEnd).map { $0 + 1 } ?? authorityStart
            var portStart: Int?
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "["),
                let close = first(from: hostStart, to: authorityEnd, where: { $0 == UInt8(ascii: "]") })
            {
                // An IP literal: the port's colon follows the closing bracket.
                hostRange = hostStart + 1..<close
                if close + 1 < authorityEnd, bytes[close + 1] == UInt8(ascii: ":") { portStart = close + 2 }
            } else if let portColon = last(UInt8(ascii: ":"), in: hostStart..<authorityEnd) {
                hostRange = hostStart..<portColon
                portStart = portColon + 1
            } else {
                hostRange = hostStart..<authorityEnd
            }
            if let portStart, portStart < authorityEnd {
                // SAFETY: portStart < authorityEnd <= end == bytes.count, so the slice is inside
                // `bytes`; `decimal` only reads it, during this call.
                port = decimal(UnsafeBufferPointer(rebasing: bytes[portStart..<authorityEnd]))
            }
            position = authorityEnd
        }
        let pathEnd =
            first(from: position, to: end) { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? end
        var queryRange: Range<Int>?
        if pathEnd < end, bytes[pathEnd] == UInt8(ascii: "?") {
            let queryEnd = first(from: pathEnd + 1, to: end) { $0 == UInt8(ascii: "#") } ?? end
            queryRange = pathEnd + 1..<queryEnd
        }
        return (schemeEnd, hostRange, port, position..<pathEnd, queryRange)
    }

    /// ALPHA / DIGIT / "+" / "-" / "." (RFC 3986 §3.1).
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The decimal value of `digits`, nil when one is not a digit, saturating at `Int.max`.
    private static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = scaled.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow || overflow2 { return .max }
            value = sum
        }
        return value
    }
}
