// The pool runner through the in-process TestProxy: proxied and direct requests never share a
// connection; a silent proxy is bounded by the connect timeout; a target that cannot be a CONNECT
// authority is refused before any byte. (Session through the proxy: WickTests' ProxyNginxTests
// and ProxyFaultTests.)
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import WickTransport

struct ProxyRunnerTests {
    @Test func aSilentProxyIsBoundedByTheConnectTimeout() async throws {
        let proxy = try TestProxy(connectBehavior: .stall)
        defer { proxy.stop() }
        let client = try TestRunner { $0.connect.timeout = .milliseconds(300) }
        var request = TransportRequest(.get, .https, host: "origin.invalid", port: 8443, tls: try client.tlsRules())
        request.proxy = ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port))
        let started = ContinuousClock.now
        do {
            _ = try await client.runner.execute(request, deadline: .now() + .seconds(1))
            Issue.record("a silent proxy let the request through")
        } catch {
            // The deadline ends the request in the CONNECT phase of the attempt then under way,
            // or between attempts with the last one's CONNECT timeout.
            switch error {
            case .timedOut(.connect(.proxyConnect)): break
            case .poolWaitTimeout(.proxy(.timedOut(_, let after))?):
                #expect(after >= .milliseconds(250) && after < .seconds(5))
                #expect(error.description.contains("did not answer CONNECT"))
            default: Issue.record("expected a timeout in the CONNECT phase, got \(error)")
            }
        }
        // The 300 ms limit ended the first CONNECT: the pool tried again within the 1 s deadline.
        #expect(proxy.acceptedConnections >= 2)
        #expect(ContinuousClock.now - started < .seconds(10))
        await client.close()
    }

    @Test func anHTTPSProxyThatNeverAnswersTheHandshakeIsBoundedByTheConnectTimeout() async throws {
        // A plain TestProxy as an https proxy: it waits for a request head that never comes.
        let silent = try TestProxy(connectBehavior: .stall)
        defer { silent.stop() }
        let client = try TestRunner { $0.connect.timeout = .milliseconds(300) }
        var request = TransportRequest(.get, .http, host: "origin.invalid", port: 80)
        request.proxy = ProxyConfiguration(.https, host: "127.0.0.1", port: UInt16(silent.port))
        request.proxyTLS = ProxyTLSContext(context: try TLSContext(configuration: ProxyTLSTrust.system.configuration))
        let started = ContinuousClock.now
        do {
            _ = try await client.runner.execute(request, deadline: .now() + .seconds(1))
            Issue.record("a silent HTTPS proxy let the request through")
        } catch {
            switch error {
            case .timedOut(.connect(.proxyConnect)): break
            case .poolWaitTimeout(.proxy(.tlsTimedOut(let proxy, .handshake, let after))?):
                #expect(proxy == "127.0.0.1:\(silent.port)")
                #expect(after >= .milliseconds(250) && after < .seconds(5))
                #expect(error.description.contains("HTTPS proxy 127.0.0.1:\(silent.port): TLS handshake timed out"))
            default: Issue.record("expected the proxy's TLS handshake to time out, got \(error)")
            }
        }
        #expect(silent.acceptedConnections >= 2, "a timeout is retried within the deadline")
        #expect(ContinuousClock.now - started < .seconds(10))
        await client.close()
    }

    @Test func aTargetThatCannotBeACONNECTAuthorityFailsBeforeAnyByteIsSent() async throws {
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let client = try TestRunner()
        var request = TransportRequest(.get, .https, host: "bad host", port: 443, tls: try client.tlsRules())
        request.proxy = ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port))
        do {
            _ = try await client.runner.execute(request, deadline: .now() + .seconds(10))
            Issue.record("a CONNECT to \"bad host\" was sent")
        } catch {
            guard case .connectFailed(.reactor(.invalidAddress(let reason))) = error else {
                Issue.record("expected invalidAddress, got \(error)")
                await client.close()
                return
            }
            #expect(reason.hasPrefix("CONNECT bad host:443"))
        }
        #expect(proxy.requests.isEmpty)
        await client.close()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct ProxyRunnerNginxTests {
    @Test func proxiedAndDirectRequestsToOneOriginNeverShareAConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let client = try TestRunner()
        let direct = TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(nginx.httpPort), target: "/bytes/1k")
        var proxied = direct
        proxied.proxy = ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port))
        var reused: [Bool] = []
        for request in [direct, proxied, direct, proxied] {
            let response = try await client.runner.execute(request)
            #expect(response.body.count == 1_024)
            reused.append(response.metrics.isReused)
        }
        #expect(reused == [false, false, true, true])
        #expect(proxy.requests.count == 2 && proxy.acceptedConnections == 1)
        let total = try await client.runner.statistics().total
        #expect(total.created == 2)
        await client.close()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx && TestEnvironment.wantsSOCKS, "nginx and microsocks are started by Scripts/test"))
