// An in-process TLS server on a blocking loopback socket, and a recording stream delegate.
import Foundation
import Testing
import WickCore

@testable import WickReactor
@_spi(WickTLSTesting) @testable import WickTLS

/// A TLS server on 127.0.0.1 that runs the engine's server side on blocking sockets, one thread
/// per connection, and records what each connection received. Every socket call is bounded by
/// a 30 s timeout (10 s closed a handshake whose client was starved in a loaded parallel run),
/// and `stop()` interrupts them.
final class TLSTestServer: Sendable {
    /// What the server does once its handshake is done.
    enum Behaviour: Sendable {
        /// Echoes every byte until `close_notify`, which it answers.
        case echo
        /// Sends `bytes`, then `close_notify` (or not), then closes the socket.
        case send([UInt8], closeNotify: Bool)
        /// Sends `count` bytes of `TLSTestServer.pattern` in 16 KiB records, then
        /// `close_notify`, then waits for the client to close.
        case flood(count: Int)
        /// Waits `delay` without reading, then reads until the client ends.
        case readAfter(Duration)
        /// Echoes until `close_notify`, answers it, then keeps the socket open for `hold`.
        case lingerAfterClose(Duration)
        /// Sends `bytes`, waits for one byte from the client (so it has read them), then
        /// resets the connection (RST).
        case sendThenReset([UInt8])
    }

    /// What one connection saw.
    struct Connection: Sendable {
        var handshakeDone = false
        /// Application bytes received.
        var plaintext: [UInt8] = []
        /// Application-data records they came in (one `SSL_read` returns one record's bytes).
        var records = 0
        var sawCloseNotify = false
        /// Application bytes sent so far.
        var sent = 0
        /// How the connection ended: nil while running; the error text, or "ok".
        var end: String?
    }

    private struct State: Sendable {
        var connections: [Connection] = []
        var descriptors: [Int32] = []
        var stopped = false
    }

    let port: Int
    private let listener: Int32
    private let state = Locked(State())
    private let finished = Locked(0)
    private let threadCount = Locked(1)

    init(context: TLSServerContext, behaviour: Behaviour) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(listener >= 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 128) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop(context: context, behaviour: behaviour) }
    }

    deinit { stop() }

    /// The n-th connection's record (an empty one before it is accepted).
    func connection(_ index: Int) -> Connection {
        state.withLock { index < $0.connections.count ? $0.connections[index] : Connection() }
    }

    /// The application bytes the n-th connection received so far, without copying them.
    func receivedCount(_ index: Int) -> Int {
        state.withLock { index < $0.connections.count ? $0.connections[index].plaintext.count : 0 }
    }

    /// The application bytes the n-th connection sent so far.
    func sentCount(_ index: Int) -> Int {
        state.withLock { index < $0.connections.count ? $0.connections[index].sent : 0 }
    }

    var acceptedConnections: Int { state.withLock { $0.connections.count } }

    /// Waits until the n-th connection has ended; returns its record.
    func waitForEnd(of index: Int, timeout: Duration = .seconds(10)) async -> Connection {
        _ = await eventually(timeout: timeout) { connection(index).end != nil }
        return connection(index)
    }

    /// Stops accepting, interrupts every connection and waits (up to 10 s) for the threads.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            for fd in state.descriptors { shutdown(fd, Int32(SHUT_RDWR)) }
            return !state.stopped
        }
        guard first else { return }
        let deadline = Deadline.now() + .seconds(10)
        while finished.withLock({ $0 }) < threadCount.withLock({ $0 }), !deadline.hasPassed(at: .now()) {
            usleep(1_000)
        }
        close(listener)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(context: TLSServerContext, behaviour: Behaviour) {
        defer { finished.withLock { $0 += 1 } }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) == 1 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let index = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections.append(Connection())
                state.descriptors.append(fd)
                return state.connections.count - 1
            }
            guard let index else {
                close(fd)
                return
            }
            threadCount.withLock { $0 += 1 }
            Thread.detachNewThread { [self] in
                defer { finished.withLock { $0 += 1 } }
                let end: String
                do {
                    try serve(fd: fd, index: index, context: context, behaviour: behaviour)
                    end = "ok"
                } catch {
                    end = "\(error)"
                }
                state.withLock { state in
                    state.descriptors.removeAll { $0 == fd }
                    close(fd)
                    state.connections[index].end = end
                }
            }
        }
    }

    private func update(_ index: Int, _ change: (inout Connection) -> Void) {
        state.withLock { change(&$0.connections[index]) }
    }

    private struct SocketFailure: Error, CustomStringConvertible {
        let description: String
    }

    private func serve(fd: Int32, index: Int, context: TLSServerContext, behaviour: Behaviour) throws {
        let engine = try TLSEngine(serverContext: context)
        func flush() throws {
            while engine.hasPendingOutput {
                try engine.sendPendingOutput { bytes in
                    let sent = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
                    guard sent > 0 else { throw SocketFailure(description: "send: errno \(errno)") }
                    return sent
                }
            }
        }
        /// Feeds the next socket read to the engine; false at end of stream.
        func receive() throws -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw SocketFailure(description: "recv: errno \(errno)") }
            if count == 0 {
                engine.receivedEndOfStream()
                return false
            }
            engine.receivedFromNetwork(buffer[0..<count])
            return true
        }
        for round in 0... {
            guard round < 50 else { throw SocketFailure(description: "the handshake took over 50 rounds") }
            let progress = try engine.handshake()
            try flush()
            if progress == .complete { break }
            _ = try receive()
        }
        update(index) { $0.handshakeDone = true }
        switch behaviour {
        case .echo:
            try readUntilEnd(engine, index: index, flush: flush, receive: receive) { bytes in
                try engine.write(bytes)
                try flush()
            }
        case .send(let bytes, let closeNotify):
            try engine.write(bytes)
            try flush()
            update(index) { $0.sent = bytes.count }
            if closeNotify {
                engine.close()
                try flush()
                // Let the client answer before the FIN, so its close_notify is not reset.
                try readUntilEnd(engine, index: index, flush: flush, receive: receive) { _ in }
            }
        case .flood(let count):
            var sent = 0
            while sent < count {
                let size = min(16_384, count - sent)
                try engine.write(Self.pattern(size, from: sent))
                try flush()
                sent += size
                update(index) { $0.sent = sent }
            }
            engine.close()
            try flush()
            try readUntilEnd(engine, index: index, flush: flush, receive: receive) { _ in }
        case .lingerAfterClose(let hold):
            try readUntilEnd(engine, index: index, flush: flush, receive: receive) { _ in }
            sleep(hold)
        case .sendThenReset(let bytes):
            try engine.write(bytes)
            try flush()
            update(index) { $0.sent = bytes.count }
            var answer: [UInt8] = []
            for _ in 0..<100 where answer.isEmpty {
                if try engine.read(into: &answer) == .needsInput { _ = try receive() }
            }
            var value = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
        case .readAfter(let delay):
            // A small receive buffer, so that the client's queue fills soon.
            var size: Int32 = 64 * 1024
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            sleep(delay)
            try readUntilEnd(engine, index: index, flush: flush, receive: receive) { _ in }
        }
    }

    /// Reads records until `close_notify` (answered) or the end of the stream, recording them.
    private func readUntilEnd(
        _ engine: TLSEngine, index: Int, flush: () throws -> Void, receive: () throws -> Bool,
        _ onBytes: ([UInt8]) throws -> Void
    ) throws {
        for _ in 0..<100_000 {
            var bytes: [UInt8] = []
            switch try engine.read(into: &bytes) {
            case .bytes:
                update(index) {
                    $0.plaintext += bytes
                    $0.records += 1
                }
                try onBytes(bytes)
            case .needsInput:
                try flush()
                _ = try receive()
            case .closed:
                update(index) { $0.sawCloseNotify = true }
                try flush()
                return
            }
        }
    }

    /// Sleeps up to `duration`, in 5 ms steps, returning early once `stop()` is called (so
    /// that a test's teardown never waits out a long pause).
    private func sleep(_ duration: Duration) {
        let until = Deadline.now() + duration
        while !until.hasPassed(at: .now()) && !isStopped { usleep(5_000) }
    }

    /// The bytes a flood sends: position-dependent, so order and completeness can be checked.
    static func pattern(_ count: Int, from offset: Int = 0) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var position = offset % 251
        while result.count < count {
            let take = min(251 - position, count - result.count)
            result += cycle[position..<position + take]
            position = 0
        }
        return result
    }

    private static let cycle: [UInt8] = (0..<251).map { UInt8($0) }
}

