// nginx and httpbin, as Scripts/test starts them, answer from a test.
import Foundation
import Testing
import WickTestSupport

@Suite struct RealServerTests {
    @Test(.enabled(if: TestEnvironment.wantsNginx)) func nginxServesAFileOverPlainHTTP() throws {
        let nginx = try TestEnvironment.nginx()
        let client = try LoopbackClient(port: nginx.httpPort)
        defer { client.close() }
        client.send("GET /bytes/1k HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let (bytes, _, _) = client.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Length: 1024\r\n"))
        #expect(Array(bytes.suffix(1_024)) == TestPayload.bytes(count: 1_024))
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx)) func nginxCertificateChainsToTheTestRoot() throws {
        let nginx = try TestEnvironment.nginx()
        let output = try runCommand(
            "/usr/bin/openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(nginx.httpsPort)", "-servername", "localhost",
                "-CAfile", nginx.pki.root.certificate.path, "-verify_return_error", "-brief",
            ],
            timeout: .seconds(10))
        #expect(output.contains("Verification: OK"))
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin)) func httpbinEchoesARequest() throws {
        let httpbin = try TestEnvironment.httpbin()
        let client = try LoopbackClient(port: httpbin.port)
        defer { client.close() }
        client.send("GET /get?wick=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let text = String(decoding: client.readToEnd().bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("\"wick\": \"1\""))
    }
}
