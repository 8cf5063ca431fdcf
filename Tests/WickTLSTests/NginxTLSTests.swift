// The engine against a real TLS stack: nginx's HTTPS port, driven over a plain blocking socket.
import Foundation
import Testing
import WickTLS
import WickTestSupport

/// A blocking loopback TCP connection with 5-second timeouts: the thinnest possible driver.
final class LoopbackConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.socket("socket", errno: errno) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        // SAFETY: connect reads one sockaddr_in from our stack value.
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw TestSupportError.socket("connect", errno: errno)
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // SAFETY: send reads the remaining bytes of our array.
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestSupportError.socket("send", errno: errno) }
            offset += sent
        }
    }

    /// Up to 16 KiB; empty at end of stream.
    func receive() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        // SAFETY: recv writes at most `count` bytes into our buffer.
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw TestSupportError.socket("recv", errno: errno) }
        return Array(buffer.prefix(count))
    }

    /// Runs the engine's handshake over the socket (bounded).
    func handshake(_ engine: TLSEngine) throws {
        for _ in 0..<50 {
            let progress = try engine.handshake()
            if engine.hasPendingOutput { try send(engine.takePendingOutput()) }
            if progress == .complete { return }
            let bytes = try receive()
            if bytes.isEmpty { engine.receivedEndOfStream() } else { engine.receivedFromNetwork(bytes) }
        }
        Issue.record("the handshake did not finish in 50 rounds")
    }

    /// Reads plaintext until the server closes (bounded).
    func readToEnd(_ engine: TLSEngine) throws -> [UInt8] {
        var plaintext: [UInt8] = []
        for _ in 0..<1000 {
            switch try engine.read(into: &plaintext) {
            case .bytes: continue
            case .closed: return plaintext
            case .needsInput:
                if engine.hasPendingOutput { try send(engine.takePendingOutput()) }
                let bytes = try receive()
                if bytes.isEmpty { engine.receivedEndOfStream() } else { engine.receivedFromNetwork(bytes) }
            }
        }
        Issue.record("no end of response after 1000 reads")
        return plaintext
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct NginxTLSTests {
    @Test(arguments: [TLSVersion.v1_3, .v1_2])
    func getsAPageOverTLSAndResumes(version: TLSVersion) throws {
        let nginx = try TestEnvironment.nginx()
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates([
            try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))
        ])
        configuration.maximumVersion = version
        let context = try TLSContext(configuration: configuration)
        var resumed: [Bool] = []
        for _ in 0..<2 {
            let connection = try LoopbackConnection(port: nginx.httpsPort)
            let engine = try TLSEngine(context: context, serverHostname: "localhost", port: nginx.httpsPort)
            try connection.handshake(engine)
            #expect(engine.negotiatedVersion == version)
            #expect(engine.negotiatedApplicationProtocol == "http/1.1")
            try engine.evaluateTrust(
                using: PublicKeysTrustEvaluator(keys: [try #require(engine.peerCertificateChain.first).publicKey]))
            try engine.write(Array("GET /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            try connection.send(engine.takePendingOutput())
            let response = String(decoding: try connection.readToEnd(engine), as: UTF8.self)
            #expect(response.hasPrefix("HTTP/1.1 200 OK"))
            #expect(response.hasSuffix("Wick test server\n"))
            resumed.append(engine.isSessionReused)
            engine.close()
            if engine.hasPendingOutput { try? connection.send(engine.takePendingOutput()) }
        }
        #expect(resumed == [false, true])
    }
}
