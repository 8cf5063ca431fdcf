// A response as a cache keeps it: head, body, when it was fetched, and what its Vary names.
public import FoundationEssentials
public import WickCore

/// A stored response (Alamofire's `CachedURLResponse`): what a `ResponseCache` keeps and a
/// `CachedResponseHandler` may change or refuse before it is stored.
///
/// The times are the ones RFC 9111 §4.2.3 computes an age from: `requestDate` when the request
/// that fetched (or last validated) it was sent, `responseDate` when its response arrived.
public struct CachedResponse: Sendable, Equatable {
    /// The URL the response answers (the cache key, without its fragment).
    public var url: URL
    /// The status code.
    public var statusCode: Int
    /// The stored header fields (RFC 9111 §3.1: hop-by-hop fields are not kept).
    public var headers: HTTPHeaders
    /// The body as delivered (decoded when the session decodes bodies).
    public var data: Data
    /// When the request that fetched or last validated the response was sent.
    public var requestDate: Date
    /// When that response arrived.
    public var responseDate: Date
    /// The request's fields named by the response's `Vary` (lower-cased names, each with the
    /// request's combined value, or nil when the request had none), matched by later requests
    /// (RFC 9111 §4.1).
    public var varyingRequestFields: [String: String?]

    /// A stored response.
    public init(
        url: URL, statusCode: Int, headers: HTTPHeaders, data: Data, requestDate: Date, responseDate: Date,
        varyingRequestFields: [String: String?] = [:]
    ) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.data = data
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.varyingRequestFields = varyingRequestFields
    }

    /// The bytes the entry accounts for in a cache's budget: body, fields and URL.
    public var cost: Int {
        data.count + url.absoluteString.utf8.count
            + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            + varyingRequestFields.reduce(0) { $0 + $1.key.utf8.count + ($1.value?.utf8.count ?? 0) + 4 }
    }

    /// The directives of its `Cache-Control` fields.
    var cacheControl: CacheControl { CacheControl(headers: headers) }

    /// Whether its `Vary` is `*`, which no request matches (RFC 9111 §4.1).
    var varyMatchesNothing: Bool {
        Self.varyNames(headers).contains("*")
    }

    /// Whether `requestHeaders` select this response (RFC 9111 §4.1): every field its `Vary`
    /// names has the same combined value (whitespace around commas trimmed, names compared
    /// case-insensitively), or is absent from both requests.
    func matches(requestHeaders: HTTPHeaders) -> Bool {
        guard !varyingRequestFields.isEmpty else { return !varyMatchesNothing }
        for (name, stored) in varyingRequestFields where Self.combinedValue(name, in: requestHeaders) != stored {
            return false
        }
        return true
    }

    /// The names in the `Vary` fields of `headers`, lower-cased.
    static func varyNames(_ headers: HTTPHeaders) -> [String] {
        headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { trimmed($0).lowercased() }.filter { !$0.isEmpty }
    }

    /// The values of every field named `name`, normalised as §4.1 allows: joined by `,` with
    /// the whitespace around each value removed; nil when there is none.
    static func combinedValue(_ name: String, in headers: HTTPHeaders) -> String? {
        let values = headers.values(for: name)
        guard !values.isEmpty else { return nil }
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { trimmed($0) }.joined(separator: ",")
    }

    /// The fields of `request` that a response with `responseHeaders` varies on.
    static func varyingFields(of requestHeaders: HTTPHeaders, for responseHeaders: HTTPHeaders) -> [String: String?] {
        var fields: [String: String?] = [:]
        for name in varyNames(responseHeaders) where name != "*" {
            fields[name] = .some(combinedValue(name, in: requestHeaders))
        }
        return fields
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }
}
