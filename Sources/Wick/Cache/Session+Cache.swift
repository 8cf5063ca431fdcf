// Where a Session's requests meet its response cache: the decision before a send, the 304
// merge, storing and invalidating after a response.
import FoundationEssentials
import WickCore
import WickTransport

extension Session {
    /// What the cache decides for `request` (RFC 9111 §4, `CacheDecision`, with the session's
    /// `staleWhileRevalidate`), or nil when the session has no cache.
    func cacheDecision(for request: HTTPRequest) -> CacheDecision? {
        guard let cache = configuration.responseCache else { return nil }
        guard request.method == .get || request.method == .head, request.unixSocketPath == nil else { return .network }
        return CacheDecision.decide(
            method: request.method, headers: request.headers, policy: request.cachePolicy,
            stored: cache.cachedResponses(for: request.url), now: Date(),
            staleWhileRevalidate: configuration.staleWhileRevalidate)
    }

    /// `stored` as the response to a `method` request served without a request, with an `Age`
    /// field of `age` seconds (RFC 9111 §5.1: a cache sends `Age` with a stored response).
    /// A HEAD gets the stored GET response's fields and no body (RFC 9110 §9.3.2).
    static func responseFromCache(_ stored: CachedResponse, age: Int, to method: HTTPMethod) -> TransportResponse {
        var headers = stored.headers
        headers.update(name: "Age", value: String(age))
        return TransportResponse(
            status: HTTPStatus(rawValue: stored.statusCode), version: .http1_1, headers: headers,
            body: method == .head ? Data() : stored.data, trailers: nil, metrics: cacheMetrics())
    }

    /// The `504 Gateway Timeout` of a request that allows only the cache and finds nothing
    /// usable there (RFC 9111 §5.2.1.7, `RequestCachePolicy.returnCacheDataDontLoad`).
    static func gatewayTimeoutFromCache() -> TransportResponse {
        TransportResponse(
            status: HTTPStatus(rawValue: 504), version: .http1_1, headers: ["Content-Length": "0"], body: Data(),
            trailers: nil, metrics: cacheMetrics())
    }

    /// The metrics of a response no exchange produced: started and completed now.
    private static func cacheMetrics() -> TransportMetrics {
        var metrics = TransportMetrics(started: .now())
        metrics.completed = metrics.started
        return metrics
    }

    /// The stored response a failed validation may deliver instead of the failure, by
    /// `stale-if-error` (RFC 5861 §4, `CacheDecision.staleIfErrorAge`); nil when none may.
    func staleResponseOnError(validating validation: CacheValidation?, request: HTTPRequest) -> TransportResponse? {
        guard configuration.responseCache != nil, let validation,
            let age = CacheDecision.staleIfErrorAge(of: validation.stored, requestHeaders: request.headers, now: Date())
        else { return nil }
        return Self.responseFromCache(validation.stored, age: age, to: request.method)
    }