/// A stream delegate that records everything, readable from any thread.
final class StreamRecorder: StreamChannelDelegate, Sendable {
    struct Events: Sendable {
        var bytes: [UInt8] = []
        var eof = false
        var writability: [Bool] = []
        var closed = false
        var error: StreamChannelError?
        /// `read`, `eof`, `closed` in the order they came (reads coalesced).
        var order: [String] = []
        /// `streamReadComplete` calls, and reads not followed by one yet.
        var readCompletes = 0
        var readsSinceComplete = 0
    }

    let events = Locked(Events())
    /// Called on the loop after each read.
    let onRead: (@Sendable (any StreamChannel, Int) -> Void)?

    init(onRead: (@Sendable (any StreamChannel, Int) -> Void)? = nil) {
        self.onRead = onRead
    }

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        let copy = bytes.withUnsafeBufferPointer { Array($0) }
        let total = events.withLock { events -> Int in
            events.bytes += copy
            events.readsSinceComplete += 1
            if events.order.last != "read" { events.order.append("read") }
            return events.bytes.count
        }
        onRead?(stream, total)
    }

    func streamReadComplete(_ stream: any StreamChannel) {
        events.withLock {
            precondition($0.readsSinceComplete > 0, "streamReadComplete without a read before it")
            $0.readCompletes += 1
            $0.readsSinceComplete = 0
        }
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        events.withLock {
            $0.eof = true
            $0.order.append("eof")
        }
    }

    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {
        events.withLock { $0.writability.append(isWritable) }
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        events.withLock {
            precondition(!$0.closed, "streamClosed twice")
            $0.closed = true
            $0.error = error
            $0.order.append("closed")
        }
    }

    var snapshot: Events { events.withLock { $0 } }

    /// The number of bytes received (without copying them, so the loop's appends stay cheap).
    var received: Int { events.withLock { $0.bytes.count } }

    /// Whether `streamClosed` came (without copying the bytes).
    var isClosed: Bool { events.withLock { $0.closed } }
}

/// Polls `condition` every millisecond until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = Deadline.now() + timeout
    while !deadline.hasPassed(at: .now()) {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
