// An in-process HTTP proxy for tests: absolute-form forwarding, CONNECT tunnels, Basic auth, faults.
import Foundation
import WickCore
import WickHTTP1

/// A forward HTTP proxy on 127.0.0.1 that reaches origins on 127.0.0.1 only (`localhost` and
/// `127.0.0.1` targets; anything else gets 502). It handles
/// - absolute-form requests (`GET http://127.0.0.1:8080/path HTTP/1.1`): forwarded in origin
///   form without `Proxy-Authorization`, over one origin connection per client connection,
///   the response relayed as it comes (framed with `HTTPResponseParser`), keep-alive kept;
/// - `CONNECT host:port`: answered as `connectBehavior` says (by default a 200 and bytes
///   spliced both ways until both sides finish);
/// - `requiredCredentials`: a request without the matching `Proxy-Authorization: Basic ...`
///   gets 407 with `Proxy-Authenticate`, and the connection closes.
///
/// It records every request line and `Proxy-Authorization` value it saw and counts the
/// connections it accepted. Each connection runs on its own thread with blocking, poll-bounded
/// calls, bounded by `connectionTimeLimit` and at most `maximumRequestsPerConnection` requests;
/// `stop()` (or deinit) interrupts every one and closes every socket.
public final class TestProxy: Sendable {
    /// What the proxy does with a CONNECT it accepted (credentials checked).
    public enum ConnectBehavior: Sendable {
        /// Answer `200 Connection Established` and splice bytes to and from the origin.
        case tunnel
        /// Close the connection without answering.
        case close
        /// Send these bytes (a status line, fields, maybe more), then close once the client does.
        case reply(String)
        /// Answer nothing, hold the connection until the client closes it or the time limit.
        case stall
    }

    /// One request the proxy read.
    public struct SeenRequest: Sendable, Equatable {
        /// The request line as sent, e.g. `CONNECT localhost:8443 HTTP/1.1`.
        public let requestLine: String
        /// The `Proxy-Authorization` field's value, if the request had one.
        public let proxyAuthorization: String?
        /// The index (from 0) of the connection it came on.
        public let connection: Int
    }

    private struct State {
        var requests: [SeenRequest] = []
        var connections = 0
        /// Sockets threads are blocked on, for `stop()` to shut down; removed before closing.
        var openDescriptors: Set<Int32> = []
        var stopped = false
    }

    /// The most requests one client connection may carry.
    public static let maximumRequestsPerConnection = 1_000
    /// The largest request head read.
    public static let maximumHeadBytes = 64 * 1024

    /// The port the proxy listens on at 127.0.0.1.
    public let port: Int
    /// The longest any one connection may live before it is cut.
    public let connectionTimeLimit: Duration
    /// The `Proxy-Authorization` value every request must carry, if any.
    public let requiredAuthorization: String?
    /// What an accepted CONNECT gets.
    public let connectBehavior: ConnectBehavior
    private let state = PthreadLocked(State())
    private let threads = DispatchGroup()

    /// Starts listening.
    /// - Parameter requiredCredentials: the user name and password every request must carry
    ///   as Basic `Proxy-Authorization`; nil accepts all.
    /// - Throws: `TestSupportError.socket` if the listener cannot be made.
    public init(
        requiredCredentials: (username: String, password: String)? = nil, connectBehavior: ConnectBehavior = .tunnel,
        connectionTimeLimit: Duration = .seconds(30)
    ) throws {
        let (listener, port) = try BlockingSocket.listenOnLoopback()
        self.port = port
        self.connectionTimeLimit = connectionTimeLimit
        self.connectBehavior = connectBehavior
        requiredAuthorization = requiredCredentials.map {
            "Basic " + Data("\($0.username):\($0.password)".utf8).base64EncodedString()
        }
        threads.enter()
        Thread.detachNewThread { [self] in
            acceptLoop(listener: listener)
            listener.close()
            threads.leave()
        }
    }

    /// Every request read so far, in order.
    public var requests: [SeenRequest] { state.withLock { $0.requests } }

    /// How many client connections have been accepted so far.
    public var acceptedConnections: Int { state.withLock { $0.connections } }

