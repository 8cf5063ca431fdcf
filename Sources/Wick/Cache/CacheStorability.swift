// Whether a response may be stored (RFC 9111 §3) and which of its fields are kept (§3.1).
import WickCore

/// The storing rules of RFC 9111 §3 for a private cache, and the fields a stored response
/// keeps (§3.1).
enum CacheStorability {
    /// §4.2.2 and RFC 9110 §15.1: the statuses "heuristically cacheable" by default.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether the response to a request may be stored (§3), for a private cache:
    /// - the method is GET (the only method whose responses Wick's cache stores and reuses);
    /// - the request carries no `Range`: its answer is a part (`206`, never combined, §3.3) or
    ///   about the range (a `416` would then answer requests without one); a `200` to it would
    ///   be whole, but Wick's cache keeps range requests out altogether, neither storing their
    ///   responses nor answering them (`CacheDecision`, rule 1);
    /// - the status is final and not 206 (partial content is not combined, §3.3) or 304;
    /// - neither the request nor the response says `no-store` (§5.2.1.5, §5.2.2.5);
    /// - `private` does not prevent it: this cache is private (§5.2.2.7);
    /// - `Authorization` does not prevent it: §3.5 restricts shared caches only;
    /// - `Vary: *` is not stored: no later request could match it (§4.1);
    /// - and the response has explicit freshness (`max-age`, `Expires`), is `public` or
    ///   `private`, or has a heuristically cacheable status (§3, the last list item).
    static func mayStore(
        method: HTTPMethod, requestHeaders: HTTPHeaders, status: Int, responseHeaders: HTTPHeaders
    ) -> Bool {
        guard method == .get, !requestHeaders.contains(name: "Range"), status >= 200, status != 206, status != 304 else {
            return false
        }
        let response = CacheControl(headers: responseHeaders)
        guard !response.noStore, !CacheControl(headers: requestHeaders).noStore else { return false }
        guard !CachedResponse.varyNames(responseHeaders).contains("*") else { return false }
        return response.maxAge != nil || responseHeaders.contains(name: "Expires") || response.isPublic
            || response.isPrivate || heuristicallyCacheableStatuses.contains(status)
    }

    /// The fields a stored response keeps (§3.1): all but `Connection` and the fields it
    /// names, the other hop-by-hop fields (RFC 9110 §7.6.1), the `Proxy-` authentication
    /// fields, and the framing of a body that is stored whole and decoded.
    static func storedFields(of headers: HTTPHeaders) -> HTTPHeaders {
        var excluded: Set<String> = [
            "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
            "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        ]
        for value in headers.values(for: "Connection") {
            for name in value.split(separator: ",") { excluded.insert(name.filter { $0 != " " && $0 != "\t" }.lowercased()) }
        }
        var kept = HTTPHeaders()
        for field in headers where !excluded.contains(field.name.lowercased()) { kept.add(field) }
        return kept
    }

    /// The stored fields updated from a `304 Not Modified` (§4.3.4, by the rules of §3.2):
    /// each field of the 304 replaces the stored fields of that name, except the excluded
    /// ones of §3.1 and `Content-Length`, which describes the stored body.
    static func updatedFields(_ stored: HTTPHeaders, from notModified: HTTPHeaders) -> HTTPHeaders {
        let incoming = storedFields(of: notModified)
        let replaced = Set(incoming.map { $0.name.lowercased() }).subtracting(["content-length"])
        var merged = HTTPHeaders()
        for field in stored where !replaced.contains(field.name.lowercased()) { merged.add(field) }
        for field in incoming where replaced.contains(field.name.lowercased()) { merged.add(field) }
        return merged
    }
}
