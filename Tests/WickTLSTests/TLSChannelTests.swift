// TLS over the reactor against an in-process TLS server: handshake, echo, close_notify,
// truncation, trust failures that send nothing, timeouts by phase, evaluation off the loop,
// backpressure, and the plain channel behind the same StreamChannel abstraction.
import Foundation
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor
@_spi(WickTLSTesting) @testable import WickTLS

/// A group, a connector trusting the fixture's root, and teardown.
private struct Harness {
    let group: EventLoopGroup
    let context: TLSContext

    init(_ change: (inout TLSConfiguration) -> Void = { _ in }) async throws {
        group = try EventLoopGroup(threadCount: 1)
        context = try await TLSEngineTests.clientContext(change)
    }

    var loop: EventLoop { group.loops[0] }

    func connector(
        manager: ServerTrustManager? = nil, options: TLSConnectOptions = TLSConnectOptions(),
        connectTimeout: Duration = .seconds(10), pool: TrustEvaluationPool = .shared
    ) -> TLSTestConnector {
        TLSTestConnector(
            connector: Connector(resolver: group.resolver, options: ConnectOptions(timeout: connectTimeout)),
            context: context, trustManager: manager, options: options, evaluationPool: pool)
    }

    /// Connects and starts the channel with `recorder`.
    func open(
        port: Int, host: String = "127.0.0.1", recorder: StreamRecorder, connector: TLSTestConnector? = nil
    ) async throws -> TLSChannel {
        let channel = try await (connector ?? self.connector()).connect(host: host, port: UInt16(port), on: loop)
        try await loop.submit { channel.start(delegate: recorder) }
        return channel
    }

    func tearDown() {
        group.shutdownGracefully()
    }
}

/// An evaluator that blocks its thread until the test releases it (30 s at most), recording
/// whether that thread was an event loop's and whether it is still blocked.
private final class BlockingEvaluator: ServerTrustEvaluating {
    let loop: EventLoop
    let ranOnLoop = Locked<Bool?>(nil)
    let released = Locked(false)
    let isBlocked = Locked(false)

    init(loop: EventLoop) {
        self.loop = loop
    }

    func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        ranOnLoop.withLock { $0 = loop.inEventLoop }
        isBlocked.withLock { $0 = true }
        let deadline = Deadline.now() + .seconds(30)
        while !released.withLock({ $0 }) && !deadline.hasPassed(at: .now()) { usleep(1_000) }
        isBlocked.withLock { $0 = false }
        try DefaultTrustEvaluator().evaluate(trust, forHost: host)
    }
}

/// Runs another evaluator after a delay; not one Wick knows, so it runs on the pool.
private struct SlowEvaluator: ServerTrustEvaluating {
    let delay: Duration
    let then: any ServerTrustEvaluating

    func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        usleep(UInt32(delay.components.attoseconds / 1_000_000_000_000 + delay.components.seconds * 1_000_000))
        try then.evaluate(trust, forHost: host)
    }
}

