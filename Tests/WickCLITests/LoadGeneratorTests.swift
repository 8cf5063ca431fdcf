// `wick bench`: its options, its percentiles, and runs against the local nginx (HTTP/1.1, HTTP/2
// over TLS and h2c).
import FoundationEssentials
import Testing
import WickCLI
import WickTestSupport

@Suite struct LoadOptionsTests {
    @Test func optionsParseWithDefaults() throws {
        let plain = try LoadOptions(arguments: ["localhost:8080/x"])
        #expect(plain.url == "http://localhost:8080/x" && plain.concurrency == 16 && plain.requests == 10_000)
        #expect(plain.duration == nil && plain.rate == nil && !plain.json)
        #expect(plain.connections == nil && plain.connectionLimit == 16)
        #expect(plain.curlSettings.httpVersion == .preferHTTP2 && !plain.curlSettings.http2PriorKnowledge)
        #expect(!plain.curlSettings.insecure && plain.curlSettings.caCertificateFile == nil)
        let full = try LoadOptions(arguments: [
            "-c", "64", "-d", "30s", "--rate", "5000", "-H", "X-A:  1", "-m", "2.5", "--json", "https://h/",
        ])
        #expect(full.concurrency == 64 && full.requests == nil && full.duration == .seconds(30) && full.rate == 5_000)
        #expect(plain.busyPoll == nil)
        #expect(try LoadOptions(arguments: ["--busy-poll", "50us", "u"]).busyPoll == .microseconds(50))
        #expect(try LoadOptions(arguments: ["--busy-poll", "1.5ms", "u"]).busyPoll == .microseconds(1_500))
        #expect(try LoadOptions(arguments: ["-d", "250ms", "u"]).duration == .milliseconds(250))
        #expect(
            full.headers.map(\.name) == ["X-A"] && full.headers.map(\.value) == ["1"] && full.timeout == 2.5
                && full.json)
    }

    @Test func curlsProtocolAndTrustOptionsAreReadAsCurlReadsThem() throws {
        let http2 = try LoadOptions(arguments: [
            "--http2", "--cacert", "/ca.pem", "--capath", "/certs", "-c", "64", "--connections", "2", "https://h/",
        ])
        #expect(http2.curlSettings.httpVersion == .preferHTTP2 && !http2.curlSettings.http2PriorKnowledge)
        #expect(http2.curlSettings.caCertificateFile == "/ca.pem" && http2.curlSettings.caDirectory == "/certs")
        #expect(http2.concurrency == 64 && http2.connections == 2 && http2.connectionLimit == 2)
        let h2c = try LoadOptions(arguments: ["--http2-prior-knowledge", "-k", "http://h/"])
        #expect(h2c.curlSettings.http2PriorKnowledge && h2c.curlSettings.insecure)
        // As curl: the last version option wins, and `--http1.1` also drops prior knowledge.
        let back = try LoadOptions(arguments: ["--http2", "--http2-prior-knowledge", "--http1.1", "--insecure", "u"])
        #expect(back.curlSettings.httpVersion == .http1Only && !back.curlSettings.http2PriorKnowledge)
        #expect(back.curlSettings.insecure)
    }

    @Test func aCACertificateFileWithoutCertificatesFailsAsCurls77() async throws {
        let options = try LoadOptions(arguments: ["--cacert", "/nonexistent/ca.pem", "-n", "1", "https://127.0.0.1:1/"])
        await #expect(
            throws: CommandFailure(.badCACertificateFile, "error setting certificate file: /nonexistent/ca.pem")
        ) {
            try await LoadGenerator(options: options).run()
        }
    }

    @Test(arguments: [
        ["-c", "0", "u"], ["-n", "x", "u"], ["-d", "soon", "u"], ["--rate", "-1", "u"], ["-H", "novalue", "u"],
        ["--bogus", "u"], [], ["u", "v"], ["-n", "5", "-d", "1s", "u"], ["--connections", "0", "u"], ["u", "--cacert"],
        ["--http3", "u"], ["-kv", "u"], ["--busy-poll", "soon", "u"], ["--busy-poll", "-5us", "u"], ["u", "--busy-poll"],
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
        let report = try await LoadGenerator(options: options).run()
        #expect(report.requests == 200 && report.errors.isEmpty && report.statuses == ["2xx": 200])
        #expect(report.protocols == ["HTTP/1.1": 200] && report.bodyBytes == 200 * 1_024)
        #expect(report.connectionsCreated >= 1 && report.connectionsCreated <= 4)
        #expect(report.text(url: options.url, options: options).contains("200 requests, 4 in flight"))
        #expect(report.json(url: options.url, options: options).contains("\"requests\":200"))
    }

    @Test func anOpenRunSendsAtItsRateForItsDuration() async throws {
        let nginx = try TestEnvironment.nginx()
        let options = try LoadOptions(arguments: [
            "-c", "8", "--rate", "200", "-d", "500ms", "\(nginx.httpBase)/bytes/1k",
        ])
        let report = try await LoadGenerator(options: options).run()
        // 200 /s for 0.5 s: 100 intended starts, none of them dropped.
        #expect(report.requests == 100 && report.errors.isEmpty)
    }

    @Test func failuresAreCountedByKind() async throws {
        // Port 1 on loopback: nothing listens; the pool waits for it until each request's timeout.
        let options = try LoadOptions(arguments: ["-c", "2", "-n", "4", "-m", "0.3", "http://127.0.0.1:1/"])
        let report = try await LoadGenerator(options: options).run()
        #expect(report.requests == 4 && report.latencies.isEmpty && report.protocols.isEmpty)
        #expect(report.errors.keys.allSatisfy { $0.hasPrefix("timedOut") })
    }

    @Test func anHTTP2RunOverTLSSendsEveryRequestOnStreamsOfOneConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let url = "https://localhost:\(nginx.http2Port)/bytes/1k"
        let arguments = [
            "--http2", "--cacert", nginx.pki.root.certificate.path, "-c", "16", "-n", "300", "--json", url,
        ]
        let options = try LoadOptions(arguments: arguments)
        let report = try await LoadGenerator(options: options).run()
        #expect(report.requests == 300 && report.errors.isEmpty && report.statuses == ["2xx": 300])
        #expect(report.protocols == ["HTTP/2": 300] && report.bodyBytes == 300 * 1_024)
        // nginx allows 128 streams on a connection: the 16 in flight share the first.
        #expect(report.connectionsCreated == 1)
        let json = report.json(url: options.url, options: options)
        #expect(json.contains("\"protocols\":{\"HTTP/2\":300}") && json.contains("\"connections_created\":1"))
    }

    @Test func insecureSkipsTheCertificateCheckAsCurls() async throws {
        let nginx = try TestEnvironment.nginx()
        let url = "https://localhost:\(nginx.http2Port)/bytes/1k"
        let checked = try await LoadGenerator(
            options: try LoadOptions(arguments: ["--http2", "-n", "2", "-m", "5", url])
        ).run()
        #expect(checked.latencies.isEmpty && checked.errors.values.reduce(0, +) == 2)
        let insecure = try await LoadGenerator(options: try LoadOptions(arguments: ["--http2", "-k", "-n", "20", url]))
            .run()
        #expect(insecure.errors.isEmpty && insecure.protocols == ["HTTP/2": 20])
    }

    @Test func anH2CRunWithPriorKnowledgeSpeaksHTTP2() async throws {
        let nginx = try TestEnvironment.nginx()
        let url = "http://127.0.0.1:\(nginx.h2cPort)/bytes/1k"
        let options = try LoadOptions(arguments: ["--http2-prior-knowledge", "-c", "4", "-n", "100", url])
        let report = try await LoadGenerator(options: options).run()
        #expect(report.errors.isEmpty && report.protocols == ["HTTP/2": 100] && report.connectionsCreated == 1)
    }
}
