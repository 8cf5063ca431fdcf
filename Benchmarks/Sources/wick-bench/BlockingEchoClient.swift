// The reactor benchmark's peer: a plain blocking-socket round-trip loop.
import CBenchSupport
import Glibc

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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
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
