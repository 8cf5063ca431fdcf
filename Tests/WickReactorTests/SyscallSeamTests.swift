// The channel's data path driven by a scripted kernel (SocketIO), plus the syscall wrappers and
// the errno classification on real descriptors.
import CWickSystem
import Synchronization
import Testing
import WickCore
import WickTestSupport

@_spi(WickSocketSeam) @testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted kernel for one channel: each read or write takes the next step of its script; an
/// exhausted script reads `.wouldBlock` and writes everything. Every write call is recorded.
final class ScriptedKernel: Sendable {
    enum ReadStep: Sendable {
        case bytes([UInt8])
        case wouldBlock
        case endOfFile
        case error(Int32)
    }

    enum WriteStep: Sendable {
        case accept(Int)
        case wouldBlock
        case error(Int32)
    }

    struct WriteCall: Equatable {
        var vectors: Int
        var offered: [UInt8]
        var accepted: Int
    }

    private struct State {
        var reads: [ReadStep] = []
        var writes: [WriteStep] = []
        var readCalls = 0
        var writeCalls: [WriteCall] = []
        var shutdowns = 0
    }

    private let state = Locked(State())

    func script(reads: [ReadStep] = [], writes: [WriteStep] = []) {
        state.withLock {
            $0.reads += reads
            $0.writes += writes
        }
    }

    var readCalls: Int { state.withLock { $0.readCalls } }
    var writeCalls: [WriteCall] { state.withLock { $0.writeCalls } }
    var shutdowns: Int { state.withLock { $0.shutdowns } }
    var unusedReads: Int { state.withLock { $0.reads.count } }

    var io: SocketIO {
        SocketIO(
            read: { (_, buffer) throws(SyscallError) -> IOResult<Int> in
                let step = self.state.withLock { state -> ReadStep in
                    state.readCalls += 1
                    return state.reads.isEmpty ? .wouldBlock : state.reads.removeFirst()
                }
                switch step {
                case .bytes(let bytes):
                    precondition(bytes.count <= buffer.count, "script step larger than the read buffer")
                    buffer.copyBytes(from: bytes)
                    return .processed(bytes.count)
                case .wouldBlock: return .wouldBlock
                case .endOfFile: return .processed(0)
                case .error(let code): throw SyscallError(call: "read", errno: code)
                }
            },
            write: { (_, vectors) throws(SyscallError) -> IOResult<Int> in
                var offered: [UInt8] = []
                for vector in vectors {
                    offered += UnsafeRawBufferPointer(start: vector.iov_base, count: vector.iov_len)
                }
                let step = self.state.withLock { state -> WriteStep in
                    state.writes.isEmpty ? .accept(.max) : state.writes.removeFirst()
                }
                let accepted: Int
                switch step {
                case .accept(let count): accepted = min(count, offered.count)
                case .wouldBlock: accepted = 0
                case .error: accepted = 0
                }
                self.state.withLock {
                    $0.writeCalls.append(WriteCall(vectors: vectors.count, offered: offered, accepted: accepted))
                }
                switch step {
                case .accept: return .processed(accepted)
                case .wouldBlock: return .wouldBlock
                case .error(let code): throw SyscallError(call: "sendmsg", errno: code)
                }
            },
            shutdownWrite: { (_) throws(SyscallError) in self.state.withLock { $0.shutdowns += 1 } },
            pendingError: { (_) throws(SyscallError) in 0 }
        )
    }
}

/// A channel whose descriptor is one end of a real socket pair (so epoll accepts it) but whose
/// reads and writes go to a `ScriptedKernel`.
private final class ScriptedChannel: Sendable {
    let group: EventLoopGroup
    let kernel = ScriptedKernel()
    let channel: Channel
    let recorder = Recorder()
    let peer: Int32

    init(options: SocketOptions = SocketOptions(), readBufferSize: Int = 64 * 1024) async throws {
        group = try EventLoopGroup(configuration: .init(threadCount: 1, readBufferSize: readBufferSize))
        var fds: [Int32] = [0, 0]
        #expect(
            socketpair(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0,
                &fds) == 0)
        peer = fds[1]
        let loop = group.next()
        let io = kernel.io
        let (fd, recorder) = (fds[0], self.recorder)
        channel = try await loop.submit {
            let channel = Channel(fd: fd, loop: loop, remoteAddress: .unix(path: "scripted"), options: options, io: io)
            try loop.register(fd: fd, interest: 0, handler: channel)
            channel.start(delegate: recorder)
            return channel
        }
    }

    /// Delivers readiness `events` to the channel as the loop would.
    func ready(_ events: UInt32) async throws {
        let channel = self.channel
        try await channel.loop.submit { channel.readinessChanged(events) }
    }

    func onLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await channel.loop.submit(body)
    }

    func tearDown() {
        group.shutdownGracefully()
        close(peer)
    }
}