    /// Stops accepting, interrupts every connection, and waits (up to 10 s) for the threads to
    /// finish. Idempotent.
    public func stop() {
        let alreadyStopped = state.withLock { state in
            defer { state.stopped = true }
            for fd in state.openDescriptors { BlockingSocket.shutdownBoth(fd) }
            return state.stopped
        }
        if !alreadyStopped { _ = threads.wait(timeout: .now() + 10) }
    }

    deinit {
        stop()
    }

    fileprivate var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(listener: BlockingSocket) {
        while !isStopped {
            guard let client = listener.accept(timeout: .milliseconds(20)) else { continue }
            let index: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.connections += 1
                state.openDescriptors.insert(client.fd)
                return state.connections - 1
            }
            guard let index else {
                client.close()
                return
            }
            threads.enter()
            Thread.detachNewThread { [self] in
                var connection = ProxyConnection(client: client, proxy: self, index: index)
                connection.run()
                connection.closeOrigin()
                release(client)
                threads.leave()
            }
        }
    }

    fileprivate func record(_ request: SeenRequest) {
        state.withLock { $0.requests.append(request) }
    }

    /// Makes `socket` reachable by `stop()`; false (and the socket closed) once stopped.
    fileprivate func track(_ socket: BlockingSocket) -> Bool {
        let tracked = state.withLock { state in
            guard !state.stopped else { return false }
            state.openDescriptors.insert(socket.fd)
            return true
        }
        if !tracked { socket.close() }
        return tracked
    }

    /// Forgets `socket` (so `stop()` never touches a reused descriptor), then closes it.
    fileprivate func release(_ socket: BlockingSocket) {
        _ = state.withLock { $0.openDescriptors.remove(socket.fd) }
        socket.close()
    }
}

/// One client connection, on its own thread.
private struct ProxyConnection {
    /// A request head as read.
    struct Head {
        let method: String
        let target: String
        let requestLine: String
        /// Field lines as `(name, value)`, in order.
        let fields: [(name: String, value: String)]

        func value(_ name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    let client: BlockingSocket
    let proxy: TestProxy
    let index: Int
    let deadline: ContinuousClock.Instant
    /// Bytes read from the client but not yet used.
    var pending: [UInt8] = []
    var origin: (socket: BlockingSocket, authority: String)?

    init(client: BlockingSocket, proxy: TestProxy, index: Int) {
        self.client = client
        self.proxy = proxy
        self.index = index
        deadline = ContinuousClock.now + proxy.connectionTimeLimit
    }

    mutating func run() {
        for _ in 0..<TestProxy.maximumRequestsPerConnection {
            guard !proxy.isStopped, let head = readHead() else { return }
            proxy.record(
                TestProxy.SeenRequest(
                    requestLine: head.requestLine, proxyAuthorization: head.value("Proxy-Authorization"),
                    connection: index))
            if let required = proxy.requiredAuthorization, head.value("Proxy-Authorization") != required {
                send(
                    "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"wick\"\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            if head.method == "CONNECT" {
                return tunnel(to: head.target)
            }
            guard forward(head) else { return }
        }
    }

    func closeOrigin() {
        if let origin { proxy.release(origin.socket) }
    }

    // MARK: - CONNECT

    private mutating func tunnel(to authority: String) {
        switch proxy.connectBehavior {
        case .close:
            return
        case .reply(let text):
            send(text)
            client.shutdownWrite()
            drainUntilClientCloses()
        case .stall:
            drainUntilClientCloses()
        case .tunnel:
            guard let socket = connectOrigin(authority) else {
                return send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            }
            origin = (socket, authority)
            send("HTTP/1.1 200 Connection Established\r\n\r\n")
            if !pending.isEmpty, socket.sendAll(pending, deadline: deadline) != nil { return }
            pending = []
            client.splice(with: socket, deadline: deadline) { proxy.isStopped }
        }
    }

    private func drainUntilClientCloses() {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !proxy.isStopped, ContinuousClock.now < deadline {
            switch client.read(into: &buffer, deadline: min(deadline, .now + .milliseconds(50))) {
            case .bytes, .timedOut: continue
            case .endOfFile, .failed: return
            }
        }
    }

    // MARK: - Absolute form

    /// Forwards one absolute-form request and relays its response; false ends the connection.
    private mutating func forward(_ head: Head) -> Bool {
        let prefix = "http://"
        guard head.target.lowercased().hasPrefix(prefix) else {
            send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return false
        }
        let rest = head.target.dropFirst(prefix.count)
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<pathStart])
        let path = rest[pathStart...].hasPrefix("/") ? String(rest[pathStart...]) : "/" + rest[pathStart...]
        if origin?.authority != authority {
            closeOrigin()
            origin = nil
            guard let socket = connectOrigin(authority.contains(":") ? authority : authority + ":80") else {
                send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return false
            }
            origin = (socket, authority)
        }
        guard let upstream = origin?.socket else { return false }
        var text = "\(head.method) \(path) HTTP/1.1\r\n"
        for field in head.fields where !["proxy-authorization", "proxy-connection"].contains(field.name.lowercased()) {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        let bodyLength = Int(head.value("Content-Length") ?? "0") ?? 0
        guard upstream.sendAll(Array(text.utf8), deadline: deadline) == nil, readPending(atLeast: bodyLength),
            upstream.sendAll(Array(pending[0..<bodyLength]), deadline: deadline) == nil
        else { return false }
        pending.removeFirst(bodyLength)
        return relayResponse(from: upstream, method: head.method)
    }

    /// Relays one response from `upstream` to the client; true if both connections may carry
    /// another request.
    private func relayResponse(from upstream: BlockingSocket, method: String) -> Bool {
        var parser = HTTPResponseParser()
        parser.expectResponse(to: HTTPMethod(rawValue: method))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !proxy.isStopped {
            switch upstream.read(into: &buffer, deadline: deadline) {
            case .bytes(let count):
                guard client.sendAll(Array(buffer[0..<count]), deadline: deadline) == nil else { return false }
                var used = 0
                // Until the parser needs more bytes: `.end` comes on the call after the last byte.
                while true {
                    let step: HTTPParseStep
                    do {
                        // SAFETY: used <= count <= buffer.count (the parser consumes at most what it
                        // was given, and read returned at most buffer.count bytes), so the slice is
                        // inside the array's storage, valid inside this closure, which `parse` does not
                        // outlive.
                        step = try buffer.withUnsafeBytes { bytes in
                            try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[used..<count]))
                        }
                    } catch {
                        return false
                    }
                    used += step.consumed
                    switch step.event {
                    case .end(let reusable): return reusable && used == count
                    case .switchingProtocols: return false
                    case .needMoreData: break
                    case .informationalHead, .head, .body, .trailers: continue
                    }
                    break
                }
            case .endOfFile, .timedOut, .failed:
                return false
            }
        }
        return false
    }

