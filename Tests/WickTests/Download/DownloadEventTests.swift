// A download's events: the transfer's end with its temporary file, the move to the destination,
// and the parsed response, in order; a failed transfer reports its error and no destination.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

extension WickError {
    /// Whether the transport failed (`sessionTaskFailed`).
    fileprivate var isSessionTaskFailure: Bool {
        if case .sessionTaskFailed = self { true } else { false }
    }
}

struct DownloadEventTests {
    /// A monitor recording download events (and the request's finish) by name.
    private static func recording(_ events: Shared<[String]>) -> ClosureEventMonitor {
        let monitor = ClosureEventMonitor()
        @Sendable func record(_ name: String) { events.withLock { $0.append(name) } }
        monitor.downloadDidFinishDownloading = { request, result in
            switch result {
            case .success(let url): record(url == request.temporaryURL ? "downloaded to temporary" : "downloaded to ?")
            case .failure(let error): record("download failed \(error.isSessionTaskFailure)")
            }
        }
        monitor.downloadDidCreateDestinationURL = { _, url in record("moved to \(url.lastPathComponent)") }
        monitor.requestDidFinish = { _ in record("finished") }
        monitor.downloadDidParseResponse = { _, response in record("parsed \(response.value is URL?)") }
        return monitor
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func aDownloadReportsItsFileThenItsDestinationThenItsResponse() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let events = Shared<[String]>([])
        let monitor = Self.recording(events)
        let session = Session(eventMonitors: [monitor])
        let response = await session.download("\(nginx.httpBase)/bytes/1m", to: { _, _ in (scratch.file("one"), []) })
            .awaitResponse()
        #expect(response.fileURL == scratch.file("one"))
        monitor.queue.sync {}
        #expect(events.withLock { $0 } == ["downloaded to temporary", "moved to one", "finished", "parsed true"])

        // Awaited instead of handled: the parsed response is reported all the same.
        events.withLock { $0 = [] }
        _ = try await session.download("\(nginx.httpBase)/bytes/1k").serializingDownloadedFileURL().value
        monitor.queue.sync {}
        #expect(events.withLock { $0 } == ["downloaded to temporary", "finished", "parsed true"])
        await session.shutdown()
    }

    @Test func aTransferCutShortReportsItsFailureAndNoDestination() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial".utf8)), .reset,
        ])
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let events = Shared<[String]>([])
        let monitor = Self.recording(events)
        let session = Session(eventMonitors: [monitor])
        let response = await session.download(
            "http://127.0.0.1:\(server.port)/file", to: { _, _ in (scratch.file("never"), []) }
        ).awaitResponse()
        #expect(response.error != nil && response.fileURL == nil)
        monitor.queue.sync {}
        #expect(events.withLock { $0 } == ["download failed true", "finished", "parsed true"])
        await session.shutdown()
    }
}
