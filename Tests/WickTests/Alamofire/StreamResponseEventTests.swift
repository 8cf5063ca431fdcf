// A data stream's onHTTPResponse (with ResponseDisposition), downloadProgress and
// httpResponses(), written as Alamofire's documentation shows them, against httpbin and nginx.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct StreamResponseEventTests {
    /// Alamofire: `AF.streamRequest(url).onHTTPResponse { response in ... }.responseStream { stream in ... }`;
    /// the head comes before any chunk.
    @Test func theHeadComesBeforeAnyChunk() async throws {
        let base = try TestEnvironment.httpbin().base
        let events = Shared<[String]>([])
        let queue = DispatchQueue(label: "stream-events")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            AF.streamRequest("\(base)/stream/3")
                .onHTTPResponse(on: queue) { response in events.withLock { $0.append("head \(response.statusCode)") } }
                .responseStream(on: queue) { stream in
                    switch stream.event {
                    case .stream: events.withLock { if $0.last != "chunk" { $0.append("chunk") } }
                    case .complete: continuation.resume()
                    }
                }
        }
        #expect(events.withLock { $0 } == ["head 200", "chunk"])
    }

    /// `.cancel` ends the stream before any chunk reaches a reader.
    @Test func aCancelDispositionEndsTheStreamUnread() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        var chunks = 0
        let request = session.streamRequest("\(base)/stream/5")
            .onHTTPResponse { _, completionHandler in completionHandler(.cancel) }
        do {
            for try await _ in request.streamingData() { chunks += 1 }
            Issue.record("the stream was not cancelled")
        } catch {
            #expect((error as? WickError)?.isExplicitlyCancelledError == true)
        }
        #expect(chunks == 0)
        await session.shutdown()
    }

    /// `.allow` after a while: the held body then reaches the reader whole.
    @Test func anAllowDispositionReleasesTheBody() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        var received = 0
        let request = session.streamRequest("\(base)/bytes/2048")
            .onHTTPResponse(on: .global()) { _, completionHandler in
                Thread.sleep(forTimeInterval: 0.2)
                completionHandler(.allow)
            }
        for try await chunk in request.streamingData() { received += chunk.count }
        #expect(received == 2048)
        await session.shutdown()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct StreamProgressTests {
    /// Alamofire: `for await progress in streamRequest.downloadProgress() { ... }`, and
    /// `httpResponses()`.
    @Test func progressAndHeadsAreSequences() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/1m")
        let progress = request.downloadProgress()
        let heads = request.httpResponses()
        var received = 0
        for try await chunk in request.streamingData() { received += chunk.count }
        #expect(received == 1 << 20)
        var last: TransferProgress?
        for await report in progress { last = report }
        #expect(last == TransferProgress(completedBytes: 1 << 20, totalBytes: 1 << 20))
        var statuses: [Int] = []
        for await head in heads { statuses.append(head.statusCode) }
        #expect(statuses == [200])
        await session.shutdown()
    }
}
