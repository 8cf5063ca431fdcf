// The reactor benchmark's other end: a blocking echo server on 127.0.0.1 (one thread per
// connection, pinned to CPU 0 when there are two), and the plain blocking-socket client peer.
import CBenchSupport
import Foundation
import Glibc

/// Errors from the benchmark's own socket code.
struct SocketError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// An echo server: every byte a connection sends comes straight back.
final class EchoServer: @unchecked Sendable {
    /// The listening port on 127.0.0.1.
    let port: UInt16
    /// The CPU the echo threads run on, if pinning is possible.
    let cpu: Int?

    /// Listens on 127.0.0.1 with a kernel-chosen port and accepts `connections` connections,
    /// each served by its own thread until the client closes it.
    init(connections: Int, cpu: Int?) throws {
        self.cpu = cpu
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketError(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let error = errno
            close(listener)
            throw SocketError(call: "bind/listen", errno: error)
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else { throw SocketError(call: "getsockname", errno: errno) }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread {
            if let cpu { _ = bench_pin_current_thread(Int32(cpu)) }
            for _ in 0..<connections {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { break }
                Self.setNoDelay(connection)
                let echo = Thread { Self.echo(connection, cpu: cpu) }
                echo.start()
            }
            close(listener)
        }
        thread.start()
    }

    /// Echoes until the peer closes, then closes `fd`.
    private static func echo(_ fd: Int32, cpu: Int?) {
        if let cpu { _ = bench_pin_current_thread(Int32(cpu)) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
        defer {
            buffer.deallocate()
            close(fd)
        }
        while true {
            let count = read(fd, buffer, 65_536)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var sent = 0
            while sent < count {
                let result = send(fd, buffer + sent, count - sent, Int32(MSG_NOSIGNAL))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return }
                sent += result
            }
        }
    }

    /// Sets TCP_NODELAY on `fd`.
    static func setNoDelay(_ fd: Int32) {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// The peer: a blocking socket that writes a message and reads until it is back.
final class BlockingEchoClient {
    private let fd: Int32
    private let message: [UInt8]
    private let buffer: UnsafeMutableRawPointer

    init(port: UInt16, messageSize: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw SocketError(call: "connect", errno: error)
        }
        EchoServer.setNoDelay(fd)
        message = (0..<messageSize).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        buffer = .allocate(byteCount: 65_536, alignment: 16)
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    /// Performs `count` round trips; appends each one's latency in nanoseconds to `latencies`.
    func roundTrips(_ count: Int, into latencies: inout [Double]) {
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            let sent = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            precondition(sent == message.count, "blocking send wrote \(sent) of \(message.count) bytes")
            var received = 0
            while received < message.count {
                let result = read(fd, buffer, 65_536)
                precondition(result > 0, "the echo server closed or failed (\(result))")
                received += result
            }
            latencies.append(Double(monotonicNanoseconds() - start))
        }
    }
}