@Suite struct SyscallSeamTests {
    @Test func aReadOfSevenBytesThenEAGAINDeliversSevenBytesOnce() async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        scripted.kernel.script(reads: [.bytes(Array("seven!!".utf8)), .wouldBlock])
        try await scripted.ready(Epoll.readable)
        #expect(scripted.recorder.snapshot.bytes == Array("seven!!".utf8))
        #expect(scripted.kernel.readCalls == 1, "a short read means drained: no second read")
        try await scripted.ready(Epoll.readable)
        #expect(scripted.kernel.readCalls == 2)
        let snapshot = scripted.recorder.snapshot
        #expect(snapshot.reads == 1 && !snapshot.closed, "EAGAIN is not an error")
    }

    @Test func fullReadsContinueUpToTheFairnessLimit() async throws {
        let scripted = try await ScriptedChannel(readBufferSize: 8)
        defer { scripted.tearDown() }
        let reads = (0..<(Channel.maximumReadsPerWakeup + 1)).map {
            ScriptedKernel.ReadStep.bytes([UInt8](repeating: UInt8($0), count: 8))
        }
        scripted.kernel.script(reads: reads)
        try await scripted.ready(Epoll.readable)
        #expect(scripted.recorder.snapshot.reads == Channel.maximumReadsPerWakeup)
        #expect(scripted.kernel.unusedReads == 1, "the rest waits for the next readiness event")
        try await scripted.ready(Epoll.readable)
        #expect(scripted.recorder.snapshot.reads == Channel.maximumReadsPerWakeup + 1)
    }

    @Test(arguments: [
        (ECONNRESET, ReactorError.connectionReset),
        (ETIMEDOUT, .timedOut),
        (EHOSTUNREACH, .hostUnreachable),
        (EIO, .system(call: "read", errno: EIO)),
    ])
    func readErrorsCloseTheChannelWithTheirCase(code: Int32, expected: ReactorError) async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        scripted.kernel.script(reads: [.bytes([1, 2, 3]), .error(code)])
        try await scripted.ready(Epoll.readable)
        try await scripted.ready(Epoll.readable)
        let snapshot = scripted.recorder.snapshot
        #expect(snapshot.bytes == [1, 2, 3])
        #expect(snapshot.closed && snapshot.closeError == expected)
        #expect(try await scripted.onLoop { scripted.channel.loop.registrationCount } == 0)
    }

    @Test func endOfFileThenOurShutdownClosesCleanly() async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        scripted.kernel.script(reads: [.endOfFile])
        try await scripted.ready(Epoll.readable | Epoll.readHangup)
        #expect(scripted.recorder.snapshot.eof && !scripted.recorder.snapshot.closed)
        let channel = scripted.channel
        try await scripted.onLoop { try channel.shutdownWrite() }
        // The shutdown happens in the end-of-iteration flush, after the task.
        #expect(await eventually { scripted.recorder.snapshot.closed })
        #expect(scripted.kernel.shutdowns == 1)
        #expect(scripted.recorder.snapshot.closed && scripted.recorder.snapshot.closeError == nil)
    }

    @Test func writesInOneIterationLeaveInOneGatheredCall() async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        let channel = scripted.channel
        try await scripted.onLoop {
            try channel.write(Array("head ".utf8))
            try channel.write(Array("body ".utf8))
            try channel.write(Array("tail".utf8))
        }
        #expect(await eventually { !scripted.kernel.writeCalls.isEmpty })
        #expect(scripted.kernel.writeCalls == [.init(vectors: 3, offered: Array("head body tail".utf8), accepted: 14)])
    }

    @Test(arguments: [Channel.maximumVectorsPerWrite, Channel.maximumVectorsPerWrite + 1])
    func gatheredWritesCarryAtMostTheVectorLimit(slices: Int) async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        let channel = scripted.channel
        try await scripted.onLoop {
            for index in 0..<slices { try channel.write([UInt8(truncatingIfNeeded: index)]) }
        }
        let expectedCalls = slices <= Channel.maximumVectorsPerWrite ? 1 : 2
        #expect(await eventually { scripted.kernel.writeCalls.count == expectedCalls })
        let calls = scripted.kernel.writeCalls
        #expect(calls.map(\.vectors) == (expectedCalls == 1 ? [slices] : [Channel.maximumVectorsPerWrite, 1]))
        #expect(calls.flatMap(\.offered) == (0..<slices).map { UInt8(truncatingIfNeeded: $0) })
    }

    @Test func aPartialWriteThenEAGAINResumesOnWritability() async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        let channel = scripted.channel
        scripted.kernel.script(writes: [.accept(3), .wouldBlock])
        try await scripted.onLoop {
            try channel.write(Array("abcde".utf8))
            try channel.write(Array("fghij".utf8))
        }
        // The short write made the channel wait for EPOLLOUT; the real socket is writable, so the
        // loop calls back at once: the script says EAGAIN, then (exhausted) takes the rest.
        #expect(await eventually { scripted.kernel.writeCalls.count == 3 })
        let calls = scripted.kernel.writeCalls
        #expect(calls[0] == .init(vectors: 2, offered: Array("abcdefghij".utf8), accepted: 3))
        #expect(calls[1] == .init(vectors: 2, offered: Array("defghij".utf8), accepted: 0))
        #expect(calls[2] == .init(vectors: 2, offered: Array("defghij".utf8), accepted: 7))
        #expect(try await scripted.onLoop { channel.bufferedBytes } == 0)
    }

    @Test(arguments: [(EPIPE, ReactorError.brokenPipe), (ECONNRESET, .connectionReset), (ENOBUFS, .outOfResources)])
    func writeErrorsCloseTheChannelWithTheirCase(code: Int32, expected: ReactorError) async throws {
        let scripted = try await ScriptedChannel()
        defer { scripted.tearDown() }
        scripted.kernel.script(writes: [.error(code)])
        let channel = scripted.channel
        try await scripted.onLoop { try channel.write([1, 2, 3]) }
        #expect(await eventually { scripted.recorder.snapshot.closed })
        let snapshot = scripted.recorder.snapshot
        #expect(snapshot.closed && snapshot.closeError == expected)
    }

    @Test func watermarksAndTheBufferLimitAreExactAtNAndNPlusOne() async throws {
        let options = SocketOptions(highWatermark: 50, lowWatermark: 10, maximumBufferedBytes: 100)
        let scripted = try await ScriptedChannel(options: options)
        defer { scripted.tearDown() }
        let channel = scripted.channel
        // Keep everything queued: the kernel takes nothing until the script runs out.
        scripted.kernel.script(writes: [.wouldBlock])
        try await scripted.onLoop {
            try channel.write([UInt8](repeating: 0, count: 50))
            #expect(channel.isWritable, "at the high watermark: still writable")
            try channel.write([0])
            #expect(!channel.isWritable, "one byte over: not writable")
            try channel.write([UInt8](repeating: 0, count: 49))
            #expect(channel.bufferedBytes == 100)
            #expect(throws: ReactorError.writeBufferFull(limit: 100)) { try channel.write([0]) }
            #expect(channel.bufferedBytes == 100, "a refused write queues nothing")
        }
        #expect(await eventually { scripted.recorder.snapshot.writability == [false, true] })
        #expect(scripted.recorder.snapshot.writabilityAt == [51, 0])
        #expect(try await scripted.onLoop { channel.bufferedBytes } == 0)
    }

    @Test func lowWatermarkIsInclusive() async throws {
        let options = SocketOptions(highWatermark: 20, lowWatermark: 10, maximumBufferedBytes: 100)
        let scripted = try await ScriptedChannel(options: options)
        defer { scripted.tearDown() }
        let channel = scripted.channel
        // 30 queued; the kernel takes 19 (11 left: not yet writable), then 1 (10 left: writable).
        scripted.kernel.script(writes: [.wouldBlock, .accept(19), .wouldBlock, .accept(1), .wouldBlock])
        try await scripted.onLoop { try channel.write([UInt8](repeating: 7, count: 30)) }
        #expect(await eventually { scripted.recorder.snapshot.writability == [false, true] })
        #expect(scripted.recorder.snapshot.writabilityAt == [30, 10])
    }
}

