// The client engine against an in-memory server: handshake, data, close, resumption, mTLS, SNI.
import Foundation
import Synchronization
import Testing
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

@Suite struct TLSEngineTests {
    /// A client trusting only the fixture's root.
    static func clientContext(_ change: (inout TLSConfiguration) -> Void = { _ in }) async throws -> TLSContext {
        let fixture = try await TLSFixture.get()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([try fixture.root()])
        change(&configuration)
        return try TLSContext(configuration: configuration)
    }

    /// A server for `leaf`, sending leaf + intermediate.
    static func serverContext(
        _ leaf: KeyPath<TLSFixture, TestPKI.Identity> = \.valid, clientRoots: Bool = false,
        staple: [UInt8]? = nil, maximumVersion: TLSVersion? = nil
    ) async throws -> TLSServerContext {
        let fixture = try await TLSFixture.get()
        let identity = fixture[keyPath: leaf]
        return try TLSServerContext(
            certificateChain: try fixture.chain(identity), privateKeyPEM: try fixture.key(identity),
            clientCertificateRoots: clientRoots ? [try fixture.root()] : nil, stapledOCSPResponse: staple,
            maximumVersion: maximumVersion)
    }

    @Test(arguments: [false, true])
    func handshakesAndExchangesDataBothWays(byteAtATime: Bool) async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext(), byteAtATime: byteAtATime)
        try pair.connect()
        #expect(pair.client.negotiatedVersion == .v1_3)
        #expect(pair.client.negotiatedApplicationProtocol == "http/1.1")
        #expect(pair.client.peerCertificateChain.map(\.subject) == ["CN=localhost", "CN=Wick Test Intermediate CA"])
        #expect(!pair.client.isSessionReused)

        try pair.client.write(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(try pair.readAll(pair.server).bytes == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        let body = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try pair.server.write(body)
        let received = try pair.readAll(pair.client)
        #expect(received.bytes == body && !received.closed)
    }

    /// A driver whose socket takes a few bytes at a time still delivers everything, in order.
    @Test func partialSendsKeepTheRestPending() async throws {
        let pair = try InMemoryTLS(clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext())
        try pair.connect()
        let message = [UInt8]((0..<5_000).map { UInt8(truncatingIfNeeded: $0) })
        try pair.client.write(message)
        var wire: [UInt8] = []
        for _ in 0..<10_000 where pair.client.hasPendingOutput {
            pair.client.sendPendingOutput { bytes in
                let count = min(7, bytes.count)
                wire.append(contentsOf: bytes.prefix(count))
                return count
            }
        }
        #expect(!pair.client.hasPendingOutput)
        pair.client.sendPendingOutput { _ in
            Issue.record("nothing is pending"); return 0
        }
        struct Refused: Error {}
        try pair.client.write([1])
        #expect(throws: Refused.self) { try pair.client.sendPendingOutput { _ in throw Refused() } }
        wire += pair.client.takePendingOutput()
        pair.server.receivedFromNetwork(wire)
        var plaintext: [UInt8] = []
        for _ in 0..<100 { if try pair.server.read(into: &plaintext) == .needsInput { break } }
        #expect(plaintext == message + [1])
    }

    /// A read that finds nothing buffered answers `.needsInput` without asking OpenSSL; what
    /// OpenSSL holds (a record decrypted but not all read, a record only partly received) is
    /// still read out, a byte at a time if the caller's space is one byte.
    @Test(arguments: [false, true])
    func plaintextOpenSSLHoldsIsReadBeforeNeedsInput(byteAtATime: Bool) async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext(),
            byteAtATime: byteAtATime)
        try pair.connect()
        #expect(try pair.readAll(pair.client).bytes.isEmpty)
        let message = Array("hello, one byte at a time".utf8)
        try pair.server.write(message)
        pair.flush()
        var received: [UInt8] = []
        var ended = false
        for _ in 0..<1_000 where !ended {
            switch try pair.client.read(into: &received, maximumCount: 1) {
            case .bytes(let count): #expect(count == 1)
            case .needsInput, .closed: ended = true
            }
        }
        #expect(received == message)
        // Nothing more arrived: asked again, the engine still needs input, and then reads what comes.
        #expect(try pair.client.read(into: &received) == .needsInput)
        try pair.server.write(Array("more".utf8))
        #expect(try pair.readAll(pair.client).bytes == Array("more".utf8))
    }

    @Test func speaksTLS12WhenThatIsTheMaximum() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.maximumVersion = .v1_2 }, serverContext: try await Self.serverContext()
        )
        try pair.connect()
        #expect(pair.client.negotiatedVersion == .v1_2)
        #expect(pair.client.negotiatedApplicationProtocol == "http/1.1")
    }

    @Test func refusesAServerBelowTheMinimumVersion() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.minimumVersion = .v1_3 },
            serverContext: try await Self.serverContext(maximumVersion: .v1_2))
        #expect {
            try pair.handshake()
        } throws: { error in
            if case .handshakeFailed = error as? TLSError { true } else { false }
        }
    }

    @Test func sendsSNIForNamesAndNeverForIPLiterals() async throws {
        for (host, expected) in [("localhost", "localhost"), ("127.0.0.1", nil), ("::1", nil), ("[::1]", nil)] {
            let pair = try InMemoryTLS(
                clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext(), host: host)
            try pair.connect()
            #expect(pair.server.requestedServerName == expected, "host \(host)")
        }
    }

    @Test func cleanCloseIsClosedAndEOFWithoutCloseNotifyIsTruncation() async throws {
        let pair = try InMemoryTLS(clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext())
        try pair.connect()
        try pair.server.write(Array("partial".utf8))
        pair.server.close()
        let clean = try pair.readAll(pair.client)
        #expect(clean.bytes == Array("partial".utf8) && clean.closed)
        // The client answered close_notify with its own.
        #expect(try pair.readAll(pair.server).closed)

        let cut = try InMemoryTLS(clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext())
        try cut.connect()
        try cut.server.write(Array("partial".utf8))
        cut.flush()
        cut.client.receivedEndOfStream()
        var bytes: [UInt8] = []
        #expect(try cut.client.read(into: &bytes) == .bytes(7))
        #expect(throws: TLSError.truncated) { try cut.client.read(into: &bytes) }
        // The error sticks.
        #expect(throws: TLSError.truncated) { try cut.client.read(into: &bytes) }
    }

    @Test func theServerHangingUpMidHandshakeIsAHandshakeFailure() async throws {
        let pair = try InMemoryTLS(clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext())
        #expect(try pair.client.handshake() == .needsInput)
        pair.client.receivedEndOfStream()
        #expect {
            try pair.client.handshake()
        } throws: { error in
            error as? TLSError == .handshakeFailed("the peer closed the connection during the handshake")
        }
    }

    @Test(arguments: [TLSVersion.v1_3, .v1_2])
    func reconnectionsResumeTheSession(version: TLSVersion) async throws {
        let context = try await Self.clientContext { $0.maximumVersion = version }
        let server = try await Self.serverContext()
        let first = try InMemoryTLS(clientContext: context, serverContext: server, port: 8443)
        try first.connect()
        #expect(!first.client.isSessionReused)
        try first.server.write(Array("hello".utf8))  // TLS 1.3 tickets arrive after the handshake
        _ = try first.readAll(first.client)

        let second = try InMemoryTLS(clientContext: context, serverContext: server, port: 8443)
        try second.connect()
        #expect(second.client.isSessionReused)
        // A resumed session still shows the chain, and evaluation still ran on it.
        #expect(second.client.peerCertificateChain.count == 2)

        let otherPort = try InMemoryTLS(clientContext: context, serverContext: server, port: 9443)
        try otherPort.connect()
        #expect(!otherPort.client.isSessionReused)
    }

    @Test func aConnectionDroppedWithoutCloseNotifyIsNotResumed() async throws {
        let context = try await Self.clientContext()
        let server = try await Self.serverContext()
        do {
            let first = try InMemoryTLS(clientContext: context, serverContext: server)
            try first.connect()
            try first.server.write([1])
            _ = try first.readAll(first.client)
        }
        #expect(try !Self.resumes(context, server, port: 443))
        #expect(try Self.resumes(context, server, port: 443))
    }

    @Test func aSessionIsNotCachedWhenTrustFails() async throws {
        let context = try await Self.clientContext()
        let server = try await Self.serverContext(\.expired)
        let first = try InMemoryTLS(clientContext: context, serverContext: server)
        #expect(throws: TLSError.self) { try first.connect() }
        first.flush()
        let second = try InMemoryTLS(clientContext: context, serverContext: server)
        #expect(throws: TLSError.self) { try second.connect() }
        #expect(!second.client.isSessionReused)
    }

    @Test func resumptionCanBeTurnedOff() async throws {
        let context = try await Self.clientContext { $0.resumesSessions = false }
        let server = try await Self.serverContext()
        for _ in 0..<2 {
            let pair = try InMemoryTLS(clientContext: context, serverContext: server)
            try pair.connect()
            try pair.server.write(Array("x".utf8))
            _ = try pair.readAll(pair.client)
            #expect(!pair.client.isSessionReused)
        }
    }

    @Test func mutualTLSAcceptsTheClientIdentity() async throws {
        let fixture = try await TLSFixture.get()
        let chainPEM =
            try String(contentsOf: fixture.client.certificate, encoding: .utf8)
            + String(contentsOf: fixture.pki.intermediate.certificate, encoding: .utf8)
        let identity = try ClientIdentity(certificateChainPEM: chainPEM, privateKeyPEM: try fixture.key(fixture.client))
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.clientIdentity = identity },
            serverContext: try await Self.serverContext(clientRoots: true))
        try pair.connect()
        try pair.client.write(Array("ping".utf8))
        #expect(try pair.readAll(pair.server).bytes == Array("ping".utf8))
        #expect(pair.server.peerCertificateChain.first?.subject == "CN=client.wick.test")
    }

    @Test func mutualTLSRefusesAClientWithoutIdentity() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext(clientRoots: true))
        // TLS 1.3: the client finishes first; the server then refuses and says so with an alert.
        #expect(try pair.client.handshake() == .needsInput)
        pair.flush()
        #expect(try pair.server.handshake() == .needsInput)
        pair.flush()
        #expect(try pair.client.handshake() == .complete)
        try pair.client.evaluateTrust(using: nil)
        pair.flush()
        #expect(throws: TLSError.self) { try pair.server.handshake() }
        pair.flush()
        #expect {
            _ = try pair.readAll(pair.client)
        } throws: { error in
            guard case .protocolError(let reason) = error as? TLSError else { return false }
            return reason.contains("certificate required")
        }
    }

    @Test func aClientIdentityWhoseKeyDoesNotMatchIsRefused() async throws {
        let fixture = try await TLSFixture.get()
        let chainPEM = try String(contentsOf: fixture.client.certificate, encoding: .utf8)
        #expect {
            try ClientIdentity(certificateChainPEM: chainPEM, privateKeyPEM: try fixture.key(fixture.valid))
        } throws: { error in
            if case .invalidPrivateKey = error as? CertificateError { true } else { false }
        }
    }

    @Test func aPKCS12IdentityLoads() async throws {
        let fixture = try await TLSFixture.get()
        let archive = fixture.pki.directory.appendingPathComponent("client.p12")
        try runCommand(
            "/usr/bin/openssl",
            [
                "pkcs12", "-export", "-in", fixture.client.certificate.path, "-inkey", fixture.client.privateKey.path,
                "-certfile", fixture.pki.intermediate.certificate.path, "-passout", "pass:secret", "-out", archive.path,
            ])
        let bytes = Array(try Data(contentsOf: archive))
        let identity = try ClientIdentity(pkcs12: bytes, passphrase: "secret")
        #expect(identity.certificateChain.map(\.subject) == ["CN=client.wick.test", "CN=Wick Test Intermediate CA"])
        #expect(throws: CertificateError.self) { try ClientIdentity(pkcs12: bytes, passphrase: "wrong") }
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.clientIdentity = identity },
            serverContext: try await Self.serverContext(clientRoots: true))
        try pair.connect()
        try pair.client.write(Array("ping".utf8))
        #expect(try pair.readAll(pair.server).bytes == Array("ping".utf8))
    }

    @Test func theStapledResponseReachesTheClient() async throws {
        let fixture = try await TLSFixture.get()
        let staple = Array(try fixture.authority.ocspResponse(for: fixture.valid))
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext(), serverContext: try await Self.serverContext(staple: staple))
        try pair.connect()
        #expect(pair.client.stapledOCSPResponse == staple)

        let unasked = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.requestsOCSPStapling = false },
            serverContext: try await Self.serverContext(staple: staple))
        try unasked.connect()
        #expect(unasked.client.stapledOCSPResponse == nil)
    }

    @Test func theKeyLogGetsTheSecretsOnlyWhenAsked() async throws {
        let lines = Mutex<[String]>([])
        let log = TLSKeyLog { line in lines.withLock { $0.append(line) } }
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.keyLog = log }, serverContext: try await Self.serverContext())
        try pair.connect()
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.hasPrefix("CLIENT_HANDSHAKE_TRAFFIC_SECRET ") })
        #expect(logged.contains { $0.hasPrefix("CLIENT_TRAFFIC_SECRET_0 ") })
    }

    @Test func theKeyLogFileAppendsLines() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wick-keylog-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try #require(TLSKeyLog.appending(toFileAtPath: path))
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.keyLog = log }, serverContext: try await Self.serverContext())
        try pair.connect()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count >= 5)
        #expect(TLSKeyLog.appending(toFileAtPath: "/nonexistent/dir/keylog") == nil)
    }

    @Test func invalidSettingsAreRefusedWithTheSettingNamed() async throws {
        await #expect {
            _ = try await Self.clientContext { $0.cipherList = "NO-SUCH-CIPHER" }
        } throws: { error in
            guard case .invalidConfiguration(let reason) = error as? TLSError else { return false }
            return reason.contains("NO-SUCH-CIPHER")
        }
        await #expect {
            _ = try await Self.clientContext { $0.cipherSuites = "TLS_NOPE" }
        } throws: { error in
            guard case .invalidConfiguration(let reason) = error as? TLSError else { return false }
            return reason.contains("TLS_NOPE")
        }
        await #expect {
            _ = try await Self.clientContext {
                $0.minimumVersion = .v1_3; $0.maximumVersion = .v1_2
            }
        } throws: { error in
            if case .invalidConfiguration = error as? TLSError { true } else { false }
        }
    }

    @Test func restrictedCipherSuitesAreTheOnesNegotiated() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await Self.clientContext { $0.cipherSuites = "TLS_CHACHA20_POLY1305_SHA256" },
            serverContext: try await Self.serverContext())
        try pair.connect()
        try pair.client.write([1, 2, 3])
        #expect(try pair.readAll(pair.server).bytes == [1, 2, 3])
    }

    /// Connects to `port`, reading once so TLS 1.3 tickets arrive; whether it resumed.
    static func resumes(_ context: TLSContext, _ server: TLSServerContext, port: Int) throws -> Bool {
        let pair = try InMemoryTLS(clientContext: context, serverContext: server, port: port)
        try pair.connect()
        try pair.server.write([1])
        _ = try pair.readAll(pair.client)
        // A session whose connection is dropped without close_notify is "bad" to OpenSSL and
        // is not resumed; a driver closes its connections.
        pair.client.close()
        pair.server.close()
        return pair.client.isSessionReused
    }

    /// The cache holds `sessionCacheCapacity` host:port entries; one more forgets the oldest.
    @Test(arguments: [1, 2])
    func theSessionCacheForgetsTheOldestBeyondItsCapacity(capacity: Int) async throws {
        let context = try await Self.clientContext { $0.sessionCacheCapacity = capacity }
        let server = try await Self.serverContext()
        for port in 1...capacity { #expect(try !Self.resumes(context, server, port: port)) }
        // At capacity: every entry is still there.
        #expect(try Self.resumes(context, server, port: 1))
        // One more entry evicts the oldest key (port 1; refreshing an entry keeps its place).
        #expect(try !Self.resumes(context, server, port: capacity + 1))
        for port in 2...(capacity + 1) { #expect(try Self.resumes(context, server, port: port)) }
        #expect(try !Self.resumes(context, server, port: 1))
    }

    @Test func connectionsOnManyThreadsShareOneContext() async throws {
        let context = try await Self.clientContext()
        let server = try await Self.serverContext()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                for round in 0..<4 {
                    let resumed = try Self.resumes(context, server, port: index)
                    if resumed != (round > 0) {
                        failures.withLock { $0.append("thread \(index) round \(round): resumed \(resumed)") }
                    }
                }
            } catch {
                failures.withLock { $0.append("thread \(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
