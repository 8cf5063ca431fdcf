// Unix-socket failures and the request on the wire, against a small blocking listener.
import Foundation
import Glibc
import Synchronization
import Testing
import WickCore
import WickReactor
import WickTestSupport

@testable import WickTransport

/// A one-connection server on a Unix socket, on its own thread: accepts one connection, reads
/// the request head, writes `reply` and closes. Made with `listening: false` it only binds, so a
/// connect is refused. Every wait is bounded by 30 s (a hang guard). Call `close()` once.
final class UnixTestListener: Sendable {
    let path: String
    private let fd: Int32
    private let state = Locked<(head: String?, done: Bool)>((nil, false))

    /// The request head the server read (up to and including the blank line), once it did.
    var head: String? { state.withLock { $0.head } }

    init(path: String, listening: Bool = true, reply: [UInt8] = []) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "UnixTestListener: path too long")
        // SAFETY: copies fewer than sizeof(sun_path) bytes into sun_path's own storage; the rest
        // stays zero, so the path is NUL-terminated.
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // SAFETY: bind reads sizeof(sockaddr_un) bytes of `address`, a live stack value.
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, !listening || listen(fd, 4) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw POSIXError(.init(rawValue: error) ?? .EIO)
        }
        guard listening else {
            state.withLock { $0.done = true }
            return
        }
        Thread { [self] in serveOne(reply) }.start()
    }

    /// Waits (bounded) for the server thread, closes the listener and removes the socket file.
    func close() async throws {
        #expect(try await waitUntil(timeout: .seconds(30)) { state.withLock { $0.done } })
        Glibc.close(fd)
        unlink(path)
    }

    private func serveOne(_ reply: [UInt8]) {
        defer { state.withLock { $0.done = true } }
        guard Self.wait(fd) else { return }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        defer { Glibc.close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while received.count < 65_536, !received.ends(with: Array("\r\n\r\n".utf8)), Self.wait(client) {
            // SAFETY: read writes at most buffer.count bytes into the array's storage.
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        state.withLock { $0.head = String(decoding: received, as: UTF8.self) }
        // SAFETY: send reads reply.count bytes from the array's storage during the call.
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Waits up to 30 s for `fd` to be readable.
    private static func wait(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, 30_000)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether the array's last bytes are `suffix`.
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

@Suite(.serialized)
struct UnixSocketFaultTests {
    /// A fresh short directory for sockets, removed by the caller.
    static func directory() throws -> String {
        let path = "/tmp/wick-unix-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs one request that must fail to connect, with a short pool wait, and returns the
    /// connect failure the pool reports.
    static func connectFailure(to path: String) async throws -> ReactorError? {
        let socket = try UnixSocketPath(path)
        let client = try TestRunner { $0.pool.poolWaitTimeout = .milliseconds(200) }
        let failure: TransportError?
        do {
            _ = try await client.runner.execute(
                TransportRequest(.get, .http, host: "localhost", unixSocketPath: socket),
                deadline: .now() + .seconds(30))
            failure = nil
        } catch {
            failure = error
        }
        await client.close()
        guard case .poolWaitTimeout(.reactor(let error)?)? = failure else {
            Issue.record("the request to \(path) ended with \(String(describing: failure))")
            return nil
        }
        #expect("\(TransportError.poolWaitTimeout(lastConnectionFailure: .reactor(error)))".contains(path))
        return error
    }

    @Test func aMissingSocketFailsNamingItsPath() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/missing.sock"
        let error = try await Self.connectFailure(to: path)
        guard case .connectFailed(let host, let attempts)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(host == "unix:\(path)")
        #expect(attempts.map(\.address) == [.unix(path: path)])
        #expect(attempts.allSatisfy { if case .unixSocketUnavailable = $0.error { true } else { false } })
    }

    @Test func aSocketNobodyListensOnIsRefused() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixTestListener(path: "\(directory)/bound.sock", listening: false)
        let error = try await Self.connectFailure(to: listener.path)
        try await listener.close()
        guard case .connectFailed(let host, let attempts)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(host == "unix:\(listener.path)")
        #expect(attempts.allSatisfy { if case .connectionRefused = $0.error { true } else { false } })
    }

    @Test(arguments: [
        (TransportDestination.unixSocketDefaultHost, UInt16?.none, "Host: localhost\r\n"),
        ("api.internal", 8080, "Host: api.internal:8080\r\n"),
    ])
    func theHostFieldComesFromTheRequestNotTheSocket(host: String, port: UInt16?, field: String) async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixTestListener(
            path: "\(directory)/s.sock", reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        let client = try TestRunner()
        let response = try await client.runner.execute(
            TransportRequest(
                .get, .http, host: host, port: port, target: "/v1/info?x=1",
                unixSocketPath: UnixSocketPath(listener.path)),
            deadline: .now() + .seconds(30))
        await client.close()
        try await listener.close()
        #expect(response.status == .ok && response.body == Data("ok".utf8))
        let head = try #require(listener.head)
        #expect(head.hasPrefix("GET /v1/info?x=1 HTTP/1.1\r\n") && head.contains(field))
    }

    @Test func aServerClosingMidResponseFailsTheRequest() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixTestListener(
            path: "\(directory)/s.sock", reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc".utf8))
        let client = try TestRunner()
        await #expect {
            try await client.runner.execute(
                TransportRequest(
                    .get, unixURL: "http+unix://\(directory.replacingOccurrences(of: "/", with: "%2F"))%2Fs.sock/"),
                deadline: .now() + .seconds(30))
        } throws: { error in
            guard case TransportError.requestFailed(_, requestMayHaveBeenProcessed: true) = error else { return false }
            return true
        }
        await client.close()
        try await listener.close()
    }
}
