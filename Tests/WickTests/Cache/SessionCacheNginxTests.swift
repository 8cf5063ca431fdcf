// A Session's response cache against nginx: max-age hits, no-cache validated by nginx's 304s,
// over http and https.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionCacheNginxTests {
    @Test func maxAgeHitsOverHTTPAndHTTPS() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = TrustRoots.certificates([try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))])
        let session = makeSession {
            $0.responseCache = MemoryResponseCache()
            $0.trustRoots = roots
        }
        for base in [nginx.httpBase, nginx.httpsBase] {
            let first = await session.request("\(base)/max-age-60/1k").serializingData().response
            let second = await session.request("\(base)/max-age-60/1k").serializingData().response
            #expect(first.metrics?.responseSource == .network && second.metrics?.responseSource == .cache, "\(base)")
            #expect(second.data?.count == 1_024 && second.data == first.data, "\(base)")
        }
        await session.shutdown()
    }

    @Test func noCacheIsValidatedEveryTime() async throws {
        // RFC 9111 §5.2.2.4: nginx sends ETag and Last-Modified with the file and answers 304.
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.responseCache = MemoryResponseCache() }
        let first = await session.request("\(nginx.httpBase)/no-cache/64k").serializingData().response
        #expect(first.metrics?.responseSource == .network)
        for _ in 0..<3 {
            let again = await session.request("\(nginx.httpBase)/no-cache/64k").serializingData().response
            #expect(again.metrics?.responseSource == .revalidatedCache && again.data == first.data)
            // The 304 carried no body: only its head crossed the wire.
            #expect((again.metrics?.responseBytesReceived ?? .max) < 1_024)
        }
        await session.shutdown()
    }
}

/// RFC 9111 §4.3.5 and RFC 9110 §9.3.2 against nginx: a HEAD answered from a stored GET, a
/// HEAD's 200 freshening or invalidating it; and §3.3: range requests kept out of the cache.
@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionCacheHeadAndRangeNginxTests {
    @Test func aFreshStoredGETAnswersAHEADWithItsFieldsAndNoBody() async throws {
        let url = "\(try TestEnvironment.nginx().httpBase)/max-age-60/1k"
        let session = makeSession { $0.responseCache = MemoryResponseCache() }
        let get = await session.request(url).serializingData().response
        #expect(get.metrics?.responseSource == .network && get.data?.count == 1_024)
        let head = await session.request(url, method: .head).serializingData().response
        #expect(head.metrics?.responseSource == .cache && head.metrics?.connection == nil)
        #expect(head.response?.statusCode == 200 && (head.data ?? Data()).isEmpty)
        #expect(head.response?.headers.value(for: "Content-Length") == "1024")
        #expect(head.response?.headers.value(for: "ETag") == get.response?.headers.value(for: "ETag"))
        await session.shutdown()
    }

    @Test func aHEADsResponseFreshensTheStoredGETOrInvalidatesIt() async throws {
        // /no-cache/ must be validated, so the HEAD goes to nginx; its 200 carries the file's
        // ETag, Last-Modified and Content-Length, which match the stored GET: updated (§4.3.5).
        let url = "\(try TestEnvironment.nginx().httpBase)/no-cache/1k"
        let key = try #require(URL(string: url))
        let cache = MemoryResponseCache()
        let session = makeSession { $0.responseCache = cache }
        _ = await session.request(url).serializingData().response
        let before = try #require(cache.cachedResponses(for: key).first)
        let head = await session.request(url, method: .head).serializingData().response
        #expect(head.metrics?.responseSource == .network && head.response?.statusCode == 200)
        let after = try #require(cache.cachedResponses(for: key).first)
        #expect(after.responseDate > before.responseDate && after.data == before.data)
        // A stored GET whose ETag the HEAD contradicts is another representation: forgotten.
        var changed = after
        changed.headers.update(name: "ETag", value: "\"elsewhere\"")
        cache.store(changed)
        _ = await session.request(url, method: .head).serializingData().response
        #expect(cache.cachedResponses(for: key).isEmpty)
        await session.shutdown()
    }

    @Test func rangeRequestsNeitherReadNorFillTheCache() async throws {
        let url = "\(try TestEnvironment.nginx().httpBase)/max-age-60/1k"
        let key = try #require(URL(string: url))
        let cache = MemoryResponseCache()
        let session = makeSession { $0.responseCache = cache }
        let part = await session.request(url, headers: ["Range": "bytes=0-9"]).serializingData().response
        #expect(part.response?.statusCode == 206 && part.data?.count == 10)
        #expect(cache.cachedResponses(for: key).isEmpty)
        let whole = await session.request(url).serializingData().response
        #expect(whole.metrics?.responseSource == .network && whole.data?.count == 1_024)
        #expect(cache.cachedResponses(for: key).count == 1)
        // The stored 200 is not sliced: the range goes to nginx again.
        let again = await session.request(url, headers: ["Range": "bytes=10-19"]).serializingData().response
        #expect(again.metrics?.responseSource == .network && again.response?.statusCode == 206)
        #expect(again.data == whole.data.map { $0[10..<20] })
        await session.shutdown()
    }
}
