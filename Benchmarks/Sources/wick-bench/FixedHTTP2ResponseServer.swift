// The allocation gate's HTTP/2 server: one cleartext (h2c, prior knowledge) connection on
// 127.0.0.1 whose every stream gets the same prebuilt 1 KiB response, allocating nothing per
// request.
import CBenchSupport
import Foundation
import Glibc

/// Serves one HTTP/2 connection with prior knowledge on a thread of its own: it sends its
/// SETTINGS, acknowledges the client's, answers PINGs, and answers each HEADERS frame on stream S
/// with HEADERS (`:status 200`, `content-length: 1024`) and one DATA frame of 1,024 bytes with
/// END_STREAM on S. It reads frames only as far as their headers (type, flags, stream) and skips
/// their payloads, and it ignores flow control: the client's windows must allow 1 KiB per stream
/// (Wick's do, as it raises the connection window at once and reports consumed bytes).
final class FixedHTTP2ResponseServer: @unchecked Sendable {
    /// The listening port on 127.0.0.1.
    let port: UInt16

    /// HTTP/2's frame header length (RFC 9113 §4.1).
    private static let frameHeaderLength = 9
    /// The client connection preface (RFC 9113 §3.4), skipped unchecked.
    private static let prefaceLength = 24

    /// A response's frames for stream 0, whose identifier is patched in per request: HEADERS
    /// with `:status 200` (static index 8) and `content-length: 1024` as a literal without
    /// indexing (name index 28), then DATA with END_STREAM.
    static let responseTemplate: [UInt8] = {
        let block: [UInt8] = [0x88, 0x0F, 0x0D, 0x04] + Array("1024".utf8)
        let headers = frame(type: 0x1, flags: 0x4, length: block.count) + block
        let data = frame(type: 0x0, flags: 0x1, length: 1_024) + [UInt8](repeating: UInt8(ascii: "x"), count: 1_024)
        return headers + data
    }()

    /// Where the template's two stream identifiers are.
    private static let streamOffsets = [5, frameHeaderLength + 8 + 5]

    /// Listens with a kernel-chosen port and serves one connection on a thread of its own.
    /// - Throws: `SocketError` if the listener cannot be made.
    init() throws {
        port = try EchoServer.serveOneConnection { Self.serve($0) }
    }

    /// A frame header (RFC 9113 §4.1) on stream 0.
    private static func frame(type: UInt8, flags: UInt8, length: Int) -> [UInt8] {
        [UInt8(length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length), type, flags]
            + [0, 0, 0, 0]
    }

    /// Reads frames until the peer closes or a write fails, then closes `fd`.
    private static func serve(_ fd: Int32) {
        let input = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
        var response = responseTemplate
        var header = [UInt8](repeating: 0, count: frameHeaderLength)
        var control = [UInt8](repeating: 0, count: frameHeaderLength + 8)
        defer {
            input.deallocate()
            close(fd)
        }
        guard send(all: frame(type: 0x4, flags: 0, length: 0)[...], to: fd) else { return }
        var prefaceLeft = prefaceLength
        var headerFilled = 0
        var payloadLeft = 0
        var pingPayload: (filled: Int, wanted: Bool) = (0, false)
        while true {
            let count = read(fd, input, 65_536)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var index = 0
            while index < count {
                let byte = input.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                if prefaceLeft > 0 {
                    prefaceLeft -= 1
                } else if payloadLeft > 0 {
                    payloadLeft -= 1
                    if pingPayload.wanted {
                        control[frameHeaderLength + pingPayload.filled] = byte
                        pingPayload.filled += 1
                        if pingPayload.filled == 8 {
                            pingPayload = (0, false)
                            guard send(all: control[...], to: fd) else { return }
                        }
                    }
                } else {
                    header[headerFilled] = byte
                    headerFilled += 1
                    guard headerFilled == frameHeaderLength else { continue }
                    headerFilled = 0
                    payloadLeft = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                    let (type, flags) = (header[3], header[4])
                    if type == 0x1 {
                        // HEADERS: answer its stream (the identifier's bytes as received, R bit clear).
                        for offset in streamOffsets {
                            for byte in 0..<4 { response[offset + byte] = header[5 + byte] & (byte == 0 ? 0x7F : 0xFF) }
                        }
                        guard send(all: response[...], to: fd) else { return }
                    } else if type == 0x4 && flags & 0x1 == 0 {
                        // SETTINGS: acknowledge it.
                        for byte in 0..<frameHeaderLength { control[byte] = 0 }
                        control[3] = 0x4
                        control[4] = 0x1
                        guard send(all: control[0..<frameHeaderLength], to: fd) else { return }
                    } else if type == 0x6 && flags & 0x1 == 0 && payloadLeft == 8 {
                        // PING: answered with ACK and the same 8 bytes once they are read.
                        for byte in 0..<frameHeaderLength { control[byte] = 0 }
                        control[2] = 8
                        control[3] = 0x6
                        control[4] = 0x1
                        pingPayload = (0, true)
                    }
                }
            }
        }
    }

    /// Writes all of `bytes` to `fd`; false when the peer is gone.
    private static func send(all bytes: ArraySlice<UInt8>, to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                // SAFETY: `sent` < `bytes.count`, so the range is inside the buffer.
                let result = Glibc.send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                sent += result
            }
            return true
        }
    }
}
