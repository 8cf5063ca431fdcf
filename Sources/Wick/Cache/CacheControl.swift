// The Cache-Control field (RFC 9111 §5.2) read into its directives, for requests and responses.
public import WickCore

/// The directives of a message's `Cache-Control` fields (RFC 9111 §5.2), request and response
/// directives in one value. Parsed by the field's grammar (§5.2: `#cache-directive`, each
/// `token [ "=" ( token / quoted-string ) ]`), case-insensitively by name; unknown directives
/// are ignored (§5.2.3), and a directive whose argument is malformed is ignored as if absent,
/// except that a malformed `max-age` on a response makes it stale (§4.2.1: "a cache SHOULD
/// consider the response to be stale"): it reads as `max-age=0`.
///
/// Bounded: a field longer than `maximumFieldBytes` is read only up to that many bytes, so a
/// hostile field costs at most that much work. Delta-seconds past 2³¹ read as 2³¹ (§1.2.2).
public struct CacheControl: Sendable, Equatable {
    /// `max-age=N`: in a response, its freshness lifetime (§5.2.2.1); in a request, the oldest
    /// response the client accepts (§5.2.1.1).
    public var maxAge: Int?
    /// `s-maxage=N` (§5.2.2.10): for shared caches only. Read but ignored by Wick's private cache.
    public var sharedMaxAge: Int?
    /// `max-stale[=N]` (§5.2.1.2), a request directive: a stale response is acceptable, by at
    /// most N seconds (`Int.max` when no value is given: any staleness).
    public var maxStale: Int?
    /// `min-fresh=N` (§5.2.1.3), a request directive: the response must stay fresh N more seconds.
    public var minFresh: Int?
    /// `no-cache` (§5.2.1.4, §5.2.2.4): a stored response must be validated before it is used.
    /// The response form's field-name list is treated as the unqualified directive (allowed).
    public var noCache = false
    /// `no-store` (§5.2.1.5, §5.2.2.5): no part of the message may be stored.
    public var noStore = false
    /// `only-if-cached` (§5.2.1.7), a request directive: answer from the cache or with a 504.
    public var onlyIfCached = false
    /// `must-revalidate` (§5.2.2.2): once stale, never served without validation.
    public var mustRevalidate = false
    /// `proxy-revalidate` (§5.2.2.8): `must-revalidate` for shared caches only; ignored here.
    public var proxyRevalidate = false
    /// `private` (§5.2.2.7): for a private cache such as this one, storable.
    public var isPrivate = false
    /// `public` (§5.2.2.9): storable, and heuristically fresh when it has no explicit lifetime.
    public var isPublic = false
    /// `immutable` (RFC 8246): the body will not change while fresh.
    public var immutable = false
    /// `stale-while-revalidate=N` (RFC 5861 §3): a response stale by at most N seconds may be
    /// served while it is revalidated in the background, when the session opts in
    /// (`Session.Configuration.staleWhileRevalidate`, `CacheDecision`).
    public var staleWhileRevalidate: Int?
    /// `stale-if-error=N` (RFC 5861 §4): a stale response may answer for N seconds past its
    /// lifetime when its validation fails (`CacheDecision.staleIfErrorAge`).
    public var staleIfError: Int?

    /// The most bytes of `Cache-Control` read from one message (all its fields together): 4096.
    public static let maximumFieldBytes = 4096
    /// The largest delta-seconds value kept: 2³¹ (RFC 9111 §1.2.2).
    public static let maximumDeltaSeconds = 2_147_483_648

    /// No directive.
    public init() {}

    /// The directives of every `Cache-Control` field in `headers`, combined in order.
    public init(headers: HTTPHeaders) {
        self.init()
        var budget = Self.maximumFieldBytes
        for field in headers.values(for: "Cache-Control") where budget > 0 {
            let bytes = Array(field.utf8.prefix(budget))
            budget -= bytes.count
            parse(bytes)
        }
    }

