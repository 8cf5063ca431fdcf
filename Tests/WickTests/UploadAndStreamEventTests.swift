// The upload and stream events of EventMonitor: the uploadable made (or not), body bytes sent,
// and each element a stream handler got.
import Foundation
import Testing
import Wick
import WickTestSupport

struct UploadAndStreamEventTests {
    static let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)

    @Test func anUploadReportsItsUploadableAndEveryByteSent() async throws {
        let server = try FaultServer { _ in [.readRequest, .send(Self.ok), .close] }
        defer { server.stop() }
        let created = Shared<[String]>([])
        let sent = Shared<[(Int64, Int64, Int64?)]>([])
        let monitor = ClosureEventMonitor()
        monitor.uploadDidCreateUploadable = { _, uploadable in
            if case .data(let data) = uploadable { created.withLock { $0.append("data \(data.count)") } }
        }
        monitor.uploadDidSendBodyData = { _, bytes, total, expected in sent.withLock { $0.append((bytes, total, expected)) } }
        let session = Session(eventMonitors: [monitor])
        let body = Data(repeating: 7, count: 300_000)
        let response = await session.upload(body, to: "http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data("ok".utf8))
        #expect(try await waitUntil { sent.withLock { $0.last?.1 } == 300_000 })
        #expect(created.withLock { $0 } == ["data 300000"])
        let reports = sent.withLock { $0 }
        #expect(reports.map(\.0).reduce(0, +) == 300_000)
        #expect(reports.allSatisfy { $0.2 == 300_000 })
        await session.shutdown()
    }

    @Test func anUploadWhoseFileIsMissingReportsTheFailure() async throws {
        let failures = Shared<[WickError]>([])
        let monitor = ClosureEventMonitor()
        monitor.uploadDidFailToCreateUploadableWithError = { _, error in failures.withLock { $0.append(error) } }
        let session = Session(eventMonitors: [monitor])
        let missing = URL(fileURLWithPath: "/nonexistent/wick-\(UUID().uuidString)")
        let result = await session.upload(missing, to: "http://127.0.0.1:1/").serializingData().result
        guard case .failure(.sessionTaskFailed(.requestBodyFailed)) = result else {
            Issue.record("expected the body to fail, got \(result)")
            return
        }
        #expect(try await waitUntil { failures.withLock { $0.count } == 1 })
        await session.shutdown()
    }

    @Test func streamHandlersReportEachElement() async throws {
        let body = Array("one two".utf8)
        let server = try FaultServer(
            steps: piecewise(head: "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n", body: body, cuts: [4]))
        defer { server.stop() }
        let parsed = Shared<[String]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidParseStream = { _, result in
            if case .success(let text as String) = result { parsed.withLock { $0.append(text) } }
        }
        let session = Session(eventMonitors: [monitor])
        let recorder = StreamRecorder<String, Never>()
        session.streamRequest("http://127.0.0.1:\(server.port)/").responseStreamString(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().joined() == "one two")
        #expect(try await waitUntil { parsed.withLock { $0.joined() } == "one two" })
        await session.shutdown()
    }
}
