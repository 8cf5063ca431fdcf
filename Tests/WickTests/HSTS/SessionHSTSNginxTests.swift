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

/// The HSTS file shared with curl: curl records nginx's policy with `--hsts FILE` and Wick
/// reads it, then Wick saves one and curl upgrades an http URL from it.
@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct FileHSTSStorageCurlTests {
    @Test func curlAndWickShareTheFile() async throws {
        let nginx = try TestEnvironment.nginx()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-hsts-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let curlFile = directory.appendingPathComponent("curl-hsts.txt")
        try runCommand(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "--cacert", nginx.pki.root.certificate.path, "--hsts", curlFile.path,
                "\(nginx.httpsBase)/hsts/1k"])
        let read = try FileHSTSStorage(fileURL: curlFile)
        #expect(read.skippedLines == 0 && read.requiresHTTPS(forHost: "localhost", now: Date()))

        // Wick's file: curl sends http://localhost:<TLS port> as https because of it.
        let wickFile = directory.appendingPathComponent("wick-hsts.txt")
        let written = try FileHSTSStorage(fileURL: wickFile)
        written.record(StrictTransportSecurity(maxAge: 600, includesSubdomains: false), forHost: "localhost", now: Date())
        try written.save()
        let code = try runCommand(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{url_effective}", "--cacert",
                nginx.pki.root.certificate.path, "--hsts", wickFile.path, "http://localhost:\(nginx.httpsPort)/bytes/1k"])
        #expect(code.hasPrefix("200 https://"))
    }
}
