// Freeing OpenSSL's record buffers while a connection is idle (`releaseRecordBuffers`) loses no
// byte: the next exchange allocates them again, and a partly received record is kept.
import Testing
@_spi(WickTLSTesting) import WickTLS

@Suite struct TLSRecordBufferReleaseTests {
    /// A client and a server engine after the handshake and trust evaluation.
    static func connectedPair() async throws -> InMemoryTLS {
        let client = try await TLSEngineTests.clientContext { $0.resumesSessions = false }
        let pair = try InMemoryTLS(clientContext: client, serverContext: try await TLSEngineTests.serverContext())
        try pair.connect()
        return pair
    }

    @Test func buffersFreedBetweenExchangesAreAllocatedAgain() async throws {
        let pair = try await Self.connectedPair()
        for round in 0..<3 {
            let request = Array("request \(round)".utf8)
            try pair.client.write(request)
            #expect(try pair.readAll(pair.server).bytes == request)
            // Three records, so the client's read buffer is used more than once.
            let response = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            try pair.server.write(response)
            #expect(try pair.readAll(pair.client).bytes == response)
            pair.client.releaseRecordBuffers()
            pair.server.releaseRecordBuffers()
        }
    }

    @Test func aPartlyReceivedRecordIsKept() async throws {
        let pair = try await Self.connectedPair()
        // The session tickets the server sent after the handshake are read first.
        _ = try pair.readAll(pair.client)
        let response = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
        try pair.server.write(response)
        let ciphertext = pair.server.takePendingOutput()
        let half = ciphertext.count / 2
        pair.client.receivedFromNetwork(ciphertext[..<half])
        var bytes: [UInt8] = []
        #expect(try pair.client.read(into: &bytes) == .needsInput)
        pair.client.releaseRecordBuffers()
        pair.client.receivedFromNetwork(ciphertext[half...])
        let rest = try pair.readAll(pair.client)
        #expect(bytes + rest.bytes == response)
        #expect(!rest.closed)
    }
}