@Suite struct TLSChannelTests {
    static func server(_ behaviour: TLSTestServer.Behaviour) async throws -> TLSTestServer {
        try TLSTestServer(context: try await TLSEngineTests.serverContext(), behaviour: behaviour)
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func handshakesEchoesAndClosesWithCloseNotify(host: String) async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let channel = try await harness.open(port: server.port, host: host, recorder: recorder)
        let negotiated = try await harness.loop.submit {
            (channel.negotiatedVersion, channel.negotiatedApplicationProtocol, channel.isSessionReused, channel.isOpen)
        }
        #expect(negotiated.0 == .v1_3 && negotiated.1 == "http/1.1" && !negotiated.2 && negotiated.3)
        let message = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try await harness.loop.submit { try channel.write(message[...]) }
        #expect(await eventually { recorder.snapshot.bytes == message })
        // Every batch of plaintext ends with streamReadComplete.
        #expect(await eventually { recorder.snapshot.readsSinceComplete == 0 })
        #expect(recorder.snapshot.readCompletes >= 1)
        try await harness.loop.submit { channel.close() }
        #expect(recorder.snapshot.closed && recorder.snapshot.error == nil && !recorder.snapshot.eof)
        #expect(try await harness.loop.submit { !channel.isOpen && !channel.isWritable })
        let seen = await server.waitForEnd(of: 0)
        #expect(seen.sawCloseNotify && seen.plaintext == message && seen.end == "ok")
        // The socket finishes once the server closes too; nothing is left registered.
        var socketClosed = false
        for _ in 0..<500 where !socketClosed {
            socketClosed = try await harness.loop.submit { !channel.channel.isOpen }
            if !socketClosed { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(socketClosed)
        #expect(try await harness.loop.submit { channel.loop.registrationCount } == 0)
    }

    /// Bytes that arrive with the end of the handshake wait, unread, until `start`.
    @Test(arguments: [true, false])
    func theServersEndIsCloseNotifyOrTruncation(closeNotify: Bool) async throws {
        let body = TLSTestServer.pattern(100_000)
        let server = try await Self.server(.send(body, closeNotify: closeNotify))
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let channel = try await harness.connector().connect(
            host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        #expect(await eventually { server.sentCount(0) == body.count })
        try await Task.sleep(for: .milliseconds(50))
        let recorder = StreamRecorder()
        try await harness.loop.submit { channel.start(delegate: recorder) }
        #expect(await eventually { recorder.snapshot.closed })
        let events = recorder.snapshot
        #expect(events.bytes == body)
        if closeNotify {
            #expect(events.order == ["read", "eof", "closed"] && events.error == nil)
            #expect(await server.waitForEnd(of: 0).sawCloseNotify, "our close_notify answers the server's")
        } else {
            // A cut stream is never an end of stream: a close-delimited body fails.
            #expect(events.order == ["read", "closed"] && events.error == .tls(.truncated))
        }
        #expect(try await harness.loop.submit { !channel.isOpen })
    }

    @Test(arguments: ["untrusted root", "key pin mismatch", "slow refusal"])
    func aRefusedServerReceivesNoApplicationByte(refusal: String) async throws {
        let fixture = try await TLSFixture.get()
        let serverContext: TLSServerContext
        var manager: ServerTrustManager?
        if refusal == "untrusted root" {
            let stranger = fixture.stranger
            serverContext = try TLSServerContext(
                certificateChain: [
                    try fixture.certificate(stranger.server), try fixture.certificate(stranger.intermediate),
                ],
                privateKeyPEM: try String(contentsOf: stranger.server.privateKey, encoding: .utf8))
        } else {
            serverContext = try await TLSEngineTests.serverContext()
            let otherKey = try fixture.certificate(fixture.client).publicKey
            let pin = PublicKeysTrustEvaluator(keys: [otherKey])
            let evaluator: any ServerTrustEvaluating =
                refusal == "slow refusal" ? SlowEvaluator(delay: .milliseconds(100), then: pin) : pin
            manager = ServerTrustManager(evaluators: ["127.0.0.1": evaluator])
        }
        let server = try TLSTestServer(context: serverContext, behaviour: .echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
            try await harness.connector(manager: manager).connect(
                host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        guard case .failure(.tls(.serverTrustFailed(let error))) = result else {
            Issue.record("expected a trust failure, got \(result)")
            return
        }
        #expect(error.host == "127.0.0.1")
        if refusal == "untrusted root" {
            #expect(error.evaluator == "DefaultTrustEvaluator" && !error.issues.isEmpty)
        } else {
            guard case .publicKeyPinningFailed = error.reason else {
                Issue.record("expected a pinning failure, got \(error)")
                return
            }
        }
        let seen = await server.waitForEnd(of: 0)
        // An inline refusal closes the socket in the iteration that queued our Finished, so
        // the server may not complete its side; a refusal from the pool comes after it did.
        #expect(seen.handshakeDone == (refusal == "slow refusal"))
        #expect(seen.plaintext.isEmpty && !seen.sawCloseNotify, "no application byte reached the server")
        #expect(seen.end != nil && seen.end != "ok", "the server saw the connection cut: \(seen.end ?? "")")
    }

    @Test func aHandshakeFailureIsReportedAsOne() async throws {
        let harness = try await Harness { $0.maximumVersion = .v1_2 }
        defer { harness.tearDown() }
        let fixture = try await TLSFixture.get()
        let modern = try TLSServerContext(
            certificateChain: try fixture.chain(fixture.valid), privateKeyPEM: try fixture.key(fixture.valid),
            minimumVersion: .v1_3)
        let server = try TLSTestServer(context: modern, behaviour: .echo)
        defer { server.stop() }
        let hangUp = try FaultServer(steps: [.readRequestHead(limit: 1), .close])
        defer { hangUp.stop() }
        for port in [server.port, hangUp.port] {
            let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
                try await harness.connector().connect(host: "127.0.0.1", port: UInt16(port), on: harness.loop)
            }
            guard case .failure(.tls(.handshakeFailed(let reason))) = result else {
                Issue.record("expected a handshake failure, got \(result)")
                continue
            }
            if port == hangUp.port { #expect(reason.contains("closed the connection during the handshake")) }
        }
        #expect(try await harness.loop.submit { harness.loop.registrationCount } == 0)
    }

    /// A channel closed before it is started sends close_notify; a later start hears the close.
    @Test func closingBeforeStartingIsClean() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let channel = try await harness.connector().connect(
            host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        let recorder = StreamRecorder()
        try await harness.loop.submit {
            channel.pauseReading()
            channel.close()
            channel.start(delegate: recorder)
        }
        #expect(recorder.snapshot.order == ["closed"] && recorder.snapshot.error == nil)
        #expect(await server.waitForEnd(of: 0).sawCloseNotify)
    }

    @Test func aHostWithoutARequiredEvaluatorFailsBeforeConnecting() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let manager = ServerTrustManager(evaluators: ["example.com": DefaultTrustEvaluator()])
        let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
            try await harness.connector(manager: manager).connect(
                host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        guard case .failure(.tls(.serverTrustFailed(let error))) = result else {
            Issue.record("expected noRequiredEvaluator, got \(result)")
            return
        }
        #expect(error.reason == ServerTrustError.Reason.noRequiredEvaluator)
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.acceptedConnections == 0)
        // Without allHostsMustBeEvaluated, an unlisted host gets default evaluation.
        let lenient = ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: [:])
        let recorder = StreamRecorder()
        let channel = try await harness.open(
            port: server.port, recorder: recorder, connector: harness.connector(manager: lenient))
        try await harness.loop.submit { channel.close() }
    }

    @Test func aSilentServerTimesOutInTheHandshakePhase() async throws {
        let server = try FaultServer(steps: [.pause(.seconds(10))])
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let started = Deadline.now()
        let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
            try await harness.connector(options: TLSConnectOptions(handshakeTimeout: .milliseconds(300)))
                .connect(host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        let elapsed = Deadline.now() - started
        guard case .failure(.tlsTimedOut(let host, let phase, let after)) = result else {
            Issue.record("expected a TLS timeout, got \(result)")
            return
        }
        #expect(host == "127.0.0.1" && phase == .handshake)
        // `elapsed` starts before the connect, so it bounds the 300 ms budget from below
        // whatever the load; `after` is the TLS phase's own time, within it. The upper bound
        // only guards against a hang.
        #expect(elapsed >= Duration.milliseconds(300) && elapsed < Duration.seconds(30))
        #expect(after > .zero && after <= elapsed)
        #expect("\(result)".contains("handshake"))
        #expect(try await harness.loop.submit { harness.loop.registrationCount } == 0)
    }

    /// The overall connect timeout also bounds the TLS phase.
    @Test func theConnectDeadlineBoundsTheHandshake() async throws {
        let server = try FaultServer(steps: [.pause(.seconds(10))])
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let started = Deadline.now()
        let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
            try await harness.connector(connectTimeout: .milliseconds(400))
                .connect(host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        guard case .failure(.tlsTimedOut(_, .handshake, _)) = result else {
            Issue.record("expected a TLS handshake timeout, got \(result)")
            return
        }
        let elapsed = Deadline.now() - started
        #expect(elapsed >= Duration.milliseconds(400) && elapsed < Duration.seconds(30), "a hang guard only")
    }

    @Test func aBlockingEvaluatorRunsOffTheLoop() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let evaluator = BlockingEvaluator(loop: harness.loop)
        let manager = ServerTrustManager(evaluators: ["127.0.0.1": evaluator])
        let connecting = Task {
            try await harness.connector(manager: manager).connect(
                host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        #expect(await eventually { evaluator.isBlocked.withLock { $0 } })
        // While the evaluation blocks its thread, the loop still answers: had the evaluation
        // run on the loop, this task could only run after it (no timing involved).
        try await harness.loop.submit {}
        #expect(evaluator.isBlocked.withLock { $0 }, "the loop answered while the evaluation was blocked")
        evaluator.released.withLock { $0 = true }
        let channel = try await connecting.value
        #expect(evaluator.ranOnLoop.withLock { $0 } == false)
        let recorder = StreamRecorder()
        try await harness.loop.submit {
            channel.start(delegate: recorder)
            try channel.write(Array("ping".utf8)[...])
        }
        #expect(await eventually { recorder.snapshot.bytes == Array("ping".utf8) })
        try await harness.loop.submit { channel.close() }
    }

    @Test func aSlowEvaluationTimesOutInTheTrustPhase() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        // Shut down only once its job is done (below), so teardown never blocks on a sleep.
        let pool = TrustEvaluationPool(threadCount: 1)
        defer { pool.shutdown() }
        let evaluator = BlockingEvaluator(loop: harness.loop)
        defer { evaluator.released.withLock { $0 = true } }
        let result = await outcome { () async throws(StreamChannelError) -> TLSChannel in
            try await harness.connector(
                manager: ServerTrustManager(evaluators: ["127.0.0.1": evaluator]),
                options: TLSConnectOptions(handshakeTimeout: .milliseconds(300)), pool: pool
            ).connect(host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        }
        evaluator.released.withLock { $0 = true }  // the timeout has fired; let the job end
        guard case .failure(.tlsTimedOut(_, .trustEvaluation, _)) = result else {
            Issue.record("expected a trust-evaluation timeout, got \(result)")
            return
        }
        let seen = await server.waitForEnd(of: 0)
        #expect(seen.plaintext.isEmpty)
        // The late result hops back to a channel that has moved on, and is dropped.
        #expect(await eventually(timeout: .seconds(30)) { pool.pendingJobs == 0 })
    }

    /// Pausing the TLS channel pauses the socket: the server's sends stall; nothing more is
    /// delivered; after resuming, every byte arrives in order, then close_notify.
    @Test func aSlowReaderHoldsTheServerBack() async throws {
        let total = 12 << 20  // the server stalls near 5.5 MiB on loopback
        let server = try await Self.server(.flood(count: total))
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let paused = Locked(false)
        let recorder = StreamRecorder { stream, received in
            if received >= 1 << 20, !paused.withLock({ $0 }) {
                paused.withLock { $0 = true }
                stream.pauseReading()
            }
        }
        let channel = try await harness.open(port: server.port, recorder: recorder)
        #expect(await eventually(timeout: .seconds(20)) { paused.withLock { $0 } })
        // Wait until the server's progress stalls (the kernel's buffers are full).
        var lastSent = -1
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            let sent = server.sentCount(0)
            if sent == lastSent { break }
            lastSent = sent
        }
        let heldAt = recorder.received
        #expect(lastSent < total, "the server is held back at \(lastSent) bytes")
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.received == heldAt, "nothing is delivered while paused")
        #expect(recorder.snapshot.readsSinceComplete == 0, "the batch that paused ended with streamReadComplete")
        let oneRead = EventLoopGroup.Configuration().readBufferSize
        #expect(heldAt < (1 << 20) + oneRead + 16_384, "at most one socket read beyond the pause")
        try await harness.loop.submit { channel.resumeReading() }
        #expect(await eventually(timeout: .seconds(60)) { recorder.isClosed })
        let events = recorder.snapshot
        #expect(events.bytes.count == total && events.bytes == TLSTestServer.pattern(total))
        #expect(events.order.suffix(2) == ["eof", "closed"] && events.error == nil)
    }

    /// Writes are bounded by the socket's maximumBufferedBytes, counting the largest record
    /// overhead: exactly the room is accepted, one byte more is refused and nothing is sent.
    @Test func writesAreBoundedAndWritabilityComesBack() async throws {
        let server = try await Self.server(.readAfter(.seconds(2)))
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let options = SocketOptions(highWatermark: 64 * 1024, lowWatermark: 16 * 1024, maximumBufferedBytes: 1 << 20)
        let tls = TLSTestConnector(
            connector: Connector(resolver: harness.group.resolver, options: ConnectOptions(socket: options)),
            context: harness.context)
        let channel = try await harness.open(port: server.port, recorder: recorder, connector: tls)
        var written = 0
        for _ in 0..<200 {
            let chunk = TLSTestServer.pattern(64 * 1024, from: written)
            let writable = try await harness.loop.submit { () throws(ReactorError) -> Bool in
                guard channel.isWritable else { return false }
                try channel.write(chunk[...])
                return true
            }
            if !writable { break }
            written += 64 * 1024
        }
        let room = try await harness.loop.submit { channel.channel.writeCapacity }
        var largest = room
        while TLSChannel.ciphertextBound(plaintext: largest) > room { largest -= 1 }
        #expect(largest > 0)
        let tooMuch = TLSTestServer.pattern(largest + 1, from: written)
        let refused = try await harness.loop.submit { () -> ReactorError? in
            do throws(ReactorError) {
                try channel.write(tooMuch[...])
                return nil
            } catch {
                return error
            }
        }
        #expect(refused == .writeBufferFull(limit: options.maximumBufferedBytes))
        let fits = Array(tooMuch.dropLast())
        try await harness.loop.submit { try channel.write(fits[...]) }
        written += largest
        #expect(recorder.snapshot.writability.first == false)
        #expect(await eventually(timeout: .seconds(20)) { recorder.snapshot.writability.last == true })
        #expect(await eventually(timeout: .seconds(20)) { server.receivedCount(0) == written })
        #expect(server.connection(0).plaintext == TLSTestServer.pattern(written))
        try await harness.loop.submit { channel.close() }
    }

    /// Plaintext written during one loop iteration is encrypted once, at its end: ten writes in
    /// one task reach the server as one record, writes in separate iterations as one each, and
    /// the echo of all of them comes back in order.
    @Test func theWritesOfOneIterationLeaveInOneRecord() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let channel = try await harness.open(port: server.port, recorder: recorder)
        let pieces = (0..<10).map { index in Array(repeating: UInt8(ascii: "a") + UInt8(index), count: 10) }
        try await harness.loop.submit {
            for piece in pieces { try channel.write(piece[...]) }
        }
        #expect(await eventually { server.receivedCount(0) == 100 })
        #expect(server.connection(0).records == 1)
        for (index, piece) in pieces.prefix(3).enumerated() {
            try await harness.loop.submit { try channel.write(piece[...]) }
            #expect(await eventually { server.receivedCount(0) == 100 + 10 * (index + 1) })
        }
        let sent = pieces.flatMap { $0 } + pieces.prefix(3).flatMap { $0 }
        #expect(server.connection(0).records == 4 && server.connection(0).plaintext == sent)
        #expect(await eventually { recorder.snapshot.bytes == sent })
        try await harness.loop.submit { channel.close() }
    }

    /// What a task writes before it closes the channel goes out before the `close_notify`.
    @Test func aWriteThenACloseInOneIterationSendsTheBytesFirst() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let channel = try await harness.open(port: server.port, recorder: recorder)
        let message = Array("the last words".utf8)
        try await harness.loop.submit {
            try channel.write(message[...])
            channel.close()
        }
        let seen = await server.waitForEnd(of: 0)
        #expect(seen.plaintext == message && seen.sawCloseNotify && seen.end == "ok")
        #expect(recorder.snapshot.closed && recorder.snapshot.error == nil)
    }

    /// `writeCapacity` counts the plaintext gathered but not yet encrypted.
    @Test func writeCapacityCountsGatheredPlaintext() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let channel = try await harness.open(port: server.port, recorder: recorder)
        let chunk = [UInt8](repeating: 7, count: 1_000)
        let capacities = try await harness.loop.submit { () throws -> [Int] in
            let before = channel.writeCapacity
            try channel.write(chunk[...])
            return [before, channel.writeCapacity]
        }
        #expect(capacities[0] > chunk.count && capacities[1] == capacities[0] - chunk.count)
        #expect(await eventually { server.receivedCount(0) == chunk.count })
        try await harness.loop.submit { channel.close() }
    }

    /// A peer that never finishes after our close_notify: the socket closes at `closeTimeout`.
    @Test func aLingeringPeerIsCutAtTheCloseTimeout() async throws {
        let server = try await Self.server(.lingerAfterClose(.seconds(5)))
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let recorder = StreamRecorder()
        let connector = harness.connector(options: TLSConnectOptions(closeTimeout: .milliseconds(200)))
        let channel = try await harness.open(port: server.port, recorder: recorder, connector: connector)
        let closedAt = Deadline.now()
        // Read in the same loop task as the close, so the check cannot race the close timeout.
        let openRightAfterClose = try await harness.loop.submit {
            channel.close()
            return channel.channel.isOpen
        }
        #expect(openRightAfterClose, "the socket waits for the peer")
        #expect(recorder.isClosed && recorder.snapshot.error == nil)
        #expect(await eventually { server.connection(0).sawCloseNotify })
        var socketOpen = true
        let giveUp = Deadline.now() + .seconds(30)
        while socketOpen && !giveUp.hasPassed(at: .now()) {
            socketOpen = try await harness.loop.submit { channel.channel.isOpen }
            if socketOpen { try await Task.sleep(for: .milliseconds(2)) }
        }
        let waited = Deadline.now() - closedAt
        #expect(!socketOpen && waited >= .milliseconds(200) && waited < .seconds(30), "the close timeout fired")
    }

    @Test func aResetAfterDataClosesWithTheResetError() async throws {
        let server = try await Self.server(.sendThenReset(Array("partial".utf8)))
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        // Answering once the bytes are read makes the server reset only after that.
        let recorder = StreamRecorder { stream, _ in try? stream.write(Array("ok".utf8)[...]) }
        _ = try await harness.open(port: server.port, recorder: recorder)
        #expect(await eventually { recorder.isClosed })
        let events = recorder.snapshot
        #expect(events.bytes == Array("partial".utf8) && !events.eof)
        #expect(events.error == .reactor(.connectionReset))
    }

    @Test func loopShutdownClosesAnActiveChannel() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        let recorder = StreamRecorder()
        _ = try await harness.open(port: server.port, recorder: recorder)
        harness.tearDown()
        #expect(recorder.snapshot.closed && recorder.snapshot.error == .reactor(.loopShutDown))
    }

