// LoggingEventMonitor: the lines each level writes for a request, a failure, and a redirect.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite struct LoggingEventMonitorTests {
    /// A monitor at `level` whose lines go to `lines`, on its own queue.
    static func monitor(_ level: LoggingEventMonitor.Level, _ lines: Shared<[String]>) -> LoggingEventMonitor {
        LoggingEventMonitor(level: level, queue: DispatchQueue(label: "test.logging")) { line in
            lines.withLock { $0.append(line) }
        }
    }

    @Test func theLevelsAreOrderedByVerbosity() {
        #expect(LoggingEventMonitor.Level.allCases == [.requests, .metrics, .all])
        #expect(LoggingEventMonitor.Level.requests < .metrics && LoggingEventMonitor.Level.metrics < .all)
        #expect(LoggingEventMonitor().level == .requests)
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func eachLevelWritesItsLinesForARequest() async throws {
        let nginx = try TestEnvironment.nginx()
        let url = "\(nginx.httpBase)/bytes/1k"
        let server = "127.0.0.1:\(nginx.httpPort)"
        var written: [LoggingEventMonitor.Level: [String]] = [:]
        for level in LoggingEventMonitor.Level.allCases {
            let lines = Shared<[String]>([])
            let monitor = Self.monitor(level, lines)
            let session = Session(eventMonitors: [monitor])
            _ = await session.request(url).awaitResponseData()
            monitor.queue.sync {}
            written[level] = lines.withLock { $0 }
            await session.shutdown()
        }
        #expect(written[.requests] == ["wick: GET \(url) → 200"])
        let metrics = try #require(written[.metrics])
        #expect(metrics.count == 2 && metrics.last == "wick: GET \(url) → 200")
        #expect(metrics.first?.hasPrefix("wick: metrics: GET \(url) → 200, new connection 127.0.0.1:") == true)
        #expect(metrics.first?.contains("→ \(server), ") == true)
        let all = try #require(written[.all])
        #expect(all.count == 8)
        guard all.count == 8 else { return }
        #expect(all[0] == "wick: created GET \(url)")
        #expect(all[1] == "wick: resumed GET \(url)")
        #expect(all[2] == "wick: sending GET \(url)")
        #expect(all[3].hasPrefix("wick: GET \(url) on new connection 127.0.0.1:") && all[3].hasSuffix("→ \(server)"))
        #expect(all[4] == "wick: response 200 to GET \(url), 1024 body bytes")
        #expect(all[5].hasPrefix("wick: metrics: GET \(url) → 200"))
        #expect(all[6] == "wick: GET \(url) → 200")
        #expect(all[7] == "wick: parsed the response to GET \(url): success")
    }

    @Test func aRequestThatCannotBeBuiltIsLoggedWithItsError() async throws {
        let lines = Shared<[String]>([])
        let monitor = Self.monitor(.requests, lines)
        let session = Session(eventMonitors: [monitor])
        let response = await session.request("http+unix:///x").awaitResponseData()
        monitor.queue.sync {}
        let error = try #require(response.error)
        #expect(
            lines.withLock { $0 } == [
                "wick: could not create a request: \(error)", "wick: (request not built) → failed: \(error)",
            ])
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func redirectsValidationsAndRetriesAreLoggedAtTheFullLevel() async throws {
        let base = try TestEnvironment.httpbin().base
        let lines = Shared<[String]>([])
        let monitor = Self.monitor(.all, lines)
        let session = Session(
            interceptor: Interceptor(
                adaptHandler: { request, _, completion in completion(.success(request)) },
                retryHandler: { _, _, _, completion in completion(.doNotRetry) }),
            eventMonitors: [monitor])
        _ = await session.request("\(base)/redirect/1").validate(statusCode: [201]).awaitResponseData()
        monitor.queue.sync {}
        let written = lines.withLock { $0 }
        #expect(written.contains("wick: redirect 302 → GET \(base)/get"))
        #expect(written.contains { $0.hasPrefix("wick: validation of 200 failed: ") })
        #expect(
            written.contains {
                $0.hasPrefix("wick: retry decision for GET \(base)/get after ") && $0.hasSuffix(": do not retry")
            })
        #expect(written.contains { $0.hasPrefix("wick: GET \(base)/get → failed: ") })
        await session.shutdown()
    }
}
