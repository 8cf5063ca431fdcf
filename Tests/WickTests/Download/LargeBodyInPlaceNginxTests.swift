// A 10 MiB body whose reads land in the consumer's own memory (a collected body's spare
// capacity, a stream's or download's next chunk), over plain HTTP and TLS, byte for byte.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct LargeBodyInPlaceNginxTests {
    /// The two ways to nginx: plain HTTP (the channel reads into the consumer's memory) and TLS
    /// (the engine decrypts into it).
    static let schemes = ["http", "https"]

    private func session(_ nginx: TestEnvironment.Nginx) throws -> Session {
        let roots = try SessionNginxTests.testRoots(nginx)
        return makeSession {
            $0.tls.trustRoots = roots
            $0.maximumResponseBodyBytes = 16 << 20
        }
    }

    private func url(_ nginx: TestEnvironment.Nginx, _ scheme: String) -> String {
        (scheme == "https" ? nginx.httpsBase : nginx.httpBase) + "/bytes/10m"
    }

    @Test(arguments: schemes) func aCollectedBodyIsWhole(scheme: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try session(nginx)
        for _ in 0..<2 {
            let data = try await session.request(url(nginx, scheme)).validate().serializingData().value
            #expect(data == DownloadPayload.tenMiB)
        }
        await session.shutdown()
    }

    @Test(arguments: schemes) func aStreamedBodyIsWholeAndInOrder(scheme: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try session(nginx)
        var received = Data()
        var largestChunk = 0
        for try await chunk in session.streamRequest(url(nginx, scheme)).streamingData() {
            received.append(chunk)
            largestChunk = max(largestChunk, chunk.count)
        }
        #expect(received == DownloadPayload.tenMiB)
        // A chunk is at most one lent read (256 KiB) or one read of the loop's buffer.
        #expect(largestChunk <= 256 * 1024)
        await session.shutdown()
    }

    @Test(arguments: schemes) func aDownloadedFileIsWhole(scheme: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = try session(nginx)
        let target = scratch.file("10m")
        let url = try await session.download(url(nginx, scheme), to: { _, _ in (target, []) })
            .serializingDownloadedFileURL().value
        #expect(try Data(contentsOf: url) == DownloadPayload.tenMiB)
        await session.shutdown()
    }
}
