// EventMonitor.receivesEventsInline: events handed over at once on the producing thread, in the
// documented order, done before the request's awaiting task resumes; queued monitors beside it
// still get theirs on their queue.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite struct InlineEventMonitorTests {
    /// Records event names; inline or on its own queue.
    final class Recorder: EventMonitor {
        let events = Shared<[String]>([])
        let receivesEventsInline: Bool
        let queue = DispatchQueue(label: "InlineEventMonitorTests.recorder")
        /// Set when an event ran on `queue`.
        let sawQueue = Shared(false)

        private let onQueue = DispatchSpecificKey<Bool>()

        init(inline: Bool) {
            receivesEventsInline = inline
            queue.setSpecific(key: onQueue, value: true)
        }

        private func record(_ name: String) {
            if DispatchQueue.getSpecific(key: onQueue) == true { sawQueue.withLock { $0 = true } }
            events.withLock { $0.append(name) }
        }

        func requestDidResume(_ request: Request) { record("resumed") }
        func request(_ request: Request, willSend sent: HTTPRequest) { record("send") }
        func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
            record("response \(response.statusCode)")
        }
        func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) { record("metrics") }
        func requestDidFinish(_ request: Request) { record("finished") }
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func inlineEventsAreAllInBeforeTheResponseIsAwaitedAndQueuedOnesStayOnTheirQueue() async throws {
        let nginx = try TestEnvironment.nginx()
        let inline = Recorder(inline: true)
        let queued = Recorder(inline: false)
        let session = Session(eventMonitors: [inline, queued])
        defer { Task { await session.shutdown() } }
        for _ in 0..<3 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
            #expect(response.value?.count == 1024)
            // No queue to drain: the inline monitor's events were handed over before the
            // awaiting task resumed, the last one included.
            #expect(inline.events.withLock { $0.last } == "finished")
        }
        let expected = ["resumed", "send", "response 200", "metrics", "finished"]
        #expect(inline.events.withLock { $0 } == expected + expected + expected)
        #expect(inline.sawQueue.withLock { $0 } == false)
        queued.queue.sync {}
        #expect(queued.events.withLock { $0 } == expected + expected + expected)
        #expect(queued.sawQueue.withLock { $0 })
    }

    /// Logs "NAME event" into a log shared with other monitors; a class.
    final class NamedRecorder: EventMonitor {
        let name: String
        let log: Shared<[String]>
        let receivesEventsInline = true
        init(_ name: String, log: Shared<[String]>) {
            self.name = name
            self.log = log
        }
        func requestDidResume(_ request: Request) { log.withLock { $0.append("\(name) resumed") } }
        func requestDidFinish(_ request: Request) { log.withLock { $0.append("\(name) finished") } }
    }

    /// The same as a value type, which the session cannot call through a class existential.
    struct ValueRecorder: EventMonitor {
        let name: String
        let log: Shared<[String]>
        var receivesEventsInline: Bool { true }
        func requestDidResume(_ request: Request) { log.withLock { $0.append("\(name) resumed") } }
        func requestDidFinish(_ request: Request) { log.withLock { $0.append("\(name) finished") } }
    }

    @Test(
        .enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"),
        arguments: [false, true])
    func inlineMonitorsOfEitherKindGetEachEventInTheSessionsOrder(withAValueMonitor: Bool) async throws {
        let nginx = try TestEnvironment.nginx()
        let log = Shared<[String]>([])
        let middle: any EventMonitor = withAValueMonitor ? ValueRecorder(name: "b", log: log) : NamedRecorder("b", log: log)
        let session = Session(eventMonitors: [NamedRecorder("a", log: log), middle, NamedRecorder("c", log: log)])
        defer { Task { await session.shutdown() } }
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.value?.count == 1024)
        #expect(
            log.withLock { $0 } == ["a resumed", "b resumed", "c resumed", "a finished", "b finished", "c finished"])
    }
}
