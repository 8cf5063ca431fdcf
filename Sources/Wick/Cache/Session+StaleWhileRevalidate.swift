// The background request that refreshes a stale response served by stale-while-revalidate.
import FoundationEssentials
import WickCore
import WickTransport

extension Session {
    /// One stored response's identity in its store: its URL's key and the request fields its
    /// `Vary` selected.
    struct CacheEntryKey: Hashable, Sendable {
        let url: String
        let varyingRequestFields: [String: String?]

        init(_ stored: CachedResponse) {
            url = ResponseCacheKey.of(stored.url)
            varyingRequestFields = stored.varyingRequestFields
        }
    }

    /// Sends `request` (as `owner` sent it, adapted, with its cookies) with `conditionalFields`
    /// in the background, to refresh `stored`, which `owner` was just answered with, stale
    /// (RFC 5861 §3: "the cache SHOULD attempt to revalidate it while still serving stale
    /// responses"). Nothing happens when a background request for `stored` is already in flight.
    ///
    /// The response is handled as a validation's would be (`cacheAfterExchange`): a 304
    /// freshens the stored response, a new storable response replaces it; its cookies and HSTS
    /// field count as any response's. No redirect is followed and nothing is retried. The end,
    /// a failure included, is told to the event monitors only
    /// (`request(_:didRevalidateInBackground:)`); `deadline` is `owner`'s.
    func revalidateInBackground(
        _ stored: CachedResponse, conditionalFields: HTTPHeaders, request: HTTPRequest, _ deadline: Deadline,
        for owner: Request
    ) {
        let key = CacheEntryKey(stored)
        guard revalidationsInFlight.withLock({ $0.insert(key).inserted }) else { return }
        let prepared: PreparedSend
        switch prepareSend(request, conditionalFields: conditionalFields) {
        case .success(let made): prepared = made
        case .failure(let error): return backgroundRevalidationEnded(key, .failure(error), for: owner)
        }
        let validation =
            conditionalFields.isEmpty ? nil : CacheValidation(stored: stored, conditionalFields: conditionalFields)
        prepared.start(deadline: deadline, sink: nil, leaseObserver: nil) { [self] result in
            switch result {
            case .success(let received):
                storeCookies(from: received.headers, for: request)
                recordHSTS(from: received, for: request)
                // `Vary` is matched against the fields sent, the session's included.
                let (merged, source) = cacheAfterExchange(
                    received, to: withSessionHeaders(request), validation: validation, by: owner)
                // A 304 reports the refreshed response, as a validation in the foreground does;
                // anything else (a stale-if-error stand-in included) reports what the server sent.
                let metrics =
                    source == .revalidatedCache
                    ? TransactionMetrics(request: request, response: merged, source: source)
                    : TransactionMetrics(request: request, response: received, source: .network)
                backgroundRevalidationEnded(key, .success(metrics), for: owner)
            case .failure(let error):
                backgroundRevalidationEnded(key, .failure(WickError(error)), for: owner)
            }
        }
    }

    /// Lets another background request for `key` start, then tells the event monitors.
    private func backgroundRevalidationEnded(
        _ key: CacheEntryKey, _ result: Result<TransactionMetrics, WickError>, for owner: Request
    ) {
        _ = revalidationsInFlight.withLock { $0.remove(key) }
        eventMonitor.request(owner, didRevalidateInBackground: result)
    }
}
