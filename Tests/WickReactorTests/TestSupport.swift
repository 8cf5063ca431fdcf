// Loopback test servers (plain blocking sockets on their own threads), a recording channel
// delegate, and small waiting helpers for the reactor's tests.
import CWickSystem
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 or ::1 with an ephemeral port, driven by blocking calls.
final class TestListener: Sendable {
    enum Family { case ipv4, ipv6 }

    let fd: Int32
    let address: SocketAddress
    var port: UInt16 {
        switch address {
        case .ipv4(_, let port), .ipv6(_, let port, _): port
        case .unix: 0
        }
    }

    /// Listens with `backlog` (0 or 1 makes an accept queue that a test can fill); with
    /// `listens` false, only binds, so connections to the port are refused.
    init(_ family: Family = .ipv4, backlog: Int32 = 128, listens: Bool = true) throws {
        let domain = family == .ipv4 ? AF_INET : AF_INET6
        let fd = socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        self.fd = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let host = family == .ipv4 ? "127.0.0.1" : "::1"
        let loopback = SocketAddress(numericHost: host, port: 0)!
        let bound = try loopback.withSockAddr { pointer, length in bind(fd, pointer, length) }
        guard bound == 0, !listens || listen(fd, backlog) == 0 else {
            Glibc.close(fd)
            throw TestFailure("cannot listen on \(host): errno \(cwick_errno())")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        address = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length)! }
        }
    }

    /// Accepts one connection, waiting at most `timeout`; `nil` on timeout.
    func accept(timeout: Duration = .seconds(5)) -> Int32? {
        guard TestSockets.waitReadable(fd, timeout: timeout) else { return nil }
        let client = Glibc.accept(fd, nil, nil)
        return client >= 0 ? client : nil
    }

    func close() {
        Glibc.close(fd)
    }

    /// Whether ::1 can be bound on this machine (IPv6 loopback present).
    static let hasIPv6Loopback: Bool = {
        guard let listener = try? TestListener(.ipv6) else { return false }
        listener.close()
        return true
    }()

    /// A port on `family`'s loopback where nothing listens: bound and never listening, and held
    /// until the process exits, so that no server another test starts can take it (a port that
    /// is closed again can be, and then a connect meant to be refused succeeds).
    static func refusingAddress(_ family: Family) throws -> SocketAddress {
        let refuser = try TestListener(family, listens: false)
        heldRefusers.withLock { $0.append(refuser) }
        return refuser.address
    }

    private static let heldRefusers = Locked<[TestListener]>([])
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Blocking socket helpers for test servers.
enum TestSockets {
    static func waitReadable(_ fd: Int32, timeout: Duration) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return poll(&poller, 1, milliseconds) == 1
    }

    /// Reads until EOF, an error or `limit` bytes; returns the bytes.
    static func readToEnd(_ fd: Int32, limit: Int = .max, timeout: Duration = .seconds(10)) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Deadline.now() + timeout
        while result.count < limit, !deadline.hasPassed(at: .now()) {
            guard waitReadable(fd, timeout: .milliseconds(100)) else { continue }
            let count = buffer.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress, min($0.count, limit - result.count))
            }
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return }
            offset += count
        }
    }

    /// Makes `close(fd)` send a reset instead of a FIN.
    static func closeWithReset(_ fd: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(fd)
    }

    /// A raw client socket connected (or connecting, non-blocking) to `address`; tests use it to
    /// fill a listener's accept queue.
    static func connectNonBlocking(_ address: SocketAddress) -> Int32 {
        let fd = socket(
            address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0)
        _ = try? address.withSockAddr { pointer, length in Glibc.connect(fd, pointer, length) }
        return fd
    }
}

/// Runs `body` on a new thread; `join()` waits for it.
final class TestThread: Sendable {
    private let thread: Locked<JoinableThread?>
    init(_ body: @escaping @Sendable () -> Void) {
        thread = Locked(JoinableThread(name: "wick-test", body))
    }
    func join() {
        thread.withLock { $0.take() }?.join()
    }
}

