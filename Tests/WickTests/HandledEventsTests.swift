// EventMonitor.handledEvents: a monitor is sent the events it names and no others, inline or
// queued, and a monitor that names none of an event's kind does not stop another getting it.
import Dispatch
import Testing
import Wick
import WickTestSupport

@Suite struct HandledEventsTests {
    /// Records the name of every event it implements that reaches it, and handles `handled`.
    final class Recorder: EventMonitor {
        let log = Shared<[String]>([])
        let handledEvents: EventMonitorEvents
        let receivesEventsInline: Bool
        let queue = DispatchQueue(label: "HandledEventsTests.recorder")

        init(_ handled: EventMonitorEvents, inline: Bool) {
            handledEvents = handled
            receivesEventsInline = inline
        }

        private func record(_ name: String) { log.withLock { $0.append(name) } }

        func requestDidResume(_ request: Request) { record("resumed") }
        func request(_ request: Request, willSend sent: HTTPRequest) { record("send") }
        func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) { record("connection") }
        func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
            record("response")
        }
        func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) { record("metrics") }
        func requestDidFinish(_ request: Request) { record("finished") }
        func request<Value: Sendable>(_ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>)
        {
            record("parsed")
        }
    }

    @Test(
        .enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"),
        arguments: [true, false])
    func eachMonitorGetsTheEventsItNamesAndNoOthers(inline: Bool) async throws {
        let nginx = try TestEnvironment.nginx()
        let everything = Recorder(.all, inline: inline)
        let finishOnly = Recorder(.didFinish, inline: inline)
        let metricsAndConnection = Recorder([.didGatherMetrics, .didAcquireConnection], inline: inline)
        let nothing = Recorder([], inline: inline)
        let monitors = [everything, finishOnly, metricsAndConnection, nothing]
        let session = Session(eventMonitors: monitors)
        defer { Task { await session.shutdown() } }
        #expect(session.eventMonitor.handledEvents == .all)

        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.value?.count == 1024)
        for monitor in monitors { monitor.queue.sync {} }
        #expect(
            everything.log.withLock { $0 }
                == ["resumed", "send", "connection", "response", "metrics", "finished", "parsed"])
        #expect(finishOnly.log.withLock { $0 } == ["finished"])
        #expect(metricsAndConnection.log.withLock { $0 } == ["connection", "metrics"])
        #expect(nothing.log.withLock { $0 }.isEmpty)
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func aSessionsEventsAreTheUnionOfItsMonitors() async throws {
        let nginx = try TestEnvironment.nginx()
        let finishOnly = Recorder(.didFinish, inline: true)
        let queuedMetrics = Recorder(.didGatherMetrics, inline: false)
        let session = Session(eventMonitors: [finishOnly, queuedMetrics])
        defer { Task { await session.shutdown() } }
        #expect(session.eventMonitor.handledEvents == [.didFinish, .didGatherMetrics])

        // Twice: the second exchange reuses the connection, whose callback nobody asked for.
        for _ in 0..<2 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
            #expect(response.value?.count == 1024)
        }
        queuedMetrics.queue.sync {}
        #expect(finishOnly.log.withLock { $0 } == ["finished", "finished"])
        #expect(queuedMetrics.log.withLock { $0 } == ["metrics", "metrics"])
    }
}
