// A SOCKS proxy that accepts and never answers: the handshake ends at the connect timeout.
// Bound by real time, so Scripts/test runs it with the timing suites.
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import WickTransport

struct SOCKSTunnelTimeoutTests {
    @Test func aSilentProxyIsBoundedByTheConnectTimeout() async throws {
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let client = try TestRunner { $0.connect.timeout = .milliseconds(300) }
        var request = TransportRequest(.get, .http, host: "origin.test", port: 80, target: "/")
        request.proxy = ProxyConfiguration(.socks5h, host: "127.0.0.1", port: UInt16(server.port))
        let started = ContinuousClock.now
        do {
            _ = try await client.runner.execute(request, deadline: .now() + .seconds(1))
            Issue.record("a silent SOCKS proxy let the request through")
        } catch {
            switch error {
            case .timedOut(.connect(.proxyConnect)): break
            case .poolWaitTimeout(.proxy(.timedOut(_, let after))?):
                #expect(after >= .milliseconds(250) && after < .seconds(5))
            default: Issue.record("expected a timeout in the proxy phase, got \(error)")
            }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        await client.close()
    }
}
