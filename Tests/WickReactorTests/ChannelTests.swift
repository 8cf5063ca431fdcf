// Channels over loopback: echo, big reads, backpressure, resets, half-close, idle peer close,
// paused reading, shutdown with connections open, and no descriptor leak over 10,000 connects.
import Synchronization
import Testing
import WickCore
import WickTestSupport

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// A connected, started client channel and the server side's blocking descriptor.
private final class Pair: Sendable {
    let group: EventLoopGroup
    let listener: TestListener
    let channel: Channel
    let recorder: Recorder
    let server: Int32
    /// Set once the test has closed `server` itself (a double close could hit a descriptor
    /// number another test's channel now owns).
    let serverClosed = Atomic<Bool>(false)

    static func make(
        options: SocketOptions = SocketOptions(), recorder: Recorder = Recorder(), startReading: Bool = true
    ) async throws -> Pair {
        let group = try makeGroup()
        let listener = try TestListener()
        let channel = try await Connector(resolver: group.resolver, options: ConnectOptions(socket: options))
            .connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        if startReading { try await start(channel, recorder) }
        return Pair(group: group, listener: listener, channel: channel, recorder: recorder, server: server)
    }

    init(group: EventLoopGroup, listener: TestListener, channel: Channel, recorder: Recorder, server: Int32) {
        self.group = group
        self.listener = listener
        self.channel = channel
        self.recorder = recorder
        self.server = server
    }

    func resetServer() {
        precondition(!serverClosed.exchange(true, ordering: .relaxed))
        TestSockets.closeWithReset(server)
    }

    func tearDown() {
        group.shutdownGracefully()
        if !serverClosed.load(ordering: .relaxed) { close(server) }
        listener.close()
    }

    func onLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await channel.loop.submit(body)
    }

    /// Sends `bytes` from the server, then resets the connection.
    func sendThenReset(_ bytes: [UInt8]) {
        TestSockets.writeAll(server, bytes)
        resetServer()
    }

    /// Waits for the channel to close, checks that exactly `bytes` were delivered before it
    /// did, and returns what the recorder saw.
    func closedAfterDelivering(_ bytes: [UInt8]) async -> Recorder.Events {
        #expect(await eventually { recorder.snapshot.closed })
        let snapshot = recorder.snapshot
        #expect(snapshot.bytes.count == bytes.count && snapshot.bytes.elementsEqual(bytes))
        return snapshot
    }

    /// Blocks the channel's loop in a task, runs `meanwhile` on this thread, and keeps the loop
    /// blocked until the client socket reports an error (`POLLERR`, at most 2 s); then runs
    /// `then` on the loop, before the loop next looks at readiness. Returns whether the error
    /// was seen.
    func holdLoopUntilTheSocketErrs(
        then: @escaping @Sendable () -> Void = {}, meanwhile: () -> Void
    ) async throws -> Bool {
        let fd = channel.fd
        let entered = Atomic<Bool>(false)
        let held = Task {
            try await onLoop { () -> Bool in
                entered.store(true, ordering: .releasing)
                // poll returns at once while the bytes alone are there: sleep between polls.
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                for _ in 0..<2_000 {
                    if poll(&poller, 1, 1) > 0 && poller.revents & Int16(POLLERR) != 0 {
                        then()
                        return true
                    }
                    usleep(1_000)
                }
                return false
            }
        }
        while !entered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        meanwhile()
        return try await held.value
    }
}

private func pattern(_ count: Int, from offset: Int = 0) -> [UInt8] {
    (offset..<offset + count).map { UInt8(truncatingIfNeeded: $0 % 251) }
}

