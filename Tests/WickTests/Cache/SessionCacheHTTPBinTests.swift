// A Session's response cache against httpbin: fresh hits without a request (/cache/{n}),
// validation answered by 304 (/etag/{etag}, /cache), no-store, Vary, invalidation by POST,
// only-if-cached, the policies, ResponseCacher at both levels, and the event monitors.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionCacheHTTPBinTests {
    /// A session with a memory cache (and `handler` as its CachedResponseHandler).
    static func cachingSession(
        _ cache: MemoryResponseCache = MemoryResponseCache(), handler: (any CachedResponseHandler)? = nil,
        monitors: [any EventMonitor] = []
    ) -> Session {
        var configuration = Session.Configuration()
        configuration.responseCache = cache
        return Session(configuration: configuration, cachedResponseHandler: handler, eventMonitors: monitors)
    }

    /// The body (empty for a bodiless 504), where it came from, and the status; throws when no
    /// response arrived.
    static func fetch(_ request: DataRequest) async throws -> (data: Data, source: ResponseSource?, status: Int?) {
        let response = await request.serializingData().response
        if let error = response.error, response.response == nil { throw error }
        return (response.data ?? Data(), response.metrics?.responseSource, response.response?.statusCode)
    }

    @Test func aFreshResponseIsServedWithoutARequest() async throws {
        // RFC 9111 §4.2: /cache/60 says Cache-Control: public, max-age=60.
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let first = try await Self.fetch(session.request("\(base)/cache/60"))
        #expect(first.source == .network)
        let secondRequest = session.request("\(base)/cache/60")
        let second = await secondRequest.serializingData().response
        #expect(second.metrics?.responseSource == .cache && second.data == first.data)
        #expect(second.metrics?.connection == nil && second.metrics?.requestBytesSent == 0)
        // §5.1: a response from a cache carries Age.
        #expect(second.response?.headers.value(for: "Age") != nil)
        #expect(second.response?.url?.absoluteString == "\(base)/cache/60")
        await session.shutdown()
    }

    @Test func aStaleResponseIsValidatedAndA304ServesTheStoredBody() async throws {
        // RFC 9111 §4.3.1 and §4.3.4: /etag/{etag} has no freshness, so it is validated with
        // If-None-Match; httpbin answers 304 and the stored body is delivered as a 200.
        let base = try TestEnvironment.httpbin().base
        let cache = MemoryResponseCache()
        let session = Self.cachingSession(cache)
        let first = try await Self.fetch(session.request("\(base)/etag/abc"))
        #expect(first.source == .network && first.status == 200)
        let url = try #require(URL(string: "\(base)/etag/abc"))
        let storedBefore = try #require(cache.cachedResponses(for: url).first)
        let request = session.request("\(base)/etag/abc")
        let second = await request.serializingData().response
        #expect(second.metrics?.responseSource == .revalidatedCache)
        #expect(second.response?.statusCode == 200 && second.data == first.data)
        #expect(second.metrics?.connection != nil)
        // The request value the user sees carries no conditional field of the cache's.
        #expect(request.request?.headers.contains(name: "If-None-Match") == false)
        // §4.3.4: the 304 updated the stored response (its times restart; the body stays).
        let storedAfter = try #require(cache.cachedResponses(for: url).first)
        #expect(storedAfter.responseDate > storedBefore.responseDate && storedAfter.data == storedBefore.data)
        await session.shutdown()
    }

    @Test func lastModifiedValidation() async throws {
        // httpbin's /cache answers 304 to If-Modified-Since (or If-None-Match).
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let first = try await Self.fetch(session.request("\(base)/cache"))
        let second = try await Self.fetch(session.request("\(base)/cache"))
        #expect(first.source == .network && second.source == .revalidatedCache && second.data == first.data)
        await session.shutdown()
    }

    @Test func noStoreIsNeverStored() async throws {
        // §5.2.2.5.
        let base = try TestEnvironment.httpbin().base
        let cache = MemoryResponseCache()
        let session = Self.cachingSession(cache)
        let url = "\(base)/response-headers?Cache-Control=no-store"
        _ = try await Self.fetch(session.request(url))
        #expect(try await Self.fetch(session.request(url)).source == .network)
        #expect(cache.count == 0)
        await session.shutdown()
    }

    @Test func varyKeepsVariantsApart() async throws {
        // §4.1: the response varies on X-Variant; each value has its own stored response.
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let url = "\(base)/response-headers?Cache-Control=max-age%3D60&Vary=X-Variant"
        #expect(try await Self.fetch(session.request(url, headers: ["X-Variant": "a"])).source == .network)
        #expect(try await Self.fetch(session.request(url, headers: ["X-Variant": "b"])).source == .network)
        #expect(try await Self.fetch(session.request(url, headers: ["X-Variant": "a"])).source == .cache)
        #expect(try await Self.fetch(session.request(url, headers: ["X-Variant": "b"])).source == .cache)
        #expect(try await Self.fetch(session.request(url)).source == .network)
        await session.shutdown()
    }

    @Test func anUnsafeMethodInvalidatesItsURL() async throws {
        // §4.4: a non-error response to POST invalidates the target URI.
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let url = "\(base)/response-headers?Cache-Control=max-age%3D60"
        _ = try await Self.fetch(session.request(url))
        #expect(try await Self.fetch(session.request(url)).source == .cache)
        _ = try await Self.fetch(session.request(url, method: .post))
        #expect(try await Self.fetch(session.request(url)).source == .network)
        await session.shutdown()
    }

    @Test func onlyIfCachedWithNothingStoredIs504WithoutARequest() async throws {
        // §5.2.1.7.
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let request = session.request("\(base)/cache/60", headers: ["Cache-Control": "only-if-cached"])
        let response = await request.serializingData().response
        #expect(response.response?.statusCode == 504 && response.metrics?.responseSource == .cache)
        _ = try await Self.fetch(session.request("\(base)/cache/60"))
        let stored = session.request("\(base)/cache/60", headers: ["Cache-Control": "only-if-cached"])
        #expect(try await Self.fetch(stored).source == .cache)
        await session.shutdown()
    }

    @Test func requestNoCacheRevalidatesAFreshResponse() async throws {
        // §5.2.1.4: /cache/60 has no validator, so no-cache fetches it again.
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        _ = try await Self.fetch(session.request("\(base)/cache/60"))
        let again = session.request("\(base)/cache/60", headers: ["Cache-Control": "no-cache"])
        #expect(try await Self.fetch(again).source == .network)
        await session.shutdown()
    }

    @Test func cachePolicies() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Self.cachingSession()
        let url = "\(base)/etag/policy"
        // Nothing stored: returnCacheDataDontLoad answers 504 without a request.
        let dontLoad = session.request(url) { $0.cachePolicy = .returnCacheDataDontLoad }
        #expect(try await Self.fetch(dontLoad).status == 504)
        _ = try await Self.fetch(session.request(url))
        // Stored but stale (no freshness): returnCacheDataElseLoad uses it without validating.
        let elseLoad = session.request(url) { $0.cachePolicy = .returnCacheDataElseLoad }
        #expect(try await Self.fetch(elseLoad).source == .cache)
        // reloadIgnoringLocalCacheData goes to the network even though a 304 would do.
        let reload = session.request(url) { $0.cachePolicy = .reloadIgnoringLocalCacheData }
        let reloaded = try await Self.fetch(reload)
        #expect(reloaded.source == .network && reloaded.status == 200)
        await session.shutdown()
    }

    @Test func responseCacherAtTheRequestAndSessionLevels() async throws {
        let base = try TestEnvironment.httpbin().base
        let cache = MemoryResponseCache()
        // The session's cacher marks what it stores; a request's .doNotCache wins over it.
        let session = Self.cachingSession(
            cache,
            handler: ResponseCacher(behavior: .modify { _, response in
                var marked = response
                marked.headers.update(name: "X-Cached-By", value: "wick")
                return marked
            }))
        let refused = session.request("\(base)/cache/60").cacheResponse(using: .doNotCache)
        _ = try await Self.fetch(refused)
        #expect(cache.count == 0)
        _ = try await Self.fetch(session.request("\(base)/cache/60"))
        // The session's handler runs on its root queue: the store follows the response.
        for _ in 0..<200 where cache.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let hit = await session.request("\(base)/cache/60").serializingData().response
        #expect(hit.metrics?.responseSource == .cache && hit.response?.headers.value(for: "X-Cached-By") == "wick")
        await session.shutdown()
    }

    @Test func eventMonitorsHearCachedResponses() async throws {
        let base = try TestEnvironment.httpbin().base
        let heard = Shared<[ResponseSource]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidReceiveCachedResponse = { _, _, source in heard.withLock { $0.append(source) } }
        let session = Self.cachingSession(monitors: [monitor])
        _ = try await Self.fetch(session.request("\(base)/etag/monitor"))
        _ = try await Self.fetch(session.request("\(base)/etag/monitor"))
        _ = try await Self.fetch(session.request("\(base)/etag/monitor") { $0.cachePolicy = .returnCacheDataElseLoad })
        for _ in 0..<200 where heard.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(heard.withLock { $0 } == [.revalidatedCache, .cache])
        await session.shutdown()
    }

    @Test func withoutACacheNothingChanges() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        _ = try await Self.fetch(session.request("\(base)/cache/60"))
        #expect(try await Self.fetch(session.request("\(base)/cache/60")).source == .network)
        await session.shutdown()
    }
}