/// A channel delegate that records everything, readable from any thread.
final class Recorder: ChannelDelegate, Sendable {
    struct Events {
        var bytes: [UInt8] = []
        var reads = 0
        /// `channelReadComplete` calls, and reads since the last one.
        var readCompletes = 0
        var readsSinceComplete = 0
        /// The most reads one batch (between two `channelReadComplete`) held.
        var largestBatch = 0
        var eof = false
        var writability: [Bool] = []
        /// `channel.bufferedBytes` at each writability change.
        var writabilityAt: [Int] = []
        var closed = false
        var closeError: ReactorError?
    }

    let events = Locked(Events())
    /// Called on the loop after each read (tests pause reading from here).
    let onRead: (@Sendable (Channel) -> Void)?

    init(onRead: (@Sendable (Channel) -> Void)? = nil) {
        self.onRead = onRead
    }

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in bytes.indices { copy.append(bytes[index]) }
        events.withLock {
            $0.bytes += copy
            $0.reads += 1
            $0.readsSinceComplete += 1
        }
        onRead?(channel)
    }

    func channelReadComplete(_ channel: Channel) {
        events.withLock {
            precondition($0.readsSinceComplete > 0, "channelReadComplete without a read before it")
            $0.readCompletes += 1
            $0.largestBatch = max($0.largestBatch, $0.readsSinceComplete)
            $0.readsSinceComplete = 0
        }
    }

    func channelReadEOF(_ channel: Channel) {
        events.withLock { $0.eof = true }
    }

    func channelWritabilityChanged(_ channel: Channel, isWritable: Bool) {
        let buffered = channel.bufferedBytes
        events.withLock {
            $0.writability.append(isWritable)
            $0.writabilityAt.append(buffered)
        }
    }

    func channelClosed(_ channel: Channel, error: ReactorError?) {
        events.withLock {
            precondition(!$0.closed, "channelClosed twice")
            $0.closed = true
            $0.closeError = error
        }
    }

    var snapshot: Events { events.withLock { $0 } }
}

/// Polls `condition` every millisecond until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = Deadline.now() + timeout
    while !deadline.hasPassed(at: .now()) {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// A one-loop group for a test; `defer { group.shutdownGracefully() }`.
/// The CPU time `thread` has used so far, read from its own clock on any thread.
func cpuTime(of thread: pthread_t) -> Duration {
    var clock = clockid_t()
    guard pthread_getcpuclockid(thread, &clock) == 0 else { return .zero }
    var now = timespec()
    clock_gettime(clock, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

func makeGroup(threads: Int = 1, busyPollDuration: Duration = .zero) throws -> EventLoopGroup {
    try EventLoopGroup(configuration: .init(threadCount: threads, busyPollDuration: busyPollDuration))
}

/// Starts `channel` with `delegate` on its loop and waits until that has happened.
func start(_ channel: Channel, _ delegate: Recorder) async throws {
    try await channel.loop.submit { channel.start(delegate: delegate) }
}

/// A listener whose accept queue is full, so a new connect to it stalls: backlog 0 holds one
/// connection, further SYNs are dropped while it is full. Three filler connections fill it.
final class StalledListener: Sendable {
    let listener: TestListener
    private let fillers: [Int32]

    /// Fills the queue, then waits 50 ms for the kernel to settle the fillers' handshakes.
    static func make() async throws -> StalledListener {
        let stalled = try StalledListener()
        try await Task.sleep(for: .milliseconds(50))
        return stalled
    }

    private init() throws {
        listener = try TestListener(backlog: 0)
        fillers = (0..<3).map { [listener] _ in TestSockets.connectNonBlocking(listener.address) }
    }

    var address: SocketAddress { listener.address }

    func close() {
        for fd in fillers { Glibc.close(fd) }
        listener.close()
    }
}
