// A minimal blocking TCP client for testing the test servers themselves.
import Glibc

/// Connects to 127.0.0.1, sends bytes, and reads until EOF, reset or a time limit.
struct LoopbackClient {
    enum End: Equatable {
        case endOfFile
        case reset
        case timedOut
    }

    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        // SAFETY: sockaddr_in is passed with its own size; connect only reads it.
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw ClientError(call: "connect", errno: errno)
        }
    }

    struct ClientError: Error { let call: String; let errno: Int32 }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        // SAFETY: send reads the array's bytes for the duration of the call.
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads until the server closes or resets, or `timeout` passes; returns what arrived.
    func readToEnd(timeout: Duration = .seconds(5), stopAfter limit: Int = .max) -> (
        bytes: [UInt8], end: End, elapsed: Duration
    ) {
        let start = ContinuousClock.now
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < limit {
            let remaining = timeout - (ContinuousClock.now - start)
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard remaining > .zero, poll(&entry, 1, Int32(remaining.components.seconds * 1_000 + 1)) > 0 else {
                return (received, .timedOut, ContinuousClock.now - start)
            }
            // SAFETY: recv writes at most buffer.count bytes into the array's storage.
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 {
                return (received, .endOfFile, ContinuousClock.now - start)
            } else if errno == ECONNRESET {
                return (received, .reset, ContinuousClock.now - start)
            }
        }
        return (received, .timedOut, ContinuousClock.now - start)
    }

    func close() {
        Glibc.close(fd)
    }
}
