// OCSP and CRL fetching through the transport: what is sent, what is refused, what fails.
import Dispatch
import Foundation
import Testing
@testable import WickTransport
import WickReactor
import WickTLS
import WickTestSupport

struct RevocationFetcherTests {
    /// A fetcher over a runner of its own, with `timeout`.
    private func withFetcher(
        timeout: Duration = .seconds(5), _ body: @escaping @Sendable (TransportRevocationFetcher) throws -> Void
    ) async throws {
        let group = try EventLoopGroup(configuration: EventLoopGroup.Configuration(threadCount: 1))
        let runner = ConnectionPoolRunner(group: group)
        let fetcher = TransportRevocationFetcher(runner: runner, timeout: timeout)
        // `fetch` blocks its thread, as trust evaluation's are: run it off Swift's cooperative pool.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try body(fetcher) })
            }
        }
        await runner.shutdown()
        group.shutdownGracefully()
    }

    @Test func anOCSPQueryIsPostedWithItsContentType() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "signed answer")])
        defer { server.stop() }
        try await withFetcher { fetcher in
            let answer = try fetcher.fetch(
                RevocationRequest(kind: .ocsp, url: "http://127.0.0.1:\(server.port)/ocsp", body: [0x30, 0x03, 1, 2, 3]))
            #expect(answer == Array("signed answer".utf8))
        }
        let sent = server.received(onConnection: 0)
        let text = String(decoding: sent, as: UTF8.self)
        #expect(text.hasPrefix("POST /ocsp HTTP/1.1\r\n"))
        #expect(text.contains("\r\nContent-Type: application/ocsp-request\r\n"))
        #expect(text.contains("\r\nContent-Length: 5\r\n"))
        #expect(Array(sent.suffix(5)) == [0x30, 0x03, 1, 2, 3])
    }

    @Test func aCRLIsFetchedWithAGet() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .respond(body: "crl bytes")])
        defer { server.stop() }
        try await withFetcher { fetcher in
            let answer = try fetcher.fetch(
                RevocationRequest(kind: .crl, url: "http://127.0.0.1:\(server.port)/ca.crl", body: nil))
            #expect(answer == Array("crl bytes".utf8))
        }
        #expect(String(decoding: server.received(onConnection: 0), as: UTF8.self).hasPrefix("GET /ca.crl HTTP/1.1\r\n"))
    }

    @Test(arguments: ["https://127.0.0.1/ocsp", "ldap://ldap.example/cn=crl", "http:///no-host", "not a url"])
    func onlyPlainHTTPIsFetched(url: String) async throws {
        try await withFetcher { fetcher in
            #expect {
                try fetcher.fetch(RevocationRequest(kind: .crl, url: url, body: nil))
            } throws: { error in
                guard case .unsupportedURL = error as? TransportRevocationFetcher.FetchError else { return false }
                return true
            }
        }
    }

    @Test func aStatusOtherThan200IsAFailure() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .respond(status: 404, body: "no")])
        defer { server.stop() }
        try await withFetcher { fetcher in
            #expect {
                try fetcher.fetch(RevocationRequest(kind: .crl, url: "http://127.0.0.1:\(server.port)/", body: nil))
            } throws: { error in
                guard case .status(404) = error as? TransportRevocationFetcher.FetchError else { return false }
                return true
            }
        }
    }

    @Test func aSilentResponderFailsAtTheFetchTimeout() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(10))])
        defer { server.stop() }
        let started = ContinuousClock.now
        try await withFetcher(timeout: .milliseconds(300)) { fetcher in
            #expect {
                try fetcher.fetch(RevocationRequest(kind: .crl, url: "http://127.0.0.1:\(server.port)/", body: nil))
            } throws: { error in
                guard case .transport(.timedOut) = error as? TransportRevocationFetcher.FetchError else { return false }
                return true
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }
}
