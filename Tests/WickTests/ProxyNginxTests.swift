// Session through the in-process TestProxy to nginx: absolute form, CONNECT with TLS to the
// origin, Basic credentials and 407, no connection shared between proxied and direct requests.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct ProxyNginxTests {
    static func testRoots(_ nginx: TestEnvironment.Nginx) throws -> TrustRoots {
        .certificates([try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))])
    }

    static func session(
        through proxy: TestProxy, credentials: ProxyCredentials? = nil, noProxy: String = "",
        roots: TrustRoots = .system, trustManager: ServerTrustManager? = nil
    ) -> Session {
        makeSession(serverTrustManager: trustManager) {
            $0.proxy = .proxy(
                ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port), credentials: credentials),
                noProxy: NoProxyList(noProxy))
            $0.trustRoots = roots
        }
    }

    @Test func plainHTTPGoesInAbsoluteFormAndReusesTheProxyConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let session = Self.session(through: proxy)
        for index in 0..<3 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k?n=\(index)").serializingData().response
            #expect(response.value?.count == 1_024)
            #expect(response.metrics?.isReused == (index > 0))
        }
        #expect(proxy.requests.map(\.requestLine) == (0..<3).map { "GET \(nginx.httpBase)/bytes/1k?n=\($0) HTTP/1.1" })
        #expect(proxy.requests.allSatisfy { $0.proxyAuthorization == nil && $0.connection == 0 })
        #expect(proxy.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func httpsGoesThroughACONNECTTunnelWithTrustForTheOrigin() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let leaf = try Certificate(pemEncoded: String(contentsOf: nginx.pki.server.certificate, encoding: .utf8))
        // Every host must have an evaluator, and only the origin's name has one: a TLS name or
        // trust check for the proxy (127.0.0.1) would fail.
        let pinned = ServerTrustManager(
            allHostsMustBeEvaluated: true, evaluators: ["localhost": PublicKeysTrustEvaluator(keys: [leaf.publicKey])])
        let session = Self.session(through: proxy, roots: try Self.testRoots(nginx), trustManager: pinned)
        let first = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(first.value?.count == 1_024)
        #expect(first.metrics?.tlsHandshake != nil)
        let second = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(second.value?.count == 1_024 && second.metrics?.isReused == true)
        #expect(proxy.requests.map(\.requestLine) == ["CONNECT localhost:\(nginx.httpsPort) HTTP/1.1"])
        await session.shutdown()
    }

    @Test func theOriginNameIsWhatTrustIsEvaluatedFor() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        // Evaluators for the proxy's name only: the origin, 127.0.0.1 here, has none.
        let forTheProxyOnly = ServerTrustManager(
            allHostsMustBeEvaluated: true, evaluators: ["localhost": DefaultTrustEvaluator()])
        let session = makeSession(serverTrustManager: forTheProxyOnly) {
            $0.proxy = .proxy(ProxyConfiguration(host: "localhost", port: UInt16(proxy.port)))
            $0.trustRoots = (try? Self.testRoots(nginx)) ?? .system
        }
        let result = await session.request("https://127.0.0.1:\(nginx.httpsPort)/bytes/1k").serializingData().result
        guard case .failure(.serverTrustEvaluationFailed(let reason)) = result else {
            Issue.record("expected a trust failure for the origin, got \(result)")
            return
        }
        #expect(reason.host == "127.0.0.1")
        // The evaluator is chosen before any connection is made, so the proxy saw nothing.
        #expect(proxy.acceptedConnections == 0)
        await session.shutdown()
    }

    @Test func aCONNECTWithoutCredentialsGets407AsItsOwnError() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy(requiredCredentials: ("wick", "s3cret"))
        defer { proxy.stop() }
        let session = Self.session(through: proxy, roots: try Self.testRoots(nginx))
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.proxyAuthenticationRequired(let name, credentialsSent: false))) = result
        else {
            Issue.record("expected proxyAuthenticationRequired, got \(result)")
            return
        }
        #expect(name == "127.0.0.1:\(proxy.port)")
        await session.shutdown()
    }

    @Test func wrongCredentialsAreReportedAsRefused() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy(requiredCredentials: ("wick", "s3cret"))
        defer { proxy.stop() }
        let session = Self.session(
            through: proxy, credentials: ProxyCredentials(username: "wick", password: "guess"),
            roots: try Self.testRoots(nginx))
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.proxyAuthenticationRequired(_, credentialsSent: true))) = result else {
            Issue.record("expected proxyAuthenticationRequired with credentials, got \(result)")
            return
        }
        await session.shutdown()
    }

    @Test func credentialsAreSentAndAcceptedForBothSchemes() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy(requiredCredentials: ("wick", "s3:cret"))
        defer { proxy.stop() }
        let session = Self.session(
            through: proxy, credentials: ProxyCredentials(username: "wick", password: "s3:cret"),
            roots: try Self.testRoots(nginx))
        let plain = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(plain.value?.count == 1_024)
        let secure = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(secure.value?.count == 1_024)
        let expected = "Basic " + Data("wick:s3:cret".utf8).base64EncodedString()
        #expect(proxy.requests.count == 2)
        #expect(proxy.requests.allSatisfy { $0.proxyAuthorization == expected })
        await session.shutdown()
    }

    @Test func plainHTTPGetsTheProxys407AsItsResponse() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy(requiredCredentials: ("wick", "s3cret"))
        defer { proxy.stop() }
        let session = Self.session(through: proxy)
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.response?.status.rawValue == 407)
        await session.shutdown()
    }

    @Test func noProxyHostsGoDirectOnTheirOwnConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        // localhost bypasses the proxy; 127.0.0.1 goes through it. Both reach the same nginx.
        let session = Self.session(through: proxy, noProxy: "localhost")
        let bypassing = await session.request("http://localhost:\(nginx.httpPort)/bytes/1k").serializingData().response
        #expect(bypassing.value?.count == 1_024)
        let proxiedResponse = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(proxiedResponse.value?.count == 1_024 && proxiedResponse.metrics?.isReused == false)
        #expect(proxy.requests.map(\.requestLine) == ["GET \(nginx.httpBase)/bytes/1k HTTP/1.1"])
        await session.shutdown()
    }

    @Test func aUnixSocketRequestNeverUsesTheProxy() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let session = Self.session(through: proxy)
        let response = await session.request("http://localhost/bytes/1k", unixSocketPath: nginx.unixSocket)
            .serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(proxy.acceptedConnections == 0)
        await session.shutdown()
    }
}
