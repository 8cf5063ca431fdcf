// Session's name-resolution rules against real servers: `--resolve` and `--connect-to` change
// where connections go but not the Host field, the name TLS verifies, or the pool's origin key; a
// user's NameResolver answers names, and its faults are connection failures naming the host.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(
    .enabled(
        if: TestEnvironment.wantsNginx && TestEnvironment.wantsHTTPBin, "nginx and httpbin are started by Scripts/test")
)
struct SessionNameResolutionTests {
    /// Answers `*.wick.test` with 127.0.0.1 and refuses everything else.
    struct ServiceDirectory: NameResolver {
        struct NotRegistered: Error, CustomStringConvertible {
            let host: String
            var description: String { "\(host) is not registered" }
        }

        func addresses(forHost host: String, port: Int) async throws -> [String] {
            guard host.hasSuffix(".wick.test") else { throw NotRegistered(host: host) }
            return host.hasPrefix("gone.") ? [] : ["127.0.0.1"]
        }
    }

    @Test func resolveSendsTheNameToTheAddressAndKeepsTheHostField() async throws {
        let httpbin = try TestEnvironment.httpbin()
        let session = makeSession {
            $0.nameResolution.resolveOverrides = [
                try! ResolveOverride(host: "api.wick.test", port: httpbin.port, addresses: ["127.0.0.1"])
            ]
        }
        let response = await session.request("http://api.wick.test:\(httpbin.port)/headers").serializingData().response
        let headers = try #require(try httpbinJSON(response.value)["headers"] as? [String: String])
        #expect(headers["Host"] == "api.wick.test:\(httpbin.port)")
        #expect(response.metrics?.remoteAddress == "127.0.0.1:\(httpbin.port)")
        await session.shutdown()
    }

    @Test func connectToOverTLSVerifiesTheRequestsHost() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        // localhost:1 has nothing listening; the entry sends it to nginx's TLS port, whose
        // certificate is for localhost.
        let session = makeSession {
            $0.trustRoots = roots
            $0.nameResolution.connectToOverrides = [
                try! ConnectToOverride(curlArgument: "localhost:1:127.0.0.1:\(nginx.httpsPort)")
            ]
        }
        let response = await session.request("https://localhost:1/bytes/1k").serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(response.metrics?.remoteAddress == "127.0.0.1:\(nginx.httpsPort)")
        #expect(response.metrics?.tlsVersion != nil)
        await session.shutdown()
    }

    @Test func resolvingANameToTheRightAddressDoesNotMakeItsCertificateValid() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession {
            $0.trustRoots = roots
            $0.nameResolution.resolveOverrides = [
                try! ResolveOverride(host: "other.wick.test", port: nginx.httpsPort, addresses: ["127.0.0.1"])
            ]
        }
        let result = await session.request("https://other.wick.test:\(nginx.httpsPort)/bytes/1k").serializingData()
            .result
        guard case .failure(.serverTrustEvaluationFailed(let reason)) = result else {
            Issue.record("expected the certificate (for localhost) to be refused for other.wick.test, got \(result)")
            return
        }
        #expect(reason.host == "other.wick.test")
        await session.shutdown()
    }

    @Test func twoNamesOnOneAddressKeepTheirOwnConnections() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession {
            $0.nameResolution.resolveOverrides = [
                try! ResolveOverride(host: "blue.wick.test", port: nginx.httpPort, addresses: ["127.0.0.1"]),
                try! ResolveOverride(host: "green.wick.test", port: nginx.httpPort, addresses: ["127.0.0.1"]),
            ]
        }
        var reused: [Bool] = []
        for name in ["blue", "green", "blue", "green"] {
            let metrics = await session.request("http://\(name).wick.test:\(nginx.httpPort)/bytes/1k")
                .serializingData().response.metrics
            reused.append(try #require(metrics).isReused)
        }
        #expect(reused == [false, false, true, true])
        await session.shutdown()
    }

    @Test func aUsersResolverAnswersAndItsFaultsNameTheHost() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.nameResolution.resolver = ServiceDirectory() }
        let ok = await session.request("http://svc.wick.test:\(nginx.httpPort)/bytes/1k").serializingData().response
        #expect(ok.value?.count == 1_024)
        for (host, kind) in [
            ("gone.wick.test", ConnectionFailure.Kind.unknownHost), ("elsewhere.test", .resolutionFailed),
        ] {
            let result = await session.request("http://\(host):\(nginx.httpPort)/").serializingData().result
            guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
                Issue.record("\(host): expected connectionFailed, got \(result)")
                continue
            }
            #expect(failure.kind == kind, "\(host)")
            #expect(failure.description.contains(host), "\(failure)")
        }
        await session.shutdown()
    }

    @Test func throughAProxyTheCONNECTGoesToTheConnectToTarget() async throws {
        let nginx = try TestEnvironment.nginx()
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession {
            $0.trustRoots = roots
            $0.proxy = .proxy(ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port)))
            $0.nameResolution.connectToOverrides = [
                try! ConnectToOverride(curlArgument: "localhost:1:localhost:\(nginx.httpsPort)")
            ]
        }
        let response = await session.request("https://localhost:1/bytes/1k").serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(proxy.requests.first?.requestLine == "CONNECT localhost:\(nginx.httpsPort) HTTP/1.1")
        await session.shutdown()
    }
}
