// What a private cache does with a request (RFC 9111 §4): use a stored response, validate it,
// answer 504, or go to the network.
public import FoundationEssentials
import WickCore

/// The cache's answer to one request, decided from the stored responses for its URL, the
/// request's directives and policy, and the time (RFC 9111 §4). Pure: the caller does the
/// storing, sending and merging.
enum CacheDecision: Sendable, Equatable {
    /// Send the request; nothing stored can be used or validated.
    case network
    /// Use this stored response as it is; `age` is its current age in seconds (its `Age` field).
    case useStored(CachedResponse, age: Int)
    /// Send the request with these conditional fields (§4.3.1); a `304` selects `stored`.
    case validate(CachedResponse, conditionalFields: HTTPHeaders)
    /// Answer `504 Gateway Timeout` without sending (`only-if-cached` with nothing usable,
    /// §5.2.1.7, or `returnCacheDataDontLoad`).
    case gatewayTimeout

    /// The decision for a request with `method`, `headers` and `policy`, given `stored` (the
    /// responses kept for its URL, any order) at `now`.
    ///
    /// Rules, in order:
    /// 1. Only GET reads the cache; a request with its own conditional or range fields
    ///    (`If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`, `If-Range`,
    ///    `Range`) is the caller's own validation and goes to the network untouched.
    /// 2. `reloadIgnoringLocalCacheData` never reads.
    /// 3. The stored response is the newest one whose `Vary` fields match the request (§4.1).
    /// 4. `returnCacheDataElseLoad` and `returnCacheDataDontLoad` use it whatever its age.
    /// 5. The request's `no-cache` (or `Pragma: no-cache` without `Cache-Control`, §5.4) and
    ///    the response's `no-cache` require validation (§5.2.1.4, §5.2.2.4).
    /// 6. Otherwise it is used when fresh (§4.2) and within the request's `max-age` (§5.2.1.1)
    ///    and `min-fresh` (§5.2.1.3), or stale within the request's `max-stale` (§5.2.1.2)
    ///    unless the response says `must-revalidate` (§5.2.2.2, §4.2.4).
    /// 7. Not used: validated with its `ETag` (`If-None-Match`) and `Last-Modified`
    ///    (`If-Modified-Since`), §4.3.1; without a validator it is fetched anew.
    /// 8. `only-if-cached` (§5.2.1.7) or `returnCacheDataDontLoad` with nothing usable: 504.
    static func decide(
        method: HTTPMethod, headers: HTTPHeaders, policy: RequestCachePolicy, stored: [CachedResponse], now: Date
    ) -> CacheDecision {
        guard method == .get, !Self.conditionalFieldNames.contains(where: headers.contains(name:)) else {
            return .network
        }
        if policy == .reloadIgnoringLocalCacheData { return .network }
        let request = CacheControl(headers: headers)
        let unavailable: CacheDecision = request.onlyIfCached || policy == .returnCacheDataDontLoad ? .gatewayTimeout : .network
        guard
            let selected = stored.filter({ $0.matches(requestHeaders: headers) }).max(by: { $0.responseDate < $1.responseDate })
        else { return unavailable }
        let freshness = CacheFreshness(of: selected, now: now)
        if policy != .useProtocolCachePolicy { return .useStored(selected, age: freshness.age) }
        let response = selected.cacheControl
        let mustValidate = response.noCache || CacheControl.requestWantsNoCache(headers)
        if !mustValidate, Self.isAcceptable(freshness, request: request, response: response) {
            return .useStored(selected, age: freshness.age)
        }
        if request.onlyIfCached { return .gatewayTimeout }
        let conditional = Self.conditionalFields(for: selected)
        return conditional.isEmpty ? unavailable : .validate(selected, conditionalFields: conditional)
    }

    /// The request fields that make it the caller's own conditional or range request.
    static let conditionalFieldNames = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range",
    ]

    /// Whether a response of this freshness satisfies the request's directives (rule 6).
    private static func isAcceptable(_ freshness: CacheFreshness, request: CacheControl, response: CacheControl) -> Bool {
        if let maxAge = request.maxAge, freshness.age > maxAge { return false }
        if let minFresh = request.minFresh, freshness.lifetime - freshness.age < minFresh { return false }
        if freshness.isFresh { return true }
        guard let maxStale = request.maxStale, !response.mustRevalidate else { return false }
        return freshness.staleness <= maxStale
    }

    /// The age of `stored` when RFC 5861 §4's `stale-if-error` lets it answer a request whose
    /// validation failed (the network unreachable, or a 500, 502, 503 or 504) at `now`: the
    /// response's or the request's `stale-if-error=N` covers its staleness, and the response
    /// does not say `must-revalidate` (RFC 9111 §4.2.4 forbids serving it stale). Nil otherwise.
    static func staleIfErrorAge(of stored: CachedResponse, requestHeaders: HTTPHeaders, now: Date) -> Int? {
        let response = stored.cacheControl
        guard !response.mustRevalidate else { return nil }
        let window = max(response.staleIfError ?? -1, CacheControl(headers: requestHeaders).staleIfError ?? -1)
        let freshness = CacheFreshness(of: stored, now: now)
        guard window >= 0, freshness.staleness <= window else { return nil }
        return freshness.age
    }

    /// `If-None-Match` with the stored `ETag`, `If-Modified-Since` with its `Last-Modified`
    /// (§4.3.1 asks for both when both exist); empty without validators.
    static func conditionalFields(for stored: CachedResponse) -> HTTPHeaders {
        var fields = HTTPHeaders()
        if let etag = stored.headers.value(for: "ETag") { fields.add(name: "If-None-Match", value: etag) }
        if let lastModified = stored.headers.value(for: "Last-Modified") {
            fields.add(name: "If-Modified-Since", value: lastModified)
        }
        return fields
    }
}
