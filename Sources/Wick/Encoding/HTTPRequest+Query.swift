// How an encoded query joins a request's URL, and a body its Content-Type.
import FoundationEssentials

extension HTTPRequest {
    /// The URL with `query` (already percent-escaped, valid in a query) after its existing query,
    /// joined by `&`; nil when `URLComponents` cannot rebuild the URL. A relative URL is resolved
    /// against its base first; the fragment is kept.
    func url(appendingPercentEncodedQuery query: String) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let existing = components.percentEncodedQuery ?? ""
        components.percentEncodedQuery = existing.isEmpty ? query : existing + "&" + query
        return components.url
    }

    /// Sets `Content-Type` to `value` unless the request has one.
    mutating func setContentTypeIfAbsent(_ value: String) {
        if !headers.contains(name: "Content-Type") { headers.add(name: "Content-Type", value: value) }
    }
}