@Suite struct ChannelRandomWriteTests {
    /// Random writes against a kernel that randomly takes part of what it is offered or would
    /// block: whatever the interleaving, the bytes the kernel accepts are exactly the bytes
    /// written, in order; the buffer never exceeds its limit; writability alternates.
    @Test(arguments: 0..<30)
    func bytesArriveInOrderWhateverTheKernelTakes(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let options = SocketOptions(highWatermark: 64, lowWatermark: 16, maximumBufferedBytes: 256)
        let scripted = try await ScriptedChannel(options: options)
        defer { scripted.tearDown() }
        let channel = scripted.channel
        var written: [UInt8] = []
        for step in 0..<60 {
            var steps: [ScriptedKernel.WriteStep] = []
            for _ in 0..<Int(random.next() % 4) {
                steps.append(random.next() % 3 == 0 ? .wouldBlock : .accept(Int(random.next() % 40)))
            }
            scripted.kernel.script(writes: steps)
            let chunks = (0..<Int(random.next() % 4)).map { index in
                (0..<Int(random.next() % 50)).map { UInt8(truncatingIfNeeded: step &* 31 &+ index &* 7 &+ $0) }
            }
            let accepted = try await scripted.onLoop { () -> [UInt8] in
                var accepted: [UInt8] = []
                for chunk in chunks {
                    do throws(ReactorError) {
                        try channel.write(chunk)
                        accepted += chunk
                    } catch {
                        #expect(error == .writeBufferFull(limit: 256))
                        #expect(channel.bufferedBytes + chunk.count > 256)
                    }
                    #expect(channel.bufferedBytes <= 256)
                }
                return accepted
            }
            written += accepted
        }
        #expect(await eventually { scripted.kernel.writeCalls.reduce(0) { $0 + $1.accepted } == written.count })
        var received: [UInt8] = []
        for call in scripted.kernel.writeCalls {
            // Every call offers the unsent remainder first: nothing skipped, nothing repeated.
            #expect(
                Array(call.offered.prefix(written.count - received.count))
                    == Array(written[received.count...].prefix(call.offered.count)))
            received += call.offered.prefix(call.accepted)
        }
        #expect(received == written)
        let changes = scripted.recorder.snapshot.writability
        #expect(changes.enumerated().allSatisfy { index, writable in writable == (index % 2 == 1) })
        #expect(try await scripted.onLoop { channel.bufferedBytes == 0 && channel.isWritable })
    }
}

