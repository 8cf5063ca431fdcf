// The allocation gate's HTTP server: one keep-alive connection on 127.0.0.1 answered with the same
// prebuilt 1 KiB response for every request head, allocating nothing per request.
import CBenchSupport
import Foundation
import Glibc

/// Answers each request head (`\r\n\r\n`) on its one accepted connection with the same response
/// (by default `200 OK` and 1,024 body bytes), from a buffer built once, until the client closes.
final class FixedResponseServer: @unchecked Sendable {
    /// The listening port on 127.0.0.1.
    let port: UInt16

    /// The response every request gets.
    static let response: [UInt8] =
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1024\r\n\r\n".utf8)
        + [UInt8](repeating: UInt8(ascii: "x"), count: 1_024)

    /// Listens with a kernel-chosen port and serves one connection on a thread of its own,
    /// answering every request with `response` (whole HTTP/1.1 response bytes).
    /// - Throws: `SocketError` if the listener cannot be made.
    init(response: [UInt8] = FixedResponseServer.response) throws {
        port = try EchoServer.serveOneConnection { Self.serve($0, response: response) }
    }

    /// Answers every request head until the peer closes, then closes `fd`.
    private static func serve(_ fd: Int32, response: [UInt8]) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
        defer {
            buffer.deallocate()
            close(fd)
        }
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var matched = 0
        response.withUnsafeBytes { response in
            while true {
                let count = read(fd, buffer, 65_536)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                var heads = 0
                for index in 0..<count {
                    let byte = buffer.load(fromByteOffset: index, as: UInt8.self)
                    matched = byte == terminator[matched] ? matched + 1 : (byte == terminator[0] ? 1 : 0)
                    if matched == terminator.count {
                        heads += 1
                        matched = 0
                    }
                }
                for _ in 0..<heads {
                    var sent = 0
                    while sent < response.count {
                        // SAFETY: `sent` < `response.count`, so the range is inside the buffer.
                        let result = send(fd, response.baseAddress! + sent, response.count - sent, Int32(MSG_NOSIGNAL))
                        if result < 0 && errno == EINTR { continue }
                        guard result > 0 else { return }
                        sent += result
                    }
                }
            }
        }
    }
}
