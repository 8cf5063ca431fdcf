// A TLSChannel carried inside another (an https origin through an HTTPS proxy): the outer
// session to a TLSFront, the inner one through it to an in-process TLS echo server, with no proxy
// in between, so only the carrying is tested; and the write bound a TLS carrier gives.
import Foundation
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor
@_spi(WickTLSTesting) @testable import WickTLS

/// Hands the channel to `next` from inside its first read, as a proxy's CONNECT answer does.
private final class HandingOverDelegate: StreamChannelDelegate, Sendable {
    let first = Locked<[UInt8]>([])
    let next: StreamRecorder

    init(next: StreamRecorder) {
        self.next = next
    }

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        let copy = bytes.withUnsafeBufferPointer { Array($0) }
        first.withLock { $0 += copy }
        guard let tls = stream as? TLSChannel else { preconditionFailure("a TLS channel is under test") }
        tls.detachDelegate()
        tls.start(delegate: next)
    }

    func streamReadComplete(_ stream: any StreamChannel) {
        preconditionFailure("a detached delegate's batch must not be ended")
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        preconditionFailure("a detached delegate must not hear the close")
    }
}

@Suite struct TLSInTLSTests {
    @Test func theWriteBoundOverATLSCarrierNeverOverflowsIt() {
        for capacity in [0, 1, 325, 326, 16_384, 16_709, 16_710, 65_536, 1 << 20, 4 << 20 + 17] {
            let plaintext = TLSChannel.plaintextBound(ciphertext: capacity)
            #expect(plaintext >= 0 && TLSChannel.ciphertextBound(plaintext: plaintext) <= capacity, "\(capacity)")
        }
        // Within one record's overhead of the most that could fit.
        #expect(TLSChannel.plaintextBound(ciphertext: 1 << 20) >= (1 << 20) - 65 * TLSChannel.maximumRecordOverhead)
    }

    /// The first record is the whole body: the batch it began ends with the end of the stream,
    /// which the next delegate hears without a batch end of the first one's.
    @Test func aDelegateDetachedDuringAReadHandsTheRestToTheNext() async throws {
        let body = TLSTestServer.pattern(100)
        let server = try TLSTestServer(
            context: try await TLSEngineTests.serverContext(), behaviour: .send(body, closeNotify: true))
        defer { server.stop() }
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let loop = group.loops[0]
        let connector = TLSTestConnector(
            connector: Connector(resolver: group.resolver, options: ConnectOptions(timeout: .seconds(10))),
            context: try await TLSEngineTests.clientContext())
        let channel = try await connector.connect(host: "localhost", port: UInt16(server.port), on: loop)
        let next = StreamRecorder()
        let handing = HandingOverDelegate(next: next)
        try await loop.submit { channel.start(delegate: handing) }
        #expect(await eventually { next.isClosed })
        let first = handing.first.withLock { $0 }
        #expect(first + next.snapshot.bytes == body)
        // The next delegate's events are whole: every read batch ended, then the end.
        #expect(next.snapshot.eof && next.snapshot.error == nil && next.snapshot.readsSinceComplete == 0)
    }

    @Test func anInnerSessionRunsOverAnOuterOneHandedBackUnstarted() async throws {
        let fixture = try await TLSFixture.get()
        let server = try TLSTestServer(context: try await TLSEngineTests.serverContext(), behaviour: .echo)
        defer { server.stop() }
        let front = try TLSFront(
            backendPort: server.port, certificateChain: try fixture.chain(fixture.valid),
            privateKeyPEM: try fixture.key(fixture.valid))
        defer { front.stop() }
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let loop = group.loops[0]
        let context = try await TLSEngineTests.clientContext()
        let connector = TLSTestConnector(
            connector: Connector(resolver: group.resolver, options: ConnectOptions(timeout: .seconds(10))),
            context: context)
        let outer = try await connector.connect(host: "localhost", port: UInt16(front.port), on: loop)
        // Started and handed back, as a proxy's CONNECT does before the origin's TLS.
        let first = StreamRecorder()
        try await loop.submit {
            outer.start(delegate: first)
            outer.detachDelegate()
        }
        let inner = try await withCheckedThrowingContinuation { continuation in
            loop.execute {
                do {
                    let engine = try TLSEngine(context: context, serverHostname: "localhost", port: server.port)
                    TLSChannel.establish(
                        over: outer, engine: engine, evaluator: DefaultTrustEvaluator(), deadline: .now() + .seconds(10)
                    ) { continuation.resume(with: $0) }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        let recorder = StreamRecorder()
        let (version, description, bounds) = try await loop.submit {
            inner.start(delegate: recorder)
            return (inner.negotiatedVersion, inner.description, (inner.writeCapacity, outer.writeCapacity))
        }
        #expect(version == .v1_3)
        #expect(description.hasPrefix("TLSChannel(localhost over TLSChannel(localhost over Channel("))
        #expect(bounds.0 < bounds.1 && bounds.0 > 0, "the inner session's records cost the outer's overhead too")
        // Several records each way, through both sessions.
        let message = TLSTestServer.pattern(200_000)
        try await loop.submit { try inner.write(message[...]) }
        #expect(await eventually(timeout: .seconds(20)) { recorder.received == message.count })
        #expect(recorder.snapshot.bytes == message)
        #expect(first.snapshot.bytes.isEmpty && !first.snapshot.closed, "a detached delegate hears nothing more")
        // What crossed the front was the inner session's ciphertext: more than the plaintext.
        #expect(front.relayedBytes > 2 * message.count)
        try await loop.submit { inner.close() }
        #expect(recorder.snapshot.closed && recorder.snapshot.error == nil)
        let seen = await server.waitForEnd(of: 0)
        #expect(seen.sawCloseNotify && seen.plaintext == message)
        #expect(try await loop.submit { !outer.isOpen }, "the inner close ends the outer session too")
    }
}