@Suite struct SyscallTests {
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    /// The two reads of a socket: `read`, and `recv`, which a channel reads its socket with.
    enum SocketRead: CaseIterable, Sendable {
        case read, receive

        func callAsFunction(_ fd: Int32, _ buffer: inout [UInt8]) throws -> IOResult<Int> {
            switch self {
            case .read: try buffer.withUnsafeMutableBytes { try Syscalls.read(fd, $0) }
            case .receive: try buffer.withUnsafeMutableBytes { try Syscalls.receive(fd, $0) }
            }
        }
    }

    @Test(arguments: SocketRead.allCases)
    func aReadIsWouldBlockThenBytesThenEndOfFile(_ read: SocketRead) throws {
        let (a, b) = try socketPair()
        defer { close(a) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try read(a, &buffer) == .wouldBlock)
        _ = write(b, "hi", 2)
        #expect(try read(a, &buffer) == .processed(2))
        #expect(buffer.prefix(2) == [UInt8(ascii: "h"), UInt8(ascii: "i")])
        close(b)
        #expect(try read(a, &buffer) == .processed(0))
    }

    @Test func writingToAClosedPeerIsBrokenPipeNotSIGPIPE() throws {
        let (a, b) = try socketPair()
        defer { close(a) }
        close(b)
        var bytes: [UInt8] = [1, 2, 3]
        let error = #expect(throws: SyscallError.self) {
            try bytes.withUnsafeMutableBytes { raw in
                var vector = iovec(iov_base: raw.baseAddress, iov_len: raw.count)
                return try withUnsafeMutablePointer(to: &vector) {
                    try Syscalls.sendmsg(a, UnsafeMutableBufferPointer(start: $0, count: 1))
                }
            }
        }
        #expect(error == SyscallError(call: "sendmsg", errno: EPIPE))
        #expect(error.map(ReactorError.init) == .brokenPipe)
    }

    /// The socket's own writes: one buffer goes by `send`, more by `sendmsg`; both deliver the
    /// bytes in order and turn a closed peer into `EPIPE`, not SIGPIPE.
    @Test(arguments: [1, 2])
    func theSystemWriteSendsOneBufferAndGathersMore(buffers: Int) throws {
        let (a, b) = try socketPair()
        defer { close(a) }
        // Two bytes per buffer, each vector a piece of one array, all used inside its closure.
        var bytes = (0..<buffers).flatMap { [UInt8(ascii: "a") + UInt8($0), UInt8(ascii: "A") + UInt8($0)] }
        let expected = bytes
        func write() throws -> IOResult<Int> {
            try bytes.withUnsafeMutableBytes { raw in
                var vectors = (0..<buffers).map { iovec(iov_base: raw.baseAddress! + 2 * $0, iov_len: 2) }
                return try vectors.withUnsafeMutableBufferPointer { (pointer) throws(SyscallError) in
                    try SocketIO.system.write(a, pointer)
                }
            }
        }
        #expect(try write() == .processed(2 * buffers))
        var received = [UInt8](repeating: 0, count: 8)
        #expect(try received.withUnsafeMutableBytes { try Syscalls.receive(b, $0) } == .processed(2 * buffers))
        #expect(Array(received.prefix(2 * buffers)) == expected)
        close(b)
        let error = #expect(throws: SyscallError.self) { try write() }
        #expect(error == SyscallError(call: buffers == 1 ? "send" : "sendmsg", errno: EPIPE))
    }

    @Test func aClosedDescriptorIsABugAndTraps() async {
        await #expect(processExitsWith: .failure) {
            var buffer = [UInt8](repeating: 0, count: 4)
            _ = try? buffer.withUnsafeMutableBytes { try Syscalls.read(-1, $0) }
        }
    }

    @Test func eventfdCountsAndDrains() throws {
        let fd = try Syscalls.eventfd()
        defer { close(fd) }
        #expect(try Syscalls.eventfdRead(fd) == .wouldBlock)
        _ = try Syscalls.eventfdWrite(fd, 2)
        _ = try Syscalls.eventfdWrite(fd, 3)
        #expect(try Syscalls.eventfdRead(fd) == .processed(5))
    }

    @Test func failuresNameTheCallAndErrno() {
        #expect(throws: SyscallError(call: "setsockopt", errno: ENOTSOCK)) {
            let fd = try Syscalls.eventfd()
            defer { close(fd) }
            try Syscalls.setSocketOption(fd, level: SOL_SOCKET, name: SO_KEEPALIVE, value: 1)
        }
        #expect(SyscallError(call: "connect", errno: ECONNREFUSED).description.hasPrefix("connect failed: errno 111"))
    }

    @Test(arguments: [
        (ECONNREFUSED, ReactorError.connectionRefused), (ECONNRESET, .connectionReset),
        (ECONNABORTED, .connectionAborted), (EPIPE, .brokenPipe), (EHOSTUNREACH, .hostUnreachable),
        (EHOSTDOWN, .hostUnreachable), (ENETUNREACH, .networkUnreachable), (ENETDOWN, .networkUnreachable),
        (ETIMEDOUT, .timedOut), (EADDRINUSE, .addressInUse), (EADDRNOTAVAIL, .addressNotAvailable),
        (EAFNOSUPPORT, .addressFamilyNotSupported), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
        (EMFILE, .tooManyOpenFiles), (ENFILE, .tooManyOpenFiles), (ENOBUFS, .outOfResources),
        (ENOMEM, .outOfResources), (EAGAIN, .unixSocketUnavailable), (ENOENT, .unixSocketUnavailable),
        (EPROTO, .system(call: "connect", errno: EPROTO)),
    ])
    func connectErrnosMapToSpecificCases(code: Int32, expected: ReactorError) {
        #expect(ReactorError(connectErrno: code) == expected)
    }

    @Test func addressesRoundTripThroughSockaddr() throws {
        for address in [
            SocketAddress(numericHost: "192.0.2.7", port: 8080)!, SocketAddress(numericHost: "2001:db8::7", port: 443)!,
        ] {
            let back = try address.withSockAddr { pointer, length in SocketAddress(pointer, length: length) }
            #expect(back == address)
        }
        #expect(SocketAddress(numericHost: "192.0.2.7", port: 8080)!.description == "192.0.2.7:8080")
        #expect(SocketAddress(numericHost: "::1", port: 443)!.description == "[::1]:443")
        #expect(SocketAddress.unix(path: "/run/a.sock").description == "unix:/run/a.sock")
        #expect(throws: ReactorError.self) {
            try SocketAddress.ipv4(bytes: [1, 2, 3], port: 1).withSockAddr { _, _ in 0 }
        }
        let longest = String(repeating: "p", count: SocketAddress.maximumUnixPathLength)
        #expect(try SocketAddress.unix(path: longest).withSockAddr { _, length in length } > 0)
        #expect(throws: ReactorError.self) { try SocketAddress.unix(path: longest + "p").withSockAddr { _, _ in 0 } }
    }
}
