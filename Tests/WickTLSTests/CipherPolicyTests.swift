// RFC 9325 §4.1 and RFC 8996: the suites and versions a client offers, and servers it must refuse.
import Foundation
import Testing
import WickTestSupport

@_spi(WickTLSTesting) @testable import WickTLS

@Suite struct CipherPolicyTests {
    /// One line of `openssl ciphers -v`: the TLS 1.2 suites a list expands to, with their key
    /// exchange, authentication, encryption and MAC.
    struct Suite: CustomStringConvertible {
        var name, kx, au, enc, mac: String
        var description: String { name }
    }

    static func tls12Suites(_ list: String) throws -> [Suite] {
        try runCommand("/usr/bin/openssl", ["ciphers", "-v", list]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 6, fields[1] != "TLSv1.3" else { return nil }
            func value(_ key: String) -> String {
                fields.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } ?? ""
            }
            return Suite(name: fields[0], kx: value("Kx"), au: value("Au"), enc: value("Enc"), mac: value("Mac"))
        }
    }

    /// RFC 9325 §4.1: forward secrecy ("SHOULD NOT negotiate cipher suites based on RSA key
    /// transport") and §4.2's AEAD suites; so by default every TLS 1.2 suite is ECDHE with AEAD.
    @Test func theDefaultListIsForwardSecretAEADOnly() async throws {
        let list = TLSCipherPolicy.cipherList(for: TLSConfiguration())
        let suites = try await onOwnThread { try Self.tls12Suites(list) }
        #expect(!suites.isEmpty)
        for suite in suites {
            #expect(suite.kx == "ECDH" && suite.mac == "AEAD", "\(suite.name): Kx=\(suite.kx) Mac=\(suite.mac)")
        }
        #expect(suites.contains { $0.name == "ECDHE-RSA-AES128-GCM-SHA256" })
        #expect(suites.contains { $0.name == "ECDHE-ECDSA-CHACHA20-POLY1305" })
    }

    /// RFC 9325 §4.1: "MUST NOT negotiate the cipher suites with NULL encryption", "MUST NOT
    /// negotiate RC4 cipher suites", "MUST NOT negotiate cipher suites offering less than 112
    /// bits of security"; 3DES ("SHOULD NOT ... less than 128 bits"), anonymous and static or
    /// finite-field DH suites go too, whatever list the caller gives, the widened one included.
    @Test(arguments: [nil, "ALL:COMPLEMENTOFALL", "eNULL:aNULL:RC4:3DES:DES:EXPORT:LOW:kDHE"])
    func forbiddenSuitesAreNeverOffered(list: String?) async throws {
        var configuration = TLSConfiguration()
        configuration.cipherList = list
        configuration.allowsLegacyCipherSuites = true
        let expanded = TLSCipherPolicy.cipherList(for: configuration)
        guard list?.hasPrefix("eNULL") != true else {
            // Nothing is left of a list of forbidden suites: the context refuses it.
            #expect(throws: TLSError.self) { try TLSContext(configuration: configuration) }
            return
        }
        let suites = try await onOwnThread { try Self.tls12Suites(expanded) }
        #expect(!suites.isEmpty)
        for suite in suites {
            #expect(
                !["None", "RC4(128)", "3DES(168)", "DES(56)"].contains(suite.enc) && suite.au != "None"
                    && !["DH", "ECDH/ECDSA", "ECDH/RSA"].contains(suite.kx) && !suite.name.hasPrefix("DHE-"),
                "\(suite.name) offered by \(expanded)")
        }
        if list == nil { #expect(suites.contains { $0.kx == "RSA" }, "the legacy list adds static RSA") }
    }

    /// A server whose only TLS 1.2 suites are static RSA key transport.
    static func staticRSAServer(_ suites: String = "kRSA+AESGCM:kRSA+AES") async throws -> TLSServerContext {
        let fixture = try await TLSFixture.get()
        return try TLSServerContext(
            certificateChain: try fixture.chain(fixture.rsa2048), privateKeyPEM: try fixture.key(fixture.rsa2048),
            maximumVersion: .v1_2, cipherList: suites)
    }

    /// RFC 9325 §4.1 ("SHOULD NOT negotiate cipher suites based on RSA key transport, a.k.a.
    /// 'static RSA'"): refused by default, with an error that says why and what widens it.
    @Test(arguments: ["kRSA+AESGCM:kRSA+AES", "ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA384"])
    func aServerWithoutForwardSecretAEADSuitesIsRefused(suites: String) async throws {
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext(),
            serverContext: try await Self.staticRSAServer(suites))
        // The server gives up first (no shared cipher); its alert then reaches the client.
        #expect(throws: TLSError.self) { try pair.handshake() }
        pair.flush()
        let error = try #require(throws: TLSError.self) { _ = try pair.client.handshake() }
        guard case .handshakeFailed(let reason) = error else {
            Issue.record("expected a handshake failure, got \(error)")
            return
        }
        #expect(reason.contains("RFC 9325") && reason.contains("allowsLegacyCipherSuites"), "\(reason)")
    }

    /// The named leniency: with `allowsLegacyCipherSuites` the same server is accepted.
    @Test func allowsLegacyCipherSuitesAcceptsStaticRSA() async throws {
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext { $0.allowsLegacyCipherSuites = true },
            serverContext: try await Self.staticRSAServer())
        try pair.connect()
        #expect(pair.client.negotiatedCipherSuite == "AES256-GCM-SHA384")
    }

    /// The same against a real TLS stack: `openssl s_server` offering static RSA only.
    @Test func opensslServerOfferingOnlyStaticRSAIsRefused() async throws {
        let fixture = try await TLSFixture.get()
        let server = try await OpenSSLServer.start(
            certificate: fixture.rsa2048, chain: fixture.pki.intermediate,
            arguments: ["-tls1_2", "-cipher", "AES128-GCM-SHA256:AES256-SHA"])
        let context = try await TLSEngineTests.clientContext()
        let error = try await #require(throws: TLSError.self) {
            try await server.handshake(context) { $0.negotiatedCipherSuite }
        }
        #expect(error.description.contains("RFC 9325"), "\(error)")
        let legacy = try await TLSEngineTests.clientContext { $0.allowsLegacyCipherSuites = true }
        #expect(try await server.handshake(legacy) { $0.negotiatedCipherSuite } == "AES128-GCM-SHA256")
    }

    /// RFC 8996 §5: "TLS 1.1 MUST NOT be used" (§4 says the same of TLS 1.0): a server that
    /// speaks nothing newer is refused, and the error says so.
    @Test(arguments: ["-tls1", "-tls1_1"])
    func opensslServerSpeakingOnlyAnOldVersionIsRefused(version: String) async throws {
        let fixture = try await TLSFixture.get()
        let server = try await OpenSSLServer.start(
            certificate: fixture.valid, chain: fixture.pki.intermediate,
            arguments: [version, "-cipher", "ALL:@SECLEVEL=0"])
        let context = try await TLSEngineTests.clientContext()
        let error = try await #require(throws: TLSError.self) {
            try await server.handshake(context) { $0.negotiatedVersion }
        }
        #expect(error.description.contains("RFC 8996"), "\(error)")
    }
}
