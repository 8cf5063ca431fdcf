// What a private cache does with a request (RFC 9111 §4): use a stored response (fresh, or stale
// while it is revalidated), validate it, answer 504, or go to the network.
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
    /// Use this stale stored response at once (RFC 5861 §3, `stale-while-revalidate`) and
    /// refresh it with one request in the background carrying `conditionalFields` (empty when
    /// it has no validator: the background request fetches it anew).
    case useStaleWhileRevalidating(CachedResponse, age: Int, conditionalFields: HTTPHeaders)
    /// Send the request with these conditional fields (§4.3.1); a `304` selects `stored`.
    case validate(CachedResponse, conditionalFields: HTTPHeaders)
    /// Answer `504 Gateway Timeout` without sending (`only-if-cached` with nothing usable,
    /// §5.2.1.7, or `returnCacheDataDontLoad`).
    case gatewayTimeout

    /// The decision for a request with `method`, `headers` and `policy`, given `stored` (the
    /// responses kept for its URL, any order) at `now`. `staleWhileRevalidate` is the session's
    /// opt-in (`Session.Configuration.staleWhileRevalidate`) to RFC 5861 §3.
    ///
    /// Rules, in order:
    /// 1. Only GET and HEAD read the cache (a HEAD is answered from a stored GET, without its
    ///    body: RFC 9110 §9.3.2, RFC 9111 §4); a request with its own conditional or range fields
    ///    (`If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`, `If-Range`,
    ///    `Range`) is the caller's own validation or a part of the representation, and goes to
    ///    the network untouched: a stored response is never sliced to answer a `Range`.
    /// 2. `reloadIgnoringLocalCacheData` never reads.
    /// 3. The stored response is the newest one whose `Vary` fields match the request (§4.1).
    /// 4. `returnCacheDataElseLoad` and `returnCacheDataDontLoad` use it whatever its age.
    /// 5. The request's `no-cache` (or `Pragma: no-cache` without `Cache-Control`, §5.4) and
    ///    the response's `no-cache` require validation (§5.2.1.4, §5.2.2.4).
    /// 6. Otherwise it is used when fresh (§4.2) and within the request's `max-age` (§5.2.1.1)
    ///    and `min-fresh` (§5.2.1.3), or stale within the request's `max-stale` (§5.2.1.2)
    ///    unless the response says `must-revalidate` (§5.2.2.2, §4.2.4).
    /// 7. `only-if-cached` (§5.2.1.7) with nothing usable: 504. A HEAD not answered by now
    ///    goes to the network (its `200` then freshens the stored GET, §4.3.5).
    /// 8. With `staleWhileRevalidate` on, a stale GET response within its own
    ///    `stale-while-revalidate=N` (RFC 5861 §3) is used at once and revalidated in the
    ///    background, unless something forbids serving it stale (§4.2.4): rule 5's `no-cache`,
    ///    the response's `must-revalidate`, or a request that asks for freshness (`max-age`,
    ///    which without `max-stale` means "the client does not wish to receive a stale
    ///    response", §5.2.1.1; `min-fresh`; a `max-stale` that rule 6 found exceeded).
    /// 9. Not used: validated with its `ETag` (`If-None-Match`) and `Last-Modified`
    ///    (`If-Modified-Since`), §4.3.1; without a validator it is fetched anew.
    static func decide(
        method: HTTPMethod, headers: HTTPHeaders, policy: RequestCachePolicy, stored: [CachedResponse], now: Date,
        staleWhileRevalidate: Bool
    ) -> CacheDecision {
        guard method == .get || method == .head, !Self.conditionalFieldNames.contains(where: headers.contains(name:)) else {
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
        if method == .head { return .network }
        let conditional = Self.conditionalFields(for: selected)
        if staleWhileRevalidate, !mustValidate,
            Self.isWithinStaleWhileRevalidate(freshness, request: request, response: response)
        {
            return .useStaleWhileRevalidating(selected, age: freshness.age, conditionalFields: conditional)
        }
        return conditional.isEmpty ? .network : .validate(selected, conditionalFields: conditional)
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

    /// Whether a stale response may be used while it is revalidated (rule 8): the response's
    /// `stale-while-revalidate=N` covers its staleness, it does not say `must-revalidate`, and
    /// the request asks for no freshness of its own (`max-age`, `min-fresh`, `max-stale`).
    private static func isWithinStaleWhileRevalidate(
        _ freshness: CacheFreshness, request: CacheControl, response: CacheControl
    ) -> Bool {
        guard let window = response.staleWhileRevalidate, !freshness.isFresh, !response.mustRevalidate else { return false }
        guard request.maxAge == nil, request.minFresh == nil, request.maxStale == nil else { return false }
        return freshness.staleness <= window
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
