// onHTTPResponse (with ResponseDisposition), downloadProgress on data requests, and the
// httpResponses(), downloadProgress() and uploadProgress() sequences, written as Alamofire's
// documentation shows them, against httpbin and nginx.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct ResponseEventHTTPBinTests {
    /// Alamofire: `AF.request(url).onHTTPResponse { response in print(response) }.responseDecodable...`;
    /// the head comes before the response handler, and a redirect followed is not shown.
    @Test func onHTTPResponseSeesTheFinalHeadBeforeTheResponse() async throws {
        let base = try TestEnvironment.httpbin().base
        let events = Shared<[String]>([])
        let response = await withCheckedContinuation { continuation in
            AF.request("\(base)/redirect-to?url=/get&status_code=302")
                .onHTTPResponse { response in events.withLock { $0.append("head \(response.statusCode)") } }
                .responseData { response in
                    events.withLock { $0.append("response") }
                    continuation.resume(returning: response)
                }
        }
        #expect(response.response?.statusCode == 200)
        #expect(events.withLock { $0 } == ["head 200", "response"])
    }

    /// Alamofire 5.7: `onHTTPResponse { response, completionHandler in completionHandler(.cancel) }`
    /// cancels the request.
    @Test func aCancelDispositionCancelsTheRequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let seen = Shared<Int?>(nil)
        let response = await AF.request("\(base)/drip?duration=3&numbytes=30&delay=0")
            .onHTTPResponse { response, completionHandler in
                seen.withLock { $0 = response.statusCode }
                completionHandler(.cancel)
            }
            .serializingData().response
        #expect(seen.withLock { $0 } == 200)
        #expect(response.error?.isExplicitlyCancelledError == true)
    }

    /// A handler that takes its time to allow: the body waits for it and then arrives whole.
    @Test func anAllowDispositionLetsTheWholeBodyIn() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request("\(base)/bytes/4096?seed=7")
            .onHTTPResponse(on: .global()) { response, completionHandler in
                Thread.sleep(forTimeInterval: 0.2)
                completionHandler(response.statusCode == 200 ? .allow : .cancel)
            }
            .serializingData().value
        #expect(data.count == 4096)
        await session.shutdown()
    }

    /// Alamofire: `for await response in request.httpResponses() { ... }`.
    @Test func httpResponsesYieldsEachFinalHeadAndEnds() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/status/201")
        let heads = request.httpResponses()
        let value = await request.serializingData(emptyResponseCodes: [201]).result
        #expect(throws: Never.self) { try value.get() }
        var statuses: [Int] = []
        for await response in heads { statuses.append(response.statusCode) }
        #expect(statuses == [201])
        await session.shutdown()
    }

    /// Alamofire: `for await request in request.urlRequests() { ... }`: one per request sent.
    @Test func urlRequestsYieldsEveryRequestSent() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let request = session.request("\(base)/redirect/2")
        let sent = request.urlRequests()
        _ = try await request.serializingData().value
        var paths: [String] = []
        for await request in sent { paths.append(request.url.path) }
        #expect(paths == ["/redirect/2", "/relative-redirect/1", "/get"])
        await session.shutdown()
    }

    /// Alamofire: `for await progress in upload.uploadProgress() { ... }`.
    @Test func uploadProgressIsASequenceToo() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let upload = session.upload(Data(repeating: 0x61, count: 100_000), to: "\(base)/post")
        let progress = upload.uploadProgress()
        _ = try await upload.serializingData().value
        var last: TransferProgress?
        for await report in progress { last = report }
        #expect(last == TransferProgress(completedBytes: 100_000, totalBytes: 100_000))
        await session.shutdown()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct ResponseEventNginxTests {
    /// Alamofire: `AF.request(url).downloadProgress { progress in print(progress.fractionCompleted) }`.
    @Test func downloadProgressOnADataRequestClimbsToTheLength() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let reports = Shared<[TransferProgress]>([])
        let data = try await session.request("\(nginx.httpBase)/bytes/1m")
            .downloadProgress { progress in reports.withLock { $0.append(progress) } }
            .serializingData().value
        #expect(data.count == 1 << 20)
        #expect(try await waitUntil { reports.withLock { $0.last?.completedBytes } == 1 << 20 })
        let seen = reports.withLock { $0 }
        #expect(seen.allSatisfy { $0.totalBytes == 1 << 20 })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        #expect(seen.last?.isFinished == true)
        await session.shutdown()
    }

    /// Alamofire: `for await progress in request.downloadProgress() { ... }`, for data requests
    /// and downloads.
    @Test func downloadProgressSequencesEndWithTheRequest() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let request = session.request("\(nginx.httpBase)/bytes/64k")
        let progress = request.downloadProgress()
        _ = try await request.serializingData().value
        var last: TransferProgress?
        for await report in progress { last = report }
        #expect(last?.completedBytes == 65_536)

        let download = session.download("\(nginx.httpBase)/bytes/64k", to: { _, _ in (scratch.file("64k"), []) })
        let downloaded = download.downloadProgress()
        _ = try await download.serializingDownloadedFileURL().value
        var lastDownloaded: TransferProgress?
        for await report in downloaded { lastDownloaded = report }
        #expect(lastDownloaded == TransferProgress(completedBytes: 65_536, totalBytes: 65_536))
        await session.shutdown()
    }

    /// Making a sequence does not start the request (Alamofire's streams do not either).
    @Test func makingASequenceDoesNotStartTheRequest() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let request = session.request("\(nginx.httpBase)/bytes/1k")
        _ = request.httpResponses()
        _ = request.downloadProgress()
        #expect(request.state == .initialized)
        request.cancel()
        await session.shutdown()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct AsyncOnHTTPResponseTests {
    /// Alamofire's async forms: `onHTTPResponse { response async -> ResponseDisposition in ... }`
    /// and `onHTTPResponse { response async in ... }`.
    @Test func asyncHandlersDecideAndWatch() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let refused = await session.request("\(base)/status/418")
            .onHTTPResponse { response async -> ResponseDisposition in
                try? await Task.sleep(for: .milliseconds(50))
                return response.statusCode == 418 ? .cancel : .allow
            }
            .serializingData().result
        #expect(refused.failureValue?.isExplicitlyCancelledError == true)
        let seen = Shared<Int?>(nil)
        let data = try await session.request("\(base)/bytes/100")
            .onHTTPResponse { response async in seen.withLock { $0 = response.statusCode } }
            .serializingData().value
        #expect(data.count == 100)
        #expect(seen.withLock { $0 } == 200)
        await session.shutdown()
    }
}
