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
