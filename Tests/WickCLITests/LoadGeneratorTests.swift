// `wick bench`: its options, its percentiles, and runs against the local nginx.
import FoundationEssentials
import Testing
import WickCLI
import WickTestSupport

@Suite struct LoadOptionsTests {
    @Test func optionsParseWithDefaults() throws {
        let plain = try LoadOptions(arguments: ["localhost:8080/x"])
        #expect(plain.url == "http://localhost:8080/x" && plain.concurrency == 16 && plain.requests == 10_000)
        #expect(plain.duration == nil && plain.rate == nil && !plain.json)
        let full = try LoadOptions(arguments: [
            "-c", "64", "-d", "30s", "--rate", "5000", "-H", "X-A:  1", "-m", "2.5", "--json", "https://h/",
        ])
        #expect(full.concurrency == 64 && full.requests == nil && full.duration == .seconds(30) && full.rate == 5_000)
        #expect(full.headers.map(\.name) == ["X-A"] && full.headers.map(\.value) == ["1"] && full.timeout == 2.5 && full.json)
    }

    @Test(arguments: [
        ["-c", "0", "u"], ["-n", "x", "u"], ["-d", "soon", "u"], ["--rate", "-1", "u"], ["-H", "novalue", "u"],
        ["--bogus", "u"], [], ["u", "v"], ["-n", "5", "-d", "1s", "u"],
    ])
    func badArgumentsAreRefused(arguments: [String]) {
        #expect(throws: CommandFailure.self) { try LoadOptions(arguments: arguments) }
    }

    @Test func percentilesAreNearestRank() {
        let report = LoadReport()
        let sorted: [UInt64] = (1...100).map { UInt64($0) * 1_000 }
        #expect(report.percentile(0.5, sorted: sorted) == 50)
        #expect(report.percentile(0.99, sorted: sorted) == 99)
        #expect(report.percentile(1, sorted: sorted) == 100)
        #expect(report.percentile(0.5, sorted: []) == nil)
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct LoadGeneratorNginxTests {
    @Test func aClosedRunSendsEveryRequestOnAtMostItsConnections() async throws {
        let nginx = try TestEnvironment.nginx()
        let options = try LoadOptions(arguments: ["-c", "4", "-n", "200", "\(nginx.httpBase)/bytes/1k"])
        let report = await LoadGenerator(options: options).run()
        #expect(report.requests == 200 && report.errors.isEmpty && report.statuses == ["2xx": 200])
        #expect(report.bodyBytes == 200 * 1_024)
        #expect(report.connectionsCreated >= 1 && report.connectionsCreated <= 4)
        #expect(report.text(url: options.url, options: options).contains("200 requests, 4 in flight"))
        #expect(report.json(url: options.url, options: options).contains("\"requests\":200"))
    }

    @Test func anOpenRunSendsAtItsRateForItsDuration() async throws {
        let nginx = try TestEnvironment.nginx()
        let options = try LoadOptions(arguments: ["-c", "8", "--rate", "200", "-d", "500ms", "\(nginx.httpBase)/bytes/1k"])
        let report = await LoadGenerator(options: options).run()
        // 200 /s for 0.5 s: 100 intended starts, none of them dropped.
        #expect(report.requests == 100 && report.errors.isEmpty)
    }

    @Test func failuresAreCountedByKind() async throws {
        // Port 1 on loopback: nothing listens; the pool waits for it until each request's timeout.
        let options = try LoadOptions(arguments: ["-c", "2", "-n", "4", "-m", "0.3", "http://127.0.0.1:1/"])
        let report = await LoadGenerator(options: options).run()
        #expect(report.requests == 4 && report.latencies.isEmpty)
        #expect(report.errors.keys.allSatisfy { $0.hasPrefix("timedOut") })
    }
}
