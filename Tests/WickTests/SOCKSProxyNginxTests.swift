// Session through microsocks (a real SOCKS5 proxy) to nginx: socks5 and socks5h, http and https
// with trust for the origin, user name and password, and each step a proxy can refuse.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx && TestEnvironment.wantsSOCKS, "nginx and microsocks are started by Scripts/test"))
struct SOCKSProxyNginxTests {
    static func session(
        _ scheme: ProxyScheme, port: Int, credentials: ProxyCredentials? = nil, nginx: TestEnvironment.Nginx,
        trustManager: ServerTrustManager? = nil
    ) -> Session {
        makeSession(serverTrustManager: trustManager) {
            $0.proxy = .proxy(ProxyConfiguration(scheme, host: "127.0.0.1", port: UInt16(port), credentials: credentials))
            $0.trustRoots = (try? ProxyNginxTests.testRoots(nginx)) ?? .system
        }
    }

    /// A trust manager with an evaluator for the origin's name only (pinning nginx's key): a
    /// TLS name or trust check for the proxy would fail.
    static func pinnedToTheOrigin(_ nginx: TestEnvironment.Nginx) throws -> ServerTrustManager {
        let leaf = try Certificate(pemEncoded: String(contentsOf: nginx.pki.server.certificate, encoding: .utf8))
        return ServerTrustManager(
            allHostsMustBeEvaluated: true, evaluators: ["localhost": PublicKeysTrustEvaluator(keys: [leaf.publicKey])])
    }

    @Test(arguments: [ProxyScheme.socks5, .socks5h])
    func plainHTTPGoesThroughTheTunnelAndReusesIt(scheme: ProxyScheme) async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let session = Self.session(scheme, port: socks.port, nginx: nginx)
        for index in 0..<3 {
            let response = await session.request("http://localhost:\(nginx.httpPort)/bytes/1k?n=\(index)")
                .serializingData().response
            #expect(response.value.map(Array.init) == TestPayload.bytes(count: 1_024), "\(String(describing: response.error))")
            #expect(response.metrics?.isReused == (index > 0))
        }
        let total = await session.poolStatistics().total
        #expect(total.created == 1)
        await session.shutdown()
    }

    @Test(arguments: [ProxyScheme.socks5, .socks5h])
    func httpsRunsTLSInsideTheTunnelWithTrustForTheOrigin(scheme: ProxyScheme) async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let session = Self.session(
            scheme, port: socks.port, nginx: nginx, trustManager: try Self.pinnedToTheOrigin(nginx))
        let first = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(first.value.map(Array.init) == TestPayload.bytes(count: 1_024), "\(String(describing: first.error))")
        #expect(first.metrics?.tlsHandshake != nil)
        let second = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(second.value?.count == 1_024 && second.metrics?.isReused == true)
        await session.shutdown()
    }

    @Test(arguments: [ProxyScheme.socks5, .socks5h])
    func credentialsOpenTheAuthenticatingProxyForBothSchemes(scheme: ProxyScheme) async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let session = Self.session(
            scheme, port: socks.authenticatingPort,
            credentials: ProxyCredentials(username: socks.username, password: socks.password), nginx: nginx)
        let plain = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(plain.value?.count == 1_024, "\(String(describing: plain.error))")
        let secure = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(secure.value?.count == 1_024, "\(String(describing: secure.error))")
        await session.shutdown()
    }

    @Test func aWrongPasswordFailsAtAuthentication() async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let session = Self.session(
            .socks5h, port: socks.authenticatingPort,
            credentials: ProxyCredentials(username: socks.username, password: "guess"), nginx: nginx)
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(let error) = result,
            case .sessionTaskFailed(.socksProxyFailed(let proxy, .authenticationFailed)) = error
        else {
            Issue.record("expected an authentication failure, got \(result)")
            return
        }
        #expect(proxy == "127.0.0.1:\(socks.authenticatingPort)")
        #expect(error.typeName == "proxyAuthenticationRequired")
        #expect(error.description.contains("refused the user name and password"))
        await session.shutdown()
    }

    @Test func noCredentialsFailAtMethodNegotiation() async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let session = Self.session(.socks5, port: socks.authenticatingPort, nginx: nginx)
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.socksProxyFailed(_, let failure))) = result else {
            Issue.record("expected a method negotiation failure, got \(result)")
            return
        }
        #expect(failure == .noAcceptableMethod(credentialsOffered: false))
        #expect(failure.step == .methodNegotiation)
        await session.shutdown()
    }

    @Test(arguments: [ProxyScheme.socks5, .socks5h])
    func aTargetTheProxyCannotReachIsItsConnectReply(scheme: ProxyScheme) async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let closed = try RefusingPort()
        let session = Self.session(scheme, port: socks.port, nginx: nginx)
        let result = await session.request("http://127.0.0.1:\(closed.port)/").serializingData().result
        guard case .failure(let error) = result,
            case .sessionTaskFailed(.socksProxyFailed(_, .connectRefused(let target, let reply))) = error
        else {
            Issue.record("expected a connect refusal, got \(result)")
            return
        }
        #expect(target == "127.0.0.1:\(closed.port)")
        #expect(reply.version == 5 && reply.code == 5 && reply.meaning == "connection refused")
        #expect(error.description.contains("reply 5 (connection refused)"))
        await session.shutdown()
    }

    @Test func aProxyThatIsNotListeningIsAConnectFailure() async throws {
        let nginx = try TestEnvironment.nginx()
        let closed = try RefusingPort()
        let session = makeSession {
            $0.proxy = .proxy(ProxyConfiguration(.socks5h, host: "127.0.0.1", port: UInt16(closed.port)))
            $0.waitsForConnectivity = false
        }
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("expected a refused connect, got \(result)")
            return
        }
        #expect(failure.kind == .refused)
        await session.shutdown()
    }

    @Test func allProxyInTheEnvironmentSendsBothSchemesThroughSOCKS() async throws {
        let nginx = try TestEnvironment.nginx()
        let socks = try TestEnvironment.socks()
        let rules = try ProxyRules(environment: [
            "ALL_PROXY": "socks5h://\(socks.username):\(socks.password)@127.0.0.1:\(socks.authenticatingPort)",
            "NO_PROXY": "example.invalid",
        ])
        let session = makeSession {
            $0.proxy = .rules(rules)
            $0.trustRoots = (try? ProxyNginxTests.testRoots(nginx)) ?? .system
        }
        let plain = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(plain.value?.count == 1_024, "\(String(describing: plain.error))")
        let secure = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(secure.value?.count == 1_024, "\(String(describing: secure.error))")
        await session.shutdown()
    }
}
