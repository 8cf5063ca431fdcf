// TLS sessions kept in a file: a new context (a restarted client) resumes against nginx, with
// the chain the evaluators need; corrupt, foreign and expired files are empty caches.
import Foundation
import Testing
@testable import WickTLS
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct TLSSessionFileTests {
    static func configuration(_ nginx: TestEnvironment.Nginx, file: String, version: TLSVersion) throws -> TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        configuration.maximumVersion = version
        configuration.sessionFile = file
        return configuration
    }

    /// One GET over a new connection made from `context`: whether it resumed, and the chain
    /// the evaluators saw (the default evaluation must pass).
    static func fetch(_ context: TLSContext, _ nginx: TestEnvironment.Nginx) throws -> (resumed: Bool, chain: [Certificate]) {
        let connection = try LoopbackConnection(port: nginx.httpsPort)
        let engine = try TLSEngine(context: context, serverHostname: "localhost", port: nginx.httpsPort)
        try connection.handshake(engine)
        try engine.evaluateTrust(using: DefaultTrustEvaluator())
        try engine.write(Array("GET /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        try connection.send(engine.takePendingOutput())
        let response = String(decoding: try connection.readToEnd(engine), as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        engine.close()
        if engine.hasPendingOutput { try? connection.send(engine.takePendingOutput()) }
        return (engine.isSessionReused, engine.peerCertificateChain)
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("wick-sessions-\(UUID().uuidString)").path
    }

    @Test(arguments: [TLSVersion.v1_3, .v1_2])
    func aRestartedClientResumesFromTheFile(version: TLSVersion) throws {
        let nginx = try TestEnvironment.nginx()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try Self.configuration(nginx, file: path, version: version)
        let firstChain: [Certificate]
        do {
            // The first run: a full handshake; the context's end writes the file.
            let context = try TLSContext(configuration: configuration)
            let first = try Self.fetch(context, nginx)
            #expect(!first.resumed)
            firstChain = first.chain
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("wick-tls-sessions 1 -\nlocalhost:\(nginx.httpsPort) "))
        // The restart: a new context reads the file and resumes, and the evaluators see the
        // chain of the first handshake (a resumption presents none).
        let restarted = try TLSContext(configuration: configuration)
        let second = try Self.fetch(restarted, nginx)
        #expect(second.resumed)
        #expect(second.chain == firstChain && firstChain.count == 2)
    }

    @Test func aCorruptFileIsAnEmptyCache() throws {
        let nginx = try TestEnvironment.nginx()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let garbage = [
            "not a session file",
            "wick-tls-sessions 1 -\nlocalhost:1 !!!notbase64 AAAA\n",
            "wick-tls-sessions 1 -\nlocalhost:\(nginx.httpsPort) AAAA AAAA\n",
            "wick-tls-sessions 1 -\nonly-two fields\n",
        ]
        for text in garbage {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let context = try TLSContext(configuration: try Self.configuration(nginx, file: path, version: .v1_3))
            #expect(context.sessionCache?.count == 0)
            #expect(try !Self.fetch(context, nginx).resumed)
        }
    }

    @Test func sessionsOfAnotherIdentityOrPastTheirLifetimeAreDropped() throws {
        let nginx = try TestEnvironment.nginx()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try Self.configuration(nginx, file: path, version: .v1_3)
        do { _ = try Self.fetch(try TLSContext(configuration: configuration), nginx) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let anonymous = TLSSessionFile(path: path, clientIdentity: nil)
        #expect(anonymous.decode(text, now: Int(Date().timeIntervalSince1970)).count == 1)
        // A week from now the ticket (nginx gives a lifetime of at most a day) has expired.
        #expect(anonymous.decode(text, now: Int(Date().timeIntervalSince1970) + 7 * 86_400).isEmpty)
        let identity = try ClientIdentity(
            certificateChainPEM: String(contentsOf: nginx.pki.client.certificate, encoding: .utf8),
            privateKeyPEM: String(contentsOf: nginx.pki.client.privateKey, encoding: .utf8))
        #expect(TLSSessionFile(path: path, clientIdentity: identity).decode(text, now: 0).isEmpty)
    }
}
