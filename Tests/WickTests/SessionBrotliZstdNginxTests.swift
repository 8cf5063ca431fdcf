// Session's br and zstd decoding against nginx serving precompressed files (Debian's nginx has no
// brotli or zstd module; NginxServer labels the files with add_header): whole bodies over HTTP and
// HTTPS, a truncated body, and a bomb.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionBrotliZstdNginxTests {
    @Test(arguments: [("br", "br"), ("zstd", "zstd")])
    func aPrecompressedBodyArrivesDecoded(folder: String, coding: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        for base in [nginx.httpBase, "https://127.0.0.1:\(nginx.httpsPort)"] {
            let response = await session.request("\(base)/\(folder)/1m.txt").serializingData().response
            #expect(response.value == Data(TestPayload.text(count: 1 << 20)), "\(base)")
            #expect(response.response?.headers.value(for: "Content-Encoding") == coding)
            let wire = try #require(response.metrics)
            #expect(wire.responseBodyBytes == 1 << 20)
            #expect(wire.responseBytesReceived < 1 << 19, "the wire carried the compressed body")
        }
        await session.shutdown()
    }

    @Test(arguments: ["br", "zstd"])
    func aTruncatedBodyIsATruncatedDecodingFailure(coding: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let result = await session.request("\(nginx.httpBase)/\(coding)/truncated.txt").serializingData().result
        guard case .failure(.sessionTaskFailed(.contentDecodingFailed(let failure))) = result else {
            Issue.record("expected contentDecodingFailed, got \(result)")
            return
        }
        #expect(failure.kind == .truncated)
        #expect(failure.coding == coding)
        await session.shutdown()
    }

    /// 64 MiB of zeros: the decoder's 100:1 ratio stops it after about 1 MiB, below the session's
    /// 64 MiB body limit, so the ratio is what refuses it.
    @Test(arguments: ["br", "zstd"])
    func aBombIsRefusedByTheExpansionRatio(coding: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let result = await session.request("\(nginx.httpBase)/\(coding)/bomb.txt").serializingData().result
        guard case .failure(.sessionTaskFailed(.contentDecodingFailed(let failure))) = result else {
            Issue.record("expected contentDecodingFailed, got \(result)")
            return
        }
        #expect(failure.kind == .expansionRatioExceeded)
        await session.shutdown()
    }
}
