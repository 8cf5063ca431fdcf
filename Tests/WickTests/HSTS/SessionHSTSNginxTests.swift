// HSTS against nginx (RFC 6797 §8): recorded from a trusted https response, then an http URL to
// the host is sent as https; never recorded from http or from an untrusted connection.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionHSTSNginxTests {
    static func roots(_ nginx: TestEnvironment.Nginx) throws -> TrustRoots {
        .certificates([try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))])
    }

    @Test func aKnownHostIsUpgradedBeforeAByteIsSent() async throws {
        let nginx = try TestEnvironment.nginx()
        let store = InMemoryHSTSStorage()
        let roots = try Self.roots(nginx)
        let session = makeSession {
            $0.trustRoots = roots
            $0.hstsStorage = store
        }
        // http to nginx's TLS port: before HSTS, nginx refuses plain http there with a 400.
        let plain = "http://localhost:\(nginx.httpsPort)/bytes/1k"
        #expect(await session.request(plain).serializingData().response.response?.statusCode == 400)
        _ = try await session.request("\(nginx.httpsBase)/hsts/1k").serializingData().value
        #expect(store.requiresHTTPS(forHost: "localhost", now: Date()))
        // §8.3: the scheme becomes https and the explicit port (not 80) is kept.
        let upgraded = session.request(plain)
        let response = await upgraded.serializingData().response
        #expect(response.response?.statusCode == 200 && response.data?.count == 1_024)
        #expect(upgraded.request?.url.absoluteString == "https://localhost:\(nginx.httpsPort)/bytes/1k")
        #expect(response.metrics?.tlsVersion != nil)
        await session.shutdown()
    }

    @Test func neverRecordedFromPlainHTTP() async throws {
        // §8.1: "the UA MUST ignore any STS header fields" received over non-secure transport.
        let nginx = try TestEnvironment.nginx()
        let store = InMemoryHSTSStorage()
        let session = makeSession { $0.hstsStorage = store }
        _ = try await session.request("http://localhost:\(nginx.httpPort)/hsts/1k").serializingData().value
        #expect(store.isEmpty)
        await session.shutdown()
    }

    @Test func neverRecordedWhenTrustWasNotEvaluated() async throws {
        // §8.1: only "if there are no underlying secure transport errors or warnings": a
        // connection accepted by DisabledTrustEvaluator records nothing.
        let nginx = try TestEnvironment.nginx()
        let store = InMemoryHSTSStorage()
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["localhost": DisabledTrustEvaluator()])) {
            $0.hstsStorage = store
            $0.trustRoots = .certificates([])
        }
        _ = try await session.request("\(nginx.httpsBase)/hsts/1k").serializingData().value
        #expect(store.isEmpty)
        await session.shutdown()
    }

    @Test func anIPLiteralIsNeverRecorded() async throws {
        let nginx = try TestEnvironment.nginx()
        let store = InMemoryHSTSStorage()
        let roots = try Self.roots(nginx)
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["127.0.0.1": DefaultTrustEvaluator(validateHost: false)])) {
            $0.hstsStorage = store
            $0.trustRoots = roots
        }
        _ = await session.request("https://127.0.0.1:\(nginx.httpsPort)/hsts/1k").serializingData().response
        #expect(store.isEmpty)
        await session.shutdown()
    }
}
