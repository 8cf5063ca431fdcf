// Session through an HTTPS proxy (the in-process TestProxy behind a TLSFront) to nginx: absolute
// form and CONNECT inside the proxy's TLS, TLS to the origin inside that (TLS in TLS), the proxy's
// own trust, and each failure naming whose it is.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct HTTPSProxyNginxTests {
    /// A TestProxy (`behavior` for CONNECT) behind TLS with the test PKI's `server` leaf.
    struct HTTPSProxy {
        let proxy: TestProxy
        let front: TLSFront

        init(_ nginx: TestEnvironment.Nginx, behavior: TestProxy.ConnectBehavior = .tunnel) throws {
            proxy = try TestProxy(connectBehavior: behavior)
            front = try TLSFront(backendPort: proxy.port, pki: nginx.pki)
        }

        /// The proxy as Wick is told of it: `https://localhost:<front>`, under `trust`.
        func configuration(trust: ProxyTLSTrust) -> ProxyConfiguration {
            ProxyConfiguration(.https, host: "localhost", port: UInt16(front.port), tlsTrust: trust)
        }

        func stop() {
            front.stop()
            proxy.stop()
        }
    }

    static func testRoots(_ nginx: TestEnvironment.Nginx) throws -> TrustRoots {
        .certificates([try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))])
    }

    /// A session whose every request goes through `proxy` under `proxyTrust`, and whose origins
    /// are trusted under the test CA (so only the proxy's trust can fail).
    static func session(
        through proxy: HTTPSProxy, proxyTrust: ProxyTLSTrust, nginx: TestEnvironment.Nginx
    ) throws -> Session {
        let roots = try testRoots(nginx)
        return makeSession {
            $0.proxy = .proxy(proxy.configuration(trust: proxyTrust))
            $0.trustRoots = roots
        }
    }

    @Test func plainHTTPGoesInAbsoluteFormInsideTheProxysTLS() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        let session = try Self.session(
            through: proxy, proxyTrust: ProxyTLSTrust(roots: try Self.testRoots(nginx)), nginx: nginx)
        for index in 0..<3 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k?n=\(index)").serializingData().response
            #expect(response.value == Data(TestPayload.bytes(count: 1_024)))
            #expect(response.metrics?.isReused == (index > 0))
            // The connection is the TLS session with the proxy: its version, the proxy's address.
            #expect(response.metrics?.connection?.tlsVersion == .v1_3)
            #expect(response.metrics?.connection?.remoteAddress == "127.0.0.1:\(proxy.front.port)")
        }
        #expect(
            proxy.proxy.requests.map(\.requestLine) == (0..<3).map { "GET \(nginx.httpBase)/bytes/1k?n=\($0) HTTP/1.1" }
        )
        #expect(proxy.front.completedHandshakes == 1 && proxy.proxy.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func httpsGoesThroughCONNECTWithTheOriginsTLSInsideTheProxys() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        let session = try Self.session(
            through: proxy, proxyTrust: ProxyTLSTrust(roots: try Self.testRoots(nginx)), nginx: nginx)
        let body = await session.request("\(nginx.httpsBase)/bytes/1m").serializingData().response
        #expect(body.value == Data(TestPayload.bytes(count: 1 << 20)))
        #expect(body.metrics?.tlsHandshake != nil)
        // nginx itself terminated the inner TLS: it names the version it negotiated.
        let version = await session.request("\(nginx.httpsBase)/tls/protocol").serializingString().response
        #expect(version.value == "TLSv1.3" && version.metrics?.isReused == true)
        #expect(proxy.proxy.requests.map(\.requestLine) == ["CONNECT localhost:\(nginx.httpsPort) HTTP/1.1"])
        // What crossed the proxy's TLS was the origin's TLS: more than the CONNECT and the 1 MiB.
        #expect(proxy.front.relayedBytes > 1 << 20)
        await session.shutdown()
    }

    @Test func http2OnlyNegotiatesH2WithTheOriginInsideTheProxysHTTP1Session() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        let roots = try Self.testRoots(nginx)
        let session = makeSession {
            $0.proxy = .proxy(proxy.configuration(trust: ProxyTLSTrust(roots: roots)))
            $0.trustRoots = roots
            $0.httpVersion = .http2Only
        }
        // The proxy's session offers only http/1.1; ALPN with the origin, inside it, picks h2.
        let response = await session.request("https://localhost:\(nginx.http2Port)/bytes/64k").serializingData()
            .response
        #expect(response.value == Data(TestPayload.bytes(count: 65_536)))
        #expect(response.metrics?.httpVersion == .http2)
        // A cleartext origin through the same proxy speaks HTTP/1.1 in absolute form: the proxy's
        // http/1.1 session is not taken for the origin's ALPN, and h2c never goes through a proxy.
        let plain = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(plain.value?.count == 1_024 && plain.metrics?.httpVersion == .http1_1)
        await session.shutdown()
    }

    @Test func aProxyWhoseCertificateIsNotTrustedIsRefusedNamingTheProxy() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        // The origins' roots (the test CA) are the session's; the proxy's default is the system
        // store, which does not hold the test CA.
        let session = try Self.session(through: proxy, proxyTrust: .system, nginx: nginx)
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.proxyConnectFailed(let failure))) = result,
            failure.kind == .serverTrustRefused,
            case .proxy(.tlsFailed(let named, .serverTrustFailed(let trust)))? = failure.underlyingError
                as? StreamChannelError
        else {
            Issue.record("expected the proxy's certificate refused, got \(result)")
            await session.shutdown()
            return
        }
        #expect(named == "localhost:\(proxy.front.port)" && trust.host == "localhost")
        #expect(failure.description.contains("HTTPS proxy localhost:\(proxy.front.port)"))
        #expect(proxy.proxy.acceptedConnections == 0, "nothing reached the proxy behind its TLS")
        await session.shutdown()
    }

    @Test func anUnverifiedProxyIsUsedWithoutRoots() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        let session = try Self.session(through: proxy, proxyTrust: .unverified, nginx: nginx)
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.value?.count == 1_024)
        await session.shutdown()
    }

    @Test func aProxyThatRefusesCONNECTInsideTLSNamesItsStatus() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(
            nginx, behavior: .reply("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
        defer { proxy.stop() }
        let session = try Self.session(
            through: proxy, proxyTrust: ProxyTLSTrust(roots: try Self.testRoots(nginx)), nginx: nginx)
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.proxyConnectFailed(let failure))) = result,
            failure.kind == .proxyRefused,
            case .proxy(.refused(let named, 403, "Forbidden", false))? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected the CONNECT refused with 403, got \(result)")
            await session.shutdown()
            return
        }
        #expect(named == "localhost:\(proxy.front.port)")
        #expect(proxy.proxy.requests.map(\.requestLine) == ["CONNECT localhost:\(nginx.httpsPort) HTTP/1.1"])
        await session.shutdown()
    }

    @Test func aTLSFailureInsideTheTunnelIsTheOriginsNotTheProxys() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try HTTPSProxy(nginx)
        defer { proxy.stop() }
        let session = try Self.session(
            through: proxy, proxyTrust: ProxyTLSTrust(roots: try Self.testRoots(nginx)), nginx: nginx)
        // nginx's plain-HTTP port answers the origin's ClientHello with an HTTP 400.
        let result = await session.request("https://localhost:\(nginx.httpPort)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result,
            failure.kind == .tlsHandshakeFailed,
            case .tls(.handshakeFailed)? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected the origin's TLS handshake to fail, got \(result)")
            await session.shutdown()
            return
        }
        let place =
            "the origin localhost:\(nginx.httpPort), inside the tunnel through proxy https://localhost:\(proxy.front.port)"
        #expect(failure.description.contains("(\(place))"))
        #expect(proxy.proxy.requests.map(\.requestLine) == ["CONNECT localhost:\(nginx.httpPort) HTTP/1.1"])
        #expect(proxy.front.completedHandshakes == 1, "the proxy's own TLS succeeded")
        await session.shutdown()
    }
}