    // MARK: - Helpers

    /// Connects to `host:port` when the host is 127.0.0.1 or localhost.
    private func connectOrigin(_ authority: String) -> BlockingSocket? {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
            ["127.0.0.1", "localhost"].contains(authority[..<colon].lowercased()),
            case .success(let socket) = BlockingSocket.connectToLoopback(port: port)
        else { return nil }
        return proxy.track(socket) ? socket : nil
    }

    /// Reads one request head from the client; nil at EOF, on a timeout, a malformed head, or
    /// one over `maximumHeadBytes`.
    private mutating func readHead() -> Head? {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var end: Int?
        while true {
            if let found = pending.firstRange(of: terminator) {
                end = found.upperBound
                break
            }
            guard pending.count < TestProxy.maximumHeadBytes, readMore() else { return nil }
        }
        guard let end else { return nil }
        let text = String(decoding: pending[0..<(end - 4)], as: UTF8.self)
        pending.removeFirst(end)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Head(method: String(parts[0]), target: String(parts[1]), requestLine: lines[0], fields: fields)
    }

    /// Reads until `pending` holds at least `count` bytes; false if the client ended first.
    private mutating func readPending(atLeast count: Int) -> Bool {
        while pending.count < count {
            guard readMore() else { return false }
        }
        return true
    }

    /// One read from the client into `pending`; false at EOF, failure or the deadline.
    private mutating func readMore() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !proxy.isStopped {
            switch client.read(into: &buffer, deadline: min(deadline, .now + .milliseconds(50))) {
            case .bytes(0): continue
            case .bytes(let count):
                pending.append(contentsOf: buffer[0..<count])
                return true
            case .timedOut:
                if ContinuousClock.now >= deadline { return false }
            case .endOfFile, .failed:
                return false
            }
        }
        return false
    }

    private func send(_ text: String) {
        _ = client.sendAll(Array(text.utf8), deadline: deadline)
    }
}