@Suite struct ChannelTests {
    @Test func writesGatherAndRoundTrip() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        try await pair.onLoop {
            try channel.write(Array("GET / HTTP/1.1\r\n".utf8))
            try channel.write(Array("Host: x\r\n\r\n".utf8)[...])
        }
        let request = TestSockets.readToEnd(pair.server, limit: 27)
        #expect(String(decoding: request, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        TestSockets.writeAll(pair.server, Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        #expect(await eventually { pair.recorder.snapshot.bytes.count == 27 })
        #expect(try await pair.onLoop { channel.isOpen && channel.bufferedBytes == 0 && channel.isWritable })
    }

    @Test func largeResponsesArriveInBufferSizedReads() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let body = pattern(1 << 20)
        let writer = TestThread { TestSockets.writeAll(pair.server, body) }
        defer { writer.join() }
        #expect(await eventually(timeout: .seconds(10)) { pair.recorder.snapshot.bytes.count == body.count })
        let snapshot = pair.recorder.snapshot
        #expect(snapshot.bytes == body)
        #expect(snapshot.reads >= body.count / EventLoopGroup.Configuration().readBufferSize)
    }

    @Test func everyBatchOfReadsEndsWithOneReadCompleteAndABatchHoldsAtMostFourReads() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        // A small write first: one read, then its batch's end, before anything else arrives.
        TestSockets.writeAll(pair.server, pattern(100))
        #expect(await eventually { pair.recorder.snapshot.readCompletes == 1 })
        #expect(pair.recorder.snapshot.readsSinceComplete == 0)
        let body = pattern(4 << 20)
        let writer = TestThread { TestSockets.writeAll(pair.server, body) }
        defer { writer.join() }
        #expect(await eventually(timeout: .seconds(10)) { pair.recorder.snapshot.bytes.count == 100 + body.count })
        #expect(await eventually { pair.recorder.snapshot.readsSinceComplete == 0 })
        let snapshot = pair.recorder.snapshot
        #expect(snapshot.readCompletes >= 2 && snapshot.readCompletes <= snapshot.reads)
        #expect(snapshot.largestBatch <= Channel.maximumReadsPerWakeup)
    }

    @Test func aSlowReaderBoundsBufferingAndWritabilityComesBack() async throws {
        let options = SocketOptions(highWatermark: 64 * 1024, lowWatermark: 16 * 1024, maximumBufferedBytes: 1 << 20)
        let pair = try await Pair.make(options: options)
        defer { pair.tearDown() }
        let channel = pair.channel
        let written = Atomic<Int>(0)
        // Write while writable, one loop task at a time, until the kernel is full and the channel
        // holds more than the high watermark.
        var blocked = false
        for _ in 0..<10_000 where !blocked {
            blocked = try await pair.onLoop {
                while channel.isWritable {
                    let chunk = pattern(16 * 1024, from: written.load(ordering: .relaxed))
                    try channel.write(chunk)
                    written.add(chunk.count, ordering: .relaxed)
                }
                return channel.bufferedBytes > options.highWatermark
            }
            if !blocked { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(blocked)
        let buffered = try await pair.onLoop { channel.bufferedBytes }
        #expect(buffered <= options.highWatermark + 16 * 1024, "buffering stays near the high watermark")
        // The hard bound: exactly up to maximumBufferedBytes is accepted, one byte more is not.
        try await pair.onLoop {
            let room = options.maximumBufferedBytes - channel.bufferedBytes
            let fill = pattern(room, from: written.load(ordering: .relaxed))
            try channel.write(fill)
            written.add(room, ordering: .relaxed)
            #expect(throws: ReactorError.writeBufferFull(limit: options.maximumBufferedBytes)) {
                try channel.write([0])
            }
        }
        let total = written.load(ordering: .relaxed)
        let received = TestSockets.readToEnd(pair.server, limit: total)
        #expect(received.count == total)
        #expect(received == pattern(total))
        // Writability alternates false, true, false, ... and ends writable once the reader caught up.
        #expect(await eventually { pair.recorder.snapshot.writability.last == true })
        let changes = pair.recorder.snapshot.writability
        #expect(changes.enumerated().allSatisfy { index, writable in writable == (index % 2 == 1) })
    }

    @Test func aResetWhileWritingFailsTheChannel() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        let chunk = pattern(256 * 1024)
        try await pair.onLoop { try channel.write(chunk) }
        pair.resetServer()
        for _ in 0..<200 {
            let open = try await pair.onLoop { () -> Bool in
                guard channel.isOpen else { return false }
                if channel.isWritable { try? channel.write(chunk) }
                return true
            }
            if !open { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let error = pair.recorder.snapshot.closeError
        #expect(error == .connectionReset || error == .brokenPipe, "closed with \(String(describing: error))")
        let rejected = try await pair.onLoop { () -> Bool in
            do throws(ReactorError) { try channel.write([1]) } catch { return error == .channelClosed }
            return false
        }
        #expect(rejected)
    }

    @Test func aResetWhileReadingFailsTheChannel() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        TestSockets.writeAll(pair.server, pattern(1000))
        pair.resetServer()
        #expect(await eventually { pair.recorder.snapshot.closed })
        #expect(pair.recorder.snapshot.closeError == .connectionReset)
    }

    // A reset does not take back what the peer sent before it: the bytes stay readable in the
    // kernel's queue (Linux's tcp_recvmsg hands them out before it reports the error). A server
    // that answers and then resets (one that closes with unread request bytes, RFC 9112 §9.6's
    // reason for a lingering close) must not cost the client its response.

    @Test func bytesSentBeforeAResetAreDeliveredBeforeTheError() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        // The loop is held until the data and the reset have both arrived, so one readiness
        // event reports them together (EPOLLIN | EPOLLERR | EPOLLHUP).
        #expect(try await pair.holdLoopUntilTheSocketErrs { pair.sendThenReset(pattern(1000)) })
        let snapshot = await pair.closedAfterDelivering(pattern(1000))
        #expect(snapshot.readCompletes == 1, "the bytes' batch ends before the channel closes")
        #expect(snapshot.closeError == .connectionReset)
    }

    @Test func aFailedWriteStillDeliversWhatThePeerSentBeforeItsReset() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        // Held as above, then a write: its flush at the end of the same iteration fails before
        // the loop looks at readiness, as an upload does when the server answered 413 and reset.
        let held = try await pair.holdLoopUntilTheSocketErrs(
            then: { _ = try? channel.write(pattern(100)) }, meanwhile: { pair.sendThenReset(pattern(1000)) })
        #expect(held)
        let snapshot = await pair.closedAfterDelivering(pattern(1000))
        #expect(snapshot.closeError == .connectionReset || snapshot.closeError == .brokenPipe)
    }

    @Test func aResetWhileReadingIsPausedWaitsForReadingToResume() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        try await pair.onLoop { channel.pauseReading() }
        pair.sendThenReset(pattern(1000))
        try await Task.sleep(for: .milliseconds(50))
        // Paused: nothing read, nothing reported, and the loop does not spin on the error.
        #expect(!pair.recorder.snapshot.closed)
        #expect(pair.recorder.snapshot.bytes.isEmpty)
        try await pair.onLoop { channel.resumeReading() }
        #expect(await pair.closedAfterDelivering(pattern(1000)).closeError == .connectionReset)
    }

    @Test func halfCloseSendsFinAndTheChannelClosesWhenBothSidesAreDone() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        try await pair.onLoop {
            try channel.write(Array("request".utf8))
            try channel.shutdownWrite()
            #expect(throws: ReactorError.outputClosed) { try channel.write([1]) }
        }
        // readToEnd returns at EOF: the FIN arrived after the request.
        #expect(TestSockets.readToEnd(pair.server) == Array("request".utf8))
        TestSockets.writeAll(pair.server, Array("response".utf8))
        shutdown(pair.server, Int32(SHUT_WR))
        #expect(await eventually { pair.recorder.snapshot.closed })
        let snapshot = pair.recorder.snapshot
        #expect(snapshot.bytes == Array("response".utf8))
        #expect(snapshot.eof)
        #expect(snapshot.closeError == nil)
    }

    @Test func aPeerCloseIsSeenOnAnIdleConnection() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        shutdown(pair.server, Int32(SHUT_WR))
        #expect(await eventually { pair.recorder.snapshot.eof })
        #expect(try await pair.onLoop { pair.channel.isOpen }, "our write side is still open")
        try await pair.onLoop { pair.channel.close() }
        #expect(pair.recorder.snapshot.closed && pair.recorder.snapshot.closeError == nil)
    }

    @Test func pausedReadingDeliversNothingAndAHangupWhilePausedDoesNotSpin() async throws {
        let pair = try await Pair.make()
        defer { pair.tearDown() }
        let channel = pair.channel
        try await pair.onLoop { channel.pauseReading() }
        TestSockets.writeAll(pair.server, pattern(100))
        shutdown(pair.server, Int32(SHUT_WR))
        // Our FIN too: the socket is now hung up in both directions while reading is paused.
        try await pair.onLoop { try channel.shutdownWrite() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(pair.recorder.snapshot.reads == 0)
        #expect(try await pair.onLoop { channel.loop.registrationCount } == 0, "parked: out of epoll while paused")
        try await pair.onLoop { channel.resumeReading() }
        #expect(await eventually { pair.recorder.snapshot.closed })
        let snapshot = pair.recorder.snapshot
        #expect(snapshot.bytes == pattern(100))
        #expect(snapshot.eof && snapshot.closeError == nil)
    }

    @Test func startingAfterTheChannelClosedReportsTheClosure() async throws {
        let pair = try await Pair.make(startReading: false)
        defer { pair.tearDown() }
        let channel = pair.channel
        try await pair.onLoop { channel.close() }
        let late = Recorder()
        try await start(channel, late)
        #expect(late.snapshot.closed && late.snapshot.closeError == nil)
    }

    @Test func shutdownClosesOpenChannelsAndTheirDescriptors() async throws {
        let group = try makeGroup()
        let listener = try TestListener()
        defer { listener.close() }
        let connector = Connector(resolver: group.resolver)
        var recorders: [Recorder] = []
        var servers: [Int32] = []
        var descriptors: [Int32] = []
        for _ in 0..<5 {
            let channel = try await connector.connect(to: listener.address, on: group.next())
            let recorder = Recorder()
            try await start(channel, recorder)
            recorders.append(recorder)
            servers.append(try #require(listener.accept()))
            descriptors.append(channel.fd)
        }
        defer { for fd in servers { close(fd) } }
        group.shutdownGracefully()
        for recorder in recorders {
            #expect(recorder.snapshot.closed && recorder.snapshot.closeError == .loopShutDown)
        }
        // The peers see the connections close.
        for fd in servers { #expect(TestSockets.readToEnd(fd, timeout: .seconds(2)).isEmpty) }
    }

    @Test func tenThousandConnectCloseCyclesLeakNoDescriptor() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener(backlog: 1024)
        defer { listener.close() }
        let stop = Atomic<Bool>(false)
        let acceptor = TestThread {
            while !stop.load(ordering: .relaxed) {
                if let fd = listener.accept(timeout: .milliseconds(20)) { close(fd) }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            acceptor.join()
        }
        let cycles = 10_000
        let loop = group.next()
        let connector = Connector(resolver: group.resolver)
        let failures = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Int, any Error>) in
            CycleDriver(connector: connector, loop: loop, address: listener.address, remaining: cycles) {
                continuation.resume(returning: $0)
            }.begin()
        }
        #expect(failures == 0)
        // Exact whatever other suites open meanwhile: no client socket to the listener remains.
        #expect(OpenSockets.connected(toPort: Int(listener.port)) == 0)
        #expect(try await loop.submit { loop.registrationCount } == 0)
    }
}

