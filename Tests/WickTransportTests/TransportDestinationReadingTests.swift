// A reading of a request URL is reused by a send only while it reads that URL and socket path.
import Foundation
import Testing

@testable import WickTransport

@Suite struct TransportDestinationReadingTests {
    static let url = URL(string: "http://example.com:8080/a/b?c=d")!

    @Test func aReadingKnowsWhatItRead() throws {
        let reading = try TransportDestination(url: Self.url, unixSocketPath: nil)
        #expect(reading.target == "/a/b?c=d" && reading.host == "example.com" && reading.port == 8080)
        #expect(reading.isReading(of: Self.url, unixSocketPath: nil))
        #expect(!reading.isReading(of: URL(string: "http://example.com:8080/other")!, unixSocketPath: nil))
        #expect(!reading.isReading(of: Self.url, unixSocketPath: "/run/app.sock"))
    }

    @Test func aUnixSocketURLsReadingMatchesItWithoutASocketPath() throws {
        let url = URL(string: "http+unix://%2Frun%2Fapp.sock/v1/info")!
        let reading = try TransportDestination(url: url, unixSocketPath: nil)
        #expect(reading.unixSocketPath?.path == "/run/app.sock" && reading.target == "/v1/info")
        #expect(reading.isReading(of: url, unixSocketPath: nil))
    }

    @Test func prepareReadsTheURLAgainWhenTheReadingIsOfAnother() async throws {
        var configuration = TransportClient.Configuration()
        configuration.eventLoopCount = 1
        let client = try TransportClient(configuration: configuration)
        let stale = try TransportDestination(url: Self.url, unixSocketPath: nil)
        let other = URL(string: "http://other.example:9090/x")!
        let prepared = try client.prepare(.get, url: other, headers: [:], body: nil, unixSocketPath: nil, reading: stale).get()
        #expect(prepared.host == "other.example" && prepared.port == 9090 && prepared.target == "/x")
        let reused = try client.prepare(.get, url: Self.url, headers: [:], body: nil, unixSocketPath: nil, reading: stale).get()
        #expect(reused.host == "example.com" && reused.port == 8080 && reused.target == "/a/b?c=d")
        await client.shutdown()
    }
}
