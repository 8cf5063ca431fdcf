// The reactor benchmark's other end: a blocking echo server on 127.0.0.1 (a thread per
// connection, pinned to CPU 0 when there are two).
import CBenchSupport
import Foundation
import Glibc

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
        let listener = try Self.listenOnLoopback()
        port = listener.port
        let thread = Thread {
            if let cpu { _ = bench_pin_current_thread(Int32(cpu)) }
            for _ in 0..<connections {
                let connection = accept(listener.fd, nil, nil)
                guard connection >= 0 else { break }
                Self.setNoDelay(connection)
                let echo = Thread { Self.echo(connection, cpu: cpu) }
                echo.start()
            }
            close(listener.fd)
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

    /// A listening TCP socket on 127.0.0.1 with a kernel-chosen port.
    /// - Throws: `SocketError` if a call fails.
    static func listenOnLoopback() throws -> (fd: Int32, port: UInt16) {
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
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// Listens on 127.0.0.1 with a kernel-chosen port and, on a thread of its own, accepts one
    /// connection, closes the listener and hands the connection (Nagle off) to `serve`; returns
    /// the port.
    /// - Throws: `SocketError` if the listener cannot be made.
    static func serveOneConnection(_ serve: @escaping @Sendable (Int32) -> Void) throws -> UInt16 {
        let listener = try listenOnLoopback()
        let thread = Thread {
            let connection = accept(listener.fd, nil, nil)
            close(listener.fd)
            guard connection >= 0 else { return }
            setNoDelay(connection)
            serve(connection)
        }
        thread.start()
        return listener.port
    }

    /// Sets TCP_NODELAY on `fd`.
    static func setNoDelay(_ fd: Int32) {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}