/// Connects, waits for the server's close, closes, and repeats, all on the loop.
private final class CycleDriver: ChannelDelegate, Sendable {
    let connector: Connector
    let loop: EventLoop
    let address: SocketAddress
    let remaining: Atomic<Int>
    let failures = Atomic<Int>(0)
    let done: @Sendable (Int) -> Void

    init(
        connector: Connector, loop: EventLoop, address: SocketAddress, remaining: Int,
        done: @escaping @Sendable (Int) -> Void
    ) {
        self.connector = connector
        self.loop = loop
        self.address = address
        self.remaining = Atomic(remaining)
        self.done = done
    }

    func begin() {
        connector.connect(to: address, on: loop) { result in
            switch result {
            case .success(let channel): channel.start(delegate: self)
            case .failure:
                self.failures.add(1, ordering: .relaxed)
                self.next()
            }
        }
    }

    private func next() {
        if remaining.subtract(1, ordering: .relaxed).newValue == 0 {
            done(failures.load(ordering: .relaxed))
        } else {
            begin()
        }
    }

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {}
    func channelReadEOF(_ channel: Channel) { channel.close() }
    func channelClosed(_ channel: Channel, error: ReactorError?) {
        if error != nil { failures.add(1, ordering: .relaxed) }
        next()
    }
}