    /// The directives of one field value (`max-age=60, no-cache`).
    public init(_ fieldValue: String) {
        self.init()
        parse(Array(fieldValue.utf8.prefix(Self.maximumFieldBytes)))
    }

    /// Whether a request's `Pragma: no-cache` counts (§5.4: only when it has no `Cache-Control`).
    static func requestWantsNoCache(_ headers: HTTPHeaders) -> Bool {
        if headers.contains(name: "Cache-Control") { return CacheControl(headers: headers).noCache }
        return headers.values(for: "Pragma").contains { $0.lowercased().contains("no-cache") }
    }

    // MARK: - Parsing

    /// Reads the directives of one field value: `name[=value]` separated by commas; a quoted
    /// value may hold commas and `\`-escapes.
    private mutating func parse(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            // A directive's name runs to '=', ',' or the end; whitespace around it is optional.
            var nameStart = index
            while nameStart < bytes.count, Self.isWhitespace(bytes[nameStart]) { nameStart += 1 }
            var cursor = nameStart
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "="), bytes[cursor] != UInt8(ascii: ",") {
                cursor += 1
            }
            var nameEnd = cursor
            while nameEnd > nameStart, Self.isWhitespace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            var argument: [UInt8]? = nil
            var argumentIsValid = true
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") {
                    (argument, cursor, argumentIsValid) = Self.quotedString(bytes, from: cursor)
                } else {
                    let start = cursor
                    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ",") { cursor += 1 }
                    var end = cursor
                    while end > start, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
                    argument = Array(bytes[start..<end])
                }
                // Anything between the argument and the next comma makes the argument malformed.
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ",") {
                    if !Self.isWhitespace(bytes[cursor]) { argumentIsValid = false }
                    cursor += 1
                }
            }
            apply(name: bytes[nameStart..<nameEnd], argument: argumentIsValid ? argument : [])
            index = cursor + 1
        }
    }

    /// Records one directive. `argument` is nil when the directive had no `=`.
    private mutating func apply(name: ArraySlice<UInt8>, argument: [UInt8]?) {
        switch String(decoding: name, as: UTF8.self).lowercased() {
        case "max-age": maxAge = Self.deltaSeconds(argument) ?? 0
        case "s-maxage": sharedMaxAge = Self.deltaSeconds(argument) ?? sharedMaxAge
        case "max-stale": maxStale = argument == nil ? Int.max : Self.deltaSeconds(argument) ?? maxStale
        case "min-fresh": minFresh = Self.deltaSeconds(argument) ?? minFresh
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "only-if-cached": onlyIfCached = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "immutable": immutable = true
        case "stale-while-revalidate": staleWhileRevalidate = Self.deltaSeconds(argument) ?? staleWhileRevalidate
        case "stale-if-error": staleIfError = Self.deltaSeconds(argument) ?? staleIfError
        default: break
        }
    }

    /// `delta-seconds = 1*DIGIT` (§1.2.2), capped at 2³¹; nil when absent or not digits.
    static func deltaSeconds(_ argument: [UInt8]?) -> Int? {
        guard let argument, !argument.isEmpty else { return nil }
        var value = 0
        for byte in argument {
            guard (byte &- 0x30) < 10 else { return nil }
            value = min(value * 10 + Int(byte &- 0x30), maximumDeltaSeconds)
        }
        return value
    }

    /// A quoted-string starting at `start` (the opening quote): its unescaped content, the
    /// index after the closing quote, and whether it was closed.
    private static func quotedString(_ bytes: [UInt8], from start: Int) -> ([UInt8], Int, Bool) {
        var content: [UInt8] = []
        var cursor = start + 1
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { return (content, cursor + 1, true) }
            if byte == UInt8(ascii: "\\"), cursor + 1 < bytes.count { cursor += 1 }
            content.append(bytes[cursor])
            cursor += 1
        }
        return (content, cursor, false)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