/// RFC 5861 §4 through a Session: a stale stored response with `stale-if-error` answers when
/// its validation cannot reach the server, or the server answers 503.
@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionStaleIfErrorTests {
    static func stale(_ url: String) -> CachedResponse {
        let old = Date().addingTimeInterval(-120)
        return CachedResponse(
            url: URL(string: url)!, statusCode: 200,
            headers: ["Cache-Control": "max-age=60, stale-if-error=600", "ETag": "\"old\"", "Content-Type": "text/plain"],
            data: Data("stored".utf8), requestDate: old, responseDate: old)
    }

    @Test func anUnreachableServer() async throws {
        let refusing = try RefusingPort()
        let url = "http://127.0.0.1:\(refusing.port)/gone"
        let cache = MemoryResponseCache()
        cache.store(Self.stale(url))
        let session = makeSession {
            $0.responseCache = cache
            $0.waitsForConnectivity = false
        }
        let response = await session.request(url).serializingString().response
        #expect(response.value == "stored" && response.metrics?.responseSource == .cache)
        await session.shutdown()
    }

    @Test func a503() async throws {
        let url = "\(try TestEnvironment.httpbin().base)/status/503"
        let cache = MemoryResponseCache()
        cache.store(Self.stale(url))
        let session = makeSession { $0.responseCache = cache }
        let response = await session.request(url).serializingString().response
        #expect(response.value == "stored" && response.response?.statusCode == 200)
        await session.shutdown()
    }
}
