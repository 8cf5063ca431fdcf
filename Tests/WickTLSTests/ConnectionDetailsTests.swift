// What a stream reports about itself: the engine's cipher suite, and TLSChannel.connectionDetails
// (addresses, version, cipher, OpenSSL's verify result) against nginx.
import Foundation
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor
@testable import WickTLS

@Suite struct ConnectionDetailsTests {
    @Test(arguments: [TLSVersion.v1_3, .v1_2])
    func theEngineNamesTheNegotiatedCipherSuite(version: TLSVersion) async throws {
        let pair = try InMemoryTLS(
            clientContext: try await TLSEngineTests.clientContext { $0.maximumVersion = version },
            serverContext: try await TLSEngineTests.serverContext())
        #expect(pair.client.negotiatedCipherSuite == nil)
        try pair.connect()
        let cipher = try #require(pair.client.negotiatedCipherSuite)
        #expect(cipher == pair.server.negotiatedCipherSuite)
        switch version {
        case .v1_3: #expect(cipher.hasPrefix("TLS_"), "\(cipher)")
        // OpenSSL's TLS 1.2 names: ECDHE-RSA-AES256-GCM-SHA384 and the like.
        case .v1_2: #expect(cipher.hasPrefix("ECDHE-"), "\(cipher)")
        }
    }
}

@Suite(.serialized, .enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct ConnectionDetailsNginxTests {
    @Test(arguments: [TLSVersion.v1_3, .v1_2])
    func aTLSChannelReportsItsAddressesVersionAndCipher(version: TLSVersion) async throws {
        let nginx = try TestEnvironment.nginx()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        configuration.maximumVersion = version
        let context = try TLSContext(configuration: configuration)
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let connector = TLSTestConnector(connector: Connector(resolver: group.resolver), context: context)
        let channel = try await connector.connect(host: "127.0.0.1", port: UInt16(nginx.httpsPort), on: group.next())
        let (details, again, plain) = try await channel.loop.submit {
            channel.start(delegate: StreamRecorder())
            let details = channel.connectionDetails
            channel.close()
            // Kept: the same after close, though the socket is going.
            return (details, channel.connectionDetails, channel.channel.connectionDetails)
        }
        #expect(details.remoteAddress == SocketAddress(numericHost: "127.0.0.1", port: UInt16(nginx.httpsPort)))
        let local = try #require(details.localAddress)
        #expect(local.description.hasPrefix("127.0.0.1:") && local != details.remoteAddress)
        #expect(details.tlsVersion == version)
        #expect(details.tlsCipherSuite?.isEmpty == false)
        #expect(again == details)
        // The socket under it knows its addresses, not the TLS session.
        #expect(plain.localAddress == local && plain.tlsVersion == nil && plain.tlsCipherSuite == nil)
        #expect(details.serverTrust?.openSSLVerifyResult == 0)
        #expect(details.serverTrust?.evaluator == "DefaultTrustEvaluator")
    }

    /// With no roots and `DisabledTrustEvaluator` (what `wick -k` sets up), the connection is used
    /// and its details keep the code OpenSSL found and nobody enforced: 20, no issuer found.
    @Test func aDisabledEvaluatorsConnectionKeepsOpenSSLsUnenforcedResult() async throws {
        let nginx = try TestEnvironment.nginx()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([])
        let context = try TLSContext(configuration: configuration)
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let connector = TLSTestConnector(
            connector: Connector(resolver: group.resolver), context: context,
            trustManager: ServerTrustManager(evaluators: ["127.0.0.1": DisabledTrustEvaluator()]))
        let channel = try await connector.connect(host: "127.0.0.1", port: UInt16(nginx.httpsPort), on: group.next())
        let details = try await channel.loop.submit {
            channel.start(delegate: StreamRecorder())
            defer { channel.close() }
            return channel.connectionDetails
        }
        #expect(details.serverTrust?.openSSLVerifyResult == 20)
        #expect(details.serverTrust?.evaluator == "DisabledTrustEvaluator")
    }
}