    /// What the cache does with `received`, the network's answer to `request` (sent by
    /// `owner`, validating `validation` when it was conditional), and the response to deliver.
    ///
    /// - A `304` to a validation selects the stored response (§4.3.4, when the 304 carries no
    ///   other `ETag`), updates its fields and times in the store, and is delivered as it:
    ///   the stored status and body with the merged fields (`.revalidatedCache`). A 304 naming
    ///   another `ETag` selects nothing: the stored response is removed and the 304 delivered.
    /// - A 500, 502, 503 or 504 to a validation delivers the stored response when its
    ///   `stale-if-error` allows (RFC 5861 §4), as `.cache`.
    /// - A `200` to a HEAD updates or forgets the stored GET responses the HEAD could have
    ///   selected (§4.3.5, `CacheHeadFreshening`); a HEAD's response is never stored.
    /// - An unsafe method's non-error response invalidates its URL and the same-origin URLs of
    ///   its `Location` and `Content-Location` (§4.4).
    /// - A storable response (§3, `CacheStorability`) is offered to the request's or the
    ///   session's `CachedResponseHandler`, then stored.
    func cacheAfterExchange(
        _ received: TransportResponse, to request: HTTPRequest, validation: CacheValidation?, by owner: Request
    ) -> (response: TransportResponse, source: ResponseSource) {
        guard let cache = configuration.responseCache, request.unixSocketPath == nil else { return (received, .network) }
        let responseDate = Date()
        let elapsed = (received.metrics.completed ?? .now()) - received.metrics.started
        let requestDate = responseDate.addingTimeInterval(-elapsed.timeInterval)
        if [500, 502, 503, 504].contains(received.status.rawValue),
            let stale = staleResponseOnError(validating: validation, request: request)
        {
            return (stale, .cache)
        }
        if let validation, received.status.rawValue == 304 {
            let stored = validation.stored
            if let etag = received.headers.value(for: "ETag"), etag != stored.headers.value(for: "ETag") {
                cache.removeCachedResponses(for: request.url)
                return (received, .network)
            }
            var updated = stored
            updated.headers = CacheStorability.updatedFields(stored.headers, from: received.headers)
            updated.requestDate = requestDate
            updated.responseDate = responseDate
            cache.store(updated)
            let response = TransportResponse(
                status: HTTPStatus(rawValue: updated.statusCode), version: received.version, headers: updated.headers,
                body: updated.data, trailers: nil, metrics: received.metrics)
            return (response, .revalidatedCache)
        }
        if request.method == .head {
            if received.status.rawValue == 200 {
                freshenStoredResponses(
                    of: request, from: received.headers, in: cache, requestDate: requestDate, responseDate: responseDate)
            }
            return (received, .network)
        }
        if !request.method.isSafe, (200..<400).contains(received.status.rawValue) {
            for url in CacheInvalidation.targets(of: request.url, responseHeaders: received.headers) {
                cache.removeCachedResponses(for: url)
            }
        }
        guard received.metrics.streamedBodyBytes == 0, owner.exchangeSink == nil,
            CacheStorability.mayStore(
                method: request.method, requestHeaders: request.headers, status: received.status.rawValue,
                responseHeaders: received.headers)
        else { return (received, .network) }
        let cached = CachedResponse(
            url: request.url, statusCode: received.status.rawValue, headers: CacheStorability.storedFields(of: received.headers),
            data: received.body, requestDate: requestDate, responseDate: responseDate,
            varyingRequestFields: CachedResponse.varyingFields(of: request.headers, for: received.headers))
        offerToCache(cached, cache, by: owner)
        return (received, .network)
    }

    /// Applies `CacheHeadFreshening` to each stored GET response for the URL of `head` (a HEAD
    /// request answered `200` with `fields`) that the HEAD could have selected; the others are
    /// kept as they are. The store can only forget a whole URL, so when one response must go,
    /// the URL is emptied and the rest stored again.
    private func freshenStoredResponses(
        of head: HTTPRequest, from fields: HTTPHeaders, in cache: any ResponseCache, requestDate: Date, responseDate: Date
    ) {
        let stored = cache.cachedResponses(for: head.url)
        var kept: [CachedResponse] = []
        var forgotAny = false
        for response in stored {
            guard response.matches(requestHeaders: head.headers) else {
                kept.append(response)
                continue
            }
            switch CacheHeadFreshening.outcome(
                of: response, headResponse: fields, requestDate: requestDate, responseDate: responseDate)
            {
            case .update(let updated): kept.append(updated)
            case .invalidate: forgotAny = true
            }
        }
        if forgotAny { cache.removeCachedResponses(for: head.url) }
        for response in kept { cache.store(response) }
    }

    /// Stores `cached` as the request's (or else the session's) `CachedResponseHandler`
    /// decides: at once for `ResponseCacher.cache`, otherwise after asking on the root queue.
    private func offerToCache(_ cached: CachedResponse, _ cache: any ResponseCache, by owner: Request) {
        let handler = owner.cachedResponseHandler ?? cachedResponseHandler
        if let cacher = handler as? ResponseCacher, cacher.storesUnchanged { return cache.store(cached) }
        rootQueue.async {
            handler.request(owner, willCacheResponse: cached) { decided in
                if let decided { cache.store(decided) }
            }
        }
    }
}

extension TransportError {
    /// Whether the exchange ended because it was cancelled (not a failure of the server's).
    var isCancellation: Bool {
        if case .cancelled = self { true } else { false }
    }
}
