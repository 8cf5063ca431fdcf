// Where a Session's requests meet its cookie storage: the Cookie field added when a request is
// sent, the Set-Cookie fields stored when a response arrives.
import FoundationEssentials

extension Session {
    /// The fields `request` is sent with: the session's and its own (`mergedHeaders`), plus a
    /// `Cookie` field with the storage's cookies for its URL when the session has a storage,
    /// the request handles cookies, and it has no `Cookie` field of its own (a field the caller
    /// set wins). Without cookies to add, a lock and a look-up per label of the host.
    func headersAsSent(_ request: HTTPRequest) -> HTTPHeaders {
        let merged = mergedHeaders(request.headers)
        // An empty store is asked first: no field scan, clock read or look-up.
        guard let storage = configuration.cookieStorage, !storage.isEmpty, request.httpShouldHandleCookies,
            !merged.contains(name: "Cookie"), let cookies = storage.cookieFieldValue(for: request.url, now: Date())
        else { return merged }
        var headers = merged
        headers.add(name: "Cookie", value: cookies)
        return headers
    }

    /// Stores the `Set-Cookie` fields of a response (any response: a redirect's, a challenge's,
    /// a final one) to `request`, when the session has a storage and the request handles cookies.
    func storeCookies(from headers: HTTPHeaders, for request: HTTPRequest) {
        guard let storage = configuration.cookieStorage, request.httpShouldHandleCookies,
            headers.contains(name: "Set-Cookie")
        else { return }
        storage.storeCookies(from: headers.values(for: "Set-Cookie"), for: request.url)
    }
}