struct SOCKSRunnerNginxTests {
    @Test func eachProxyAndDirectHaveConnectionsOfTheirOwn() async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let client = try TestRunner()
        let direct = TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(nginx.httpPort), target: "/bytes/1k")
        let proxies: [ProxyConfiguration?] = [
            nil,
            ProxyConfiguration(.socks5, host: "127.0.0.1", port: UInt16(socks.port)),
            ProxyConfiguration(.socks5h, host: "127.0.0.1", port: UInt16(socks.port)),
            ProxyConfiguration(
                .socks5, host: "127.0.0.1", port: UInt16(socks.authenticatingPort),
                credentials: ProxyCredentials(username: socks.username, password: socks.password)),
        ]
        var reused: [Bool] = []
        for proxy in proxies + proxies {
            var request = direct
            request.proxy = proxy
            let response = try await client.runner.execute(request)
            #expect(response.body.count == 1_024)
            reused.append(response.metrics.isReused)
        }
        #expect(reused == [false, false, false, false, true, true, true, true])
        let total = try await client.runner.statistics().total
        #expect(total.created == 4)
        await client.close()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct HTTPSProxyRunnerNginxTests {
    @Test func twoProxyTrustsNeverShareAConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let front = try TLSFront(backendPort: proxy.port, pki: nginx.pki)
        defer { front.stop() }
        let root = try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        let client = try TestRunner()
        /// A request to nginx through the front, its certificate checked under `trust`.
        func request(trusting trust: ProxyTLSTrust) throws -> TransportRequest {
            var request = TransportRequest(
                .get, .http, host: "127.0.0.1", port: UInt16(nginx.httpPort), target: "/bytes/1k")
            request.proxy = ProxyConfiguration(.https, host: "localhost", port: UInt16(front.port), tlsTrust: trust)
            request.proxyTLS = ProxyTLSContext(context: try TLSContext(configuration: trust.configuration))
            return request
        }
        let right = try request(trusting: ProxyTLSTrust(roots: .certificates([root])))
        let wrong = try request(trusting: .system)
        let first = try await client.runner.execute(right)
        #expect(first.body.count == 1_024 && !first.metrics.isReused)
        // The right trust's connection is idle in the pool; the wrong trust is not served by it.
        do {
            _ = try await client.runner.execute(wrong, deadline: .now() + .seconds(10))
            Issue.record("a request under a trust that refuses the proxy used another trust's connection")
        } catch {
            guard case .connectFailed(.proxy(.tlsFailed(_, .serverTrustFailed(let trust)))) = error else {
                Issue.record("expected the proxy's certificate refused, got \(error)")
                await client.close()
                return
            }
            #expect(trust.host == "localhost")
        }
        let again = try await client.runner.execute(right)
        #expect(again.body.count == 1_024 && again.metrics.isReused)
        // Both GETs went over the one connection the right trust made; the wrong trust's session
        // ended before any plaintext, so it never reached the proxy behind the front.
        #expect(proxy.requests.map(\.connection) == [0, 0] && proxy.acceptedConnections == 1)
        await client.close()
    }
}
