// A stalled file writer stops the socket reads at the high-water mark, and reading resumes after.
import Foundation
import Testing
import WickReactor
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct DownloadBackpressureTests {
    @Test func aStalledWriterPausesReadingAtTheHighWaterMarkThenTheFileCompletes() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let request = session.download("\(nginx.httpBase)/bytes/10m", to: { _, _ in (scratch.file("10m"), []) })
        let stall = DispatchSemaphore(value: 0)
        request.sink.writerQueue.async { stall.wait() }
        let task = request.serializingDownloadedFileURL()
        let outstanding = { request.sink.state.withLock { ($0.outstandingBytes, $0.isPaused) } }
        #expect(try await waitUntil { outstanding().1 })
        let paused = outstanding().0
        try await Task.sleep(for: .milliseconds(200))
        let later = outstanding()
        // One read buffer may land after the mark; then nothing more is read.
        let oneRead = EventLoopGroup.Configuration().readBufferSize
        #expect(paused >= DownloadSink.highWaterMark && paused <= DownloadSink.highWaterMark + oneRead)
        #expect(later.0 == paused && later.1)
        stall.signal()
        #expect(try Data(contentsOf: try await task.value) == DownloadPayload.tenMiB)
        #expect(request.sink.state.withLock { $0.outstandingBytes } == 0)
        await session.shutdown()
    }
}
