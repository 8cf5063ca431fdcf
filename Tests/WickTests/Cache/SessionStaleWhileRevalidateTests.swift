// RFC 5861 §3 through a Session (Configuration.staleWhileRevalidate): a stale response within its
// window answers at once and one background request refreshes it; its failure reaches only the
// event monitors; at most one is in flight per stored response; off by default.
import Foundation
import Testing
@testable import Wick
import WickTestSupport

/// What the event monitors heard of background revalidations.
final class BackgroundRevalidations: Sendable {
    let heard = Shared<[Result<TransactionMetrics, WickError>]>([])
    let monitor = ClosureEventMonitor()

    init() {
        monitor.requestDidRevalidateInBackground = { [heard] _, result in heard.withLock { $0.append(result) } }
    }

    var count: Int { heard.withLock { $0.count } }
    var first: Result<TransactionMetrics, WickError>? { heard.withLock { $0.first } }
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionStaleWhileRevalidateTests {
    /// A response stored two minutes ago for `url`: fresh for 60 s, then usable stale for
    /// 600 s while revalidated; its ETag is `swr`, as httpbin's `/etag/swr` spells it (unquoted,
    /// also in its 304s).
    static func stale(_ url: String) -> CachedResponse {
        let old = Date().addingTimeInterval(-120)
        return CachedResponse(
            url: URL(string: url)!, statusCode: 200,
            headers: ["Cache-Control": "max-age=60, stale-while-revalidate=600", "ETag": "swr", "Content-Type": "text/plain"],
            data: Data("stored".utf8), requestDate: old, responseDate: old)
    }

    static func session(
        _ cache: MemoryResponseCache, _ revalidations: BackgroundRevalidations, enabled: Bool = true,
        _ configure: (inout Session.Configuration) -> Void = { _ in }
    ) -> Session {
        var configuration = Session.Configuration()
        configuration.responseCache = cache
        configuration.staleWhileRevalidate = enabled
        configure(&configuration)
        return Session(configuration: configuration, eventMonitors: [revalidations.monitor])
    }

    @Test func aStaleResponseIsServedAtOnceAndRefreshedInTheBackground() async throws {
        let url = "\(try TestEnvironment.httpbin().base)/etag/swr"
        let cache = MemoryResponseCache()
        cache.store(Self.stale(url))
        let revalidations = BackgroundRevalidations()
        let session = Self.session(cache, revalidations)
        let served = await session.request(url).serializingString().response
        #expect(served.value == "stored" && served.response?.statusCode == 200)
        #expect(served.metrics?.responseSource == .staleWhileRevalidating && served.metrics?.connection == nil)
        // The stale response says how old it is (RFC 9111 §5.1).
        #expect(Int(served.response?.headers.value(for: "Age") ?? "") ?? 0 >= 120)
        // httpbin answers the background If-None-Match with a 304, which refreshes the entry.
        #expect(try await waitUntil { revalidations.count == 1 })
        guard case .success(let metrics) = revalidations.first else {
            Issue.record("the background revalidation failed: \(String(describing: revalidations.first))")
            return
        }
        #expect(metrics.responseSource == .revalidatedCache && metrics.statusCode == 200 && metrics.connection != nil)
        let refreshed = try #require(cache.cachedResponses(for: URL(string: url)!).first)
        #expect(refreshed.responseDate > Date().addingTimeInterval(-60) && refreshed.data == Data("stored".utf8))
        // Fresh again: the next request is a plain cache hit, and no second revalidation starts.
        let next = await session.request(url).serializingString().response
        #expect(next.metrics?.responseSource == .cache && next.value == "stored")
        await session.shutdown()
        #expect(revalidations.count == 1)
    }

    @Test func offByDefaultTheStaleResponseIsValidatedFirst() async throws {
        #expect(Session.Configuration().staleWhileRevalidate == false)
        let url = "\(try TestEnvironment.httpbin().base)/etag/swr"
        let cache = MemoryResponseCache()
        cache.store(Self.stale(url))
        let revalidations = BackgroundRevalidations()
        let session = Self.session(cache, revalidations, enabled: false)
        let served = await session.request(url).serializingString().response
        #expect(served.metrics?.responseSource == .revalidatedCache && served.value == "stored")
        await session.shutdown()
        #expect(revalidations.count == 0)
    }

    @Test func aFailedRevalidationIsSwallowedButHeard() async throws {
        let refusing = try RefusingPort()
        let url = "http://127.0.0.1:\(refusing.port)/gone"
        let cache = MemoryResponseCache()
        cache.store(Self.stale(url))
        let revalidations = BackgroundRevalidations()
        let session = Self.session(cache, revalidations) { $0.waitsForConnectivity = false }
        let served = await session.request(url).serializingString().response
        #expect(served.error == nil && served.value == "stored")
        #expect(try await waitUntil { revalidations.count == 1 })
        guard case .failure = revalidations.first else {
            Issue.record("a refused connection must fail the background request")
            return
        }
        // The entry is as it was, and the next request is served stale again, with a new attempt.
        let kept = try #require(cache.cachedResponses(for: URL(string: url)!).first)
        #expect(kept.headers.value(for: "ETag") == "swr" && kept.responseDate < Date().addingTimeInterval(-100))
        let again = await session.request(url).serializingString().response
        #expect(again.metrics?.responseSource == .staleWhileRevalidating && again.value == "stored")
        #expect(try await waitUntil { revalidations.count == 2 })
        await session.shutdown()
    }
}

/// The one-in-flight rule, with a background request that never gets its connection: it ends
/// at its request's deadline (1 s), so this suite waits on real time and runs with the timing
/// suites (Scripts/test).
struct SessionStaleWhileRevalidateTimingTests {
    @Test func oneRevalidationInFlightPerStoredResponse() async throws {
        // The listener never completes a connect, so the first background request stays in
        // flight while three more requests are served stale, then fails at its deadline.
        let stalled = try StalledListener()
        let url = "http://127.0.0.1:\(stalled.port)/slow"
        let cache = MemoryResponseCache()
        cache.store(SessionStaleWhileRevalidateTests.stale(url))
        let revalidations = BackgroundRevalidations()
        let session = SessionStaleWhileRevalidateTests.session(cache, revalidations)
        for _ in 0..<4 {
            let served = await session.request(url) { $0.timeout = .seconds(1) }.serializingString().response
            #expect(served.metrics?.responseSource == .staleWhileRevalidating && served.value == "stored")
        }
        #expect(session.revalidationsInFlight.withLock { $0.count } == 1)
        #expect(revalidations.count == 0)
        // The deadline ends it: a failure nobody awaited, heard by the monitor, and the gate reopens.
        #expect(try await waitUntil { revalidations.count == 1 })
        guard case .failure = revalidations.first else {
            Issue.record("a connect that never completes must fail the background request")
            return
        }
        #expect(session.revalidationsInFlight.withLock { $0.count } == 0)
        await session.shutdown()
        #expect(revalidations.count == 1)
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionStaleWhileRevalidateNginxTests {
    @Test func nginxsResponsesAreServedStaleAndRevalidatedWithA304() async throws {
        // /stale-while-revalidate/ says max-age=0, stale-while-revalidate=600: stale at once.
        let url = "\(try TestEnvironment.nginx().httpBase)/stale-while-revalidate/64k"
        let revalidations = BackgroundRevalidations()
        let session = SessionStaleWhileRevalidateTests.session(MemoryResponseCache(), revalidations)
        let first = await session.request(url).serializingData().response
        #expect(first.metrics?.responseSource == .network && first.data?.count == 65_536)
        for round in 1...2 {
            let served = await session.request(url).serializingData().response
            #expect(served.metrics?.responseSource == .staleWhileRevalidating && served.data == first.data)
            #expect(try await waitUntil { revalidations.count == round })
            guard case .success(let metrics) = revalidations.heard.withLock({ $0.last }) else {
                Issue.record("round \(round): the background revalidation failed")
                return
            }
            // A 304: only a head crossed the wire.
            #expect(metrics.responseSource == .revalidatedCache && metrics.responseBytesReceived < 1_024)
        }
        await session.shutdown()
    }
}