    /// Reused sessions: the second connection resumes, over the reactor.
    @Test func aSecondConnectionResumes() async throws {
        let server = try await Self.server(.echo)
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        var reused: [Bool] = []
        for _ in 0..<2 {
            let recorder = StreamRecorder()
            let channel = try await harness.open(port: server.port, recorder: recorder)
            try await harness.loop.submit { try channel.write(Array("x".utf8)[...]) }
            #expect(await eventually { recorder.snapshot.bytes.count == 1 })
            reused.append(try await harness.loop.submit { channel.isSessionReused })
            try await harness.loop.submit { channel.close() }
        }
        #expect(reused == [false, true])
    }

    /// The plain channel, behind the same abstraction: the same delegate and calls.
    @Test func thePlainChannelIsAStreamChannelToo() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .send("HTTP/1.1 200 OK\r\n\r\nhello"), .close])
        defer { server.stop() }
        let harness = try await Harness()
        defer { harness.tearDown() }
        let channel: any StreamChannel = try await Connector(resolver: harness.group.resolver)
            .connect(host: "127.0.0.1", port: UInt16(server.port), on: harness.loop)
        let recorder = StreamRecorder()
        try await harness.loop.submit {
            channel.start(delegate: recorder)
            try channel.write(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...])
        }
        #expect(await eventually { recorder.snapshot.eof })
        #expect(String(decoding: recorder.snapshot.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\n\r\nhello")
        #expect(try await harness.loop.submit { channel.isOpen })
        try await harness.loop.submit { channel.close() }
        #expect(recorder.snapshot.order == ["read", "eof", "closed"] && recorder.snapshot.error == nil)
    }

    @Test func evaluationsThatMayBlockGoToThePool() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let fixture = try await TLSFixture.get()
        let quiet = try await TLSEngineTests.clientContext()
        let fetching = try TLSContext(
            configuration: quiet.configuration, revocationFetcher: StaticFetcher())
        let key = try fixture.certificate(fixture.valid).publicKey
        let cases: [(any ServerTrustEvaluating, TLSContext, TrustEvaluationSite)] = [
            (DefaultTrustEvaluator(), fetching, .inline),
            (PublicKeysTrustEvaluator(keys: [key]), fetching, .inline),
            (
                PinnedCertificatesTrustEvaluator(certificates: [try fixture.certificate(fixture.valid)]), fetching,
                .inline
            ),
            (DisabledTrustEvaluator(), fetching, .inline),
            (RevocationTrustEvaluator(), fetching, .pool),
            (RevocationTrustEvaluator(), quiet, .inline),
            (RevocationTrustEvaluator(options: [.ocsp, .networkAccessDisabled]), fetching, .inline),
            (
                CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), PublicKeysTrustEvaluator(keys: [key])]),
                fetching, .inline
            ),
            (
                CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), RevocationTrustEvaluator()]), fetching,
                .pool
            ),
            (BlockingEvaluator(loop: group.loops[0]), quiet, .pool),
        ]
        for (evaluator, context, site) in cases {
            #expect(TrustEvaluationSite.of(evaluator, context: context) == site, "\(type(of: evaluator))")
        }
    }
}

/// The result of an async throwing call.
private func outcome<T>(_ body: () async throws(StreamChannelError) -> T) async -> Result<T, StreamChannelError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

/// A fetcher that answers nothing (the site rule only asks whether one exists).
private struct StaticFetcher: RevocationFetching {
    struct Unavailable: Error {}
    func fetch(_ request: RevocationRequest) throws -> [UInt8] { throw Unavailable() }
}
