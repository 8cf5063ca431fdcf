// An in-process TCP server that misbehaves on purpose: it plays a script of sends, pauses,
// reads, half-closes, resets and stalls on each accepted connection.
import Foundation
import WickCore

/// A raw TCP listener on 127.0.0.1 that plays a scripted sequence of `FaultStep`s on every
/// connection it accepts, for the faults no real server produces on purpose: truncation,
/// resets, stalls, malformed framing, a close between keep-alive requests.
///
/// Each connection runs on its own thread with blocking, poll-bounded socket calls; every step
/// is bounded by `connectionTimeLimit`, and `stop()` (or deinit) interrupts all of them, so a
/// test can never hang on it. What each connection received is recorded for assertions.
///
/// ```swift
/// let server = try FaultServer { _ in [.readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"), .reset] }
/// // connect to 127.0.0.1:server.port ...
/// ```
public final class FaultServer: Sendable {
    private struct Connection {
        var received: [UInt8] = []
        var end: FaultConnectionEnd = .running
        var fd: Int32?
        /// How many of the script's top-level steps have finished.
        var stepsDone = 0
    }

    private struct State {
        var connections: [Connection] = []
        var stopped = false
    }

    /// The port the server listens on at 127.0.0.1.
    public let port: Int
    /// The longest any one connection's script may run before it is interrupted.
    public let connectionTimeLimit: Duration
    /// Whether what each connection receives is kept for `received(onConnection:)`; a long run
    /// (a soak) turns it off so the server's memory stays flat.
    public let recordsReceivedBytes: Bool
    private let state = PthreadLocked(State())
    private let script: @Sendable (Int) -> [FaultStep]
    private let threads = DispatchGroup()

    /// Starts listening; `script` gives the steps for the n-th accepted connection (from 0).
    /// - Throws: `TestSupportError.socket` if the listener cannot be made.
    public init(
        connectionTimeLimit: Duration = .seconds(30), recordsReceivedBytes: Bool = true,
        script: @escaping @Sendable (_ connectionIndex: Int) -> [FaultStep]
    ) throws {
        let (listener, port) = try BlockingSocket.listenOnLoopback(backlog: 1024)
        self.port = port
        self.connectionTimeLimit = connectionTimeLimit
        self.recordsReceivedBytes = recordsReceivedBytes
        self.script = script
        threads.enter()
        Thread.detachNewThread { [self] in
            acceptLoop(listener: listener)
            listener.close()
            threads.leave()
        }
    }

    /// Starts listening and plays the same steps on every connection.
    /// - Throws: `TestSupportError.socket` if the listener cannot be made.
    public convenience init(connectionTimeLimit: Duration = .seconds(30), steps: [FaultStep]) throws {
        try self.init(connectionTimeLimit: connectionTimeLimit) { _ in steps }
    }

    /// How many connections have been accepted so far.
    public var acceptedConnections: Int {
        state.withLock { $0.connections.count }
    }

    /// Waits up to `timeout` until at least `count` connections have been accepted; returns
    /// whether they were. Polls with `Task.sleep`, so a waiting test never blocks one of Swift's
    /// few cooperative threads (which the code under test may need to make progress).
    public func waitForConnections(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while acceptedConnections < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Every byte the n-th connection received so far.
    public func received(onConnection index: Int) -> [UInt8] {
        state.withLock { index < $0.connections.count ? $0.connections[index].received : [] }
    }

    /// How the n-th connection ended (`.running` while its script runs).
    public func end(ofConnection index: Int) -> FaultConnectionEnd? {
        state.withLock { index < $0.connections.count ? $0.connections[index].end : nil }
    }

    /// Waits up to `timeout` until the n-th connection has finished `count` of its script's
    /// top-level steps (a test cancels after the server's send, not before it); returns
    /// whether it did. Polls with `Task.sleep` (see `waitForConnections`).
    public func waitForSteps(_ count: Int, ofConnection index: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while stepsDone(onConnection: index) < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    private func stepsDone(onConnection index: Int) -> Int {
        state.withLock { index < $0.connections.count ? $0.connections[index].stepsDone : 0 }
    }

    /// Waits up to `timeout` until the n-th connection's script has ended; returns how it ended.
    /// Polls with `Task.sleep` (see `waitForConnections`).
    public func waitForEnd(ofConnection index: Int, timeout: Duration = .seconds(10)) async -> FaultConnectionEnd? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let end = end(ofConnection: index), end != .running { return end }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return end(ofConnection: index)
    }

    /// Stops accepting, interrupts every running script, and waits (up to 10 s) for the
    /// threads to finish. Idempotent.
    public func stop() {
        let alreadyStopped = state.withLock { state in
            defer { state.stopped = true }
            for fd in state.connections.compactMap(\.fd) { BlockingSocket.shutdownBoth(fd) }
            return state.stopped
        }
        if !alreadyStopped { _ = threads.wait(timeout: .now() + 10) }
    }

    deinit {
        stop()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(listener: BlockingSocket) {
        while !isStopped {
            guard let client = listener.accept(timeout: .milliseconds(20)) else { continue }
            let fd = client.fd
            let index: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.connections.append(Connection(fd: fd))
                return state.connections.count - 1
            }
            guard let index else {
                client.close()
                return
            }
            threads.enter()
            Thread.detachNewThread { [self] in
                var player = FaultPlayer(socket: client, server: self, index: index)
                let end = player.play(script(index))
                state.withLock {
                    $0.connections[index].end = end
                    $0.connections[index].fd = nil  // before close: stop() must never touch a reused fd
                }
                client.close()
                threads.leave()
            }
        }
    }

    fileprivate func record(_ bytes: ArraySlice<UInt8>, onConnection index: Int) {
        guard recordsReceivedBytes else { return }
        state.withLock { $0.connections[index].received.append(contentsOf: bytes) }
    }

    fileprivate func stepDone(onConnection index: Int) {
        state.withLock { $0.connections[index].stepsDone += 1 }
    }

    fileprivate var stopRequested: Bool { isStopped }
}

/// Plays one connection's steps; lives on that connection's thread.
private struct FaultPlayer {
    let socket: BlockingSocket
    let server: FaultServer
    let index: Int
    let deadline: ContinuousClock.Instant
    /// Bytes read but not yet consumed by a step (a pipelined request, a body after a head).
    var pending: [UInt8] = []

    init(socket: BlockingSocket, server: FaultServer, index: Int) {
        self.socket = socket
        self.server = server
        self.index = index
        self.deadline = ContinuousClock.now + server.connectionTimeLimit
    }

    mutating func play(_ steps: [FaultStep]) -> FaultConnectionEnd {
        let end = run(steps, counted: true)
        if case .closed = end { return .completed }
        if case .ended(let reason) = end { return reason }
        return .completed
    }

    private enum Outcome { case next, closed, ended(FaultConnectionEnd) }

    /// Plays `steps`; `counted` (the script's top level) tells the server as each one ends.
    private mutating func run(_ steps: [FaultStep], counted: Bool = false) -> Outcome {
        for step in steps {
            if server.stopRequested { return .ended(.interrupted) }
            let outcome = perform(step)
            guard case .next = outcome else { return outcome }
            if counted { server.stepDone(onConnection: index) }
        }
        return .next
    }

    private mutating func perform(_ step: FaultStep) -> Outcome {
        switch step {
        case .send(let bytes):
            if let error = socket.sendAll(bytes, deadline: deadline) {
                return .ended(error == ETIMEDOUT ? .interrupted : .failed("send: errno \(error)"))
            }
        case .pause(let duration):
            let until = min(deadline, ContinuousClock.now + duration)
            while ContinuousClock.now < until {
                if server.stopRequested { return .ended(.interrupted) }
                usleep(5_000)
            }
        case .readRequestHead(let limit):
            return readUntil(limit: limit) { FaultPlayer.headLength(in: $0) }.outcome
        case .readRequest:
            return readRequest().outcome
        case .answer(let responder):
            let (head, body, outcome) = readRequest()
            guard case .next = outcome else { return outcome }
            return run(responder.steps(for: FaultPlayer.request(head: head, body: body)))
        case .read(let count):
            return readUntil(limit: count) { $0.count >= count ? count : nil }.outcome
        case .readHTTP2Frame(let type, let stream, let limit):
            return readUntil(limit: limit) { FaultPlayer.http2FrameEnd(in: $0, type: type, stream: stream) }.outcome
        case .waitForClientClose(let limit):
            let until = min(deadline, ContinuousClock.now + limit)
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while ContinuousClock.now < until {
                switch socket.read(into: &buffer, deadline: min(until, ContinuousClock.now + .milliseconds(20))) {
                case .bytes(let count): server.record(buffer[..<count], onConnection: index)
                case .endOfFile: return .ended(.clientClosed)
                case .timedOut: if server.stopRequested { return .ended(.interrupted) }
                case .failed(let error): return .ended(.failed("recv: errno \(error)"))
                }
            }
        case .halfClose:
            socket.shutdownWrite()
        case .reset:
            socket.armReset()
            return .closed
        case .close:
            return .closed
        case .repeating(let steps, let times):
            for _ in 0..<times {
                let outcome = run(steps)
                guard case .next = outcome else { return outcome }
            }
        }
        return .next
    }

    /// Reads a whole request: its head, then a `Content-Length` body or a chunked body up to
    /// its last chunk.
    private mutating func readRequest() -> (head: [UInt8], body: [UInt8], outcome: Outcome) {
        let (head, outcome) = readUntil(limit: 1 << 20) { FaultPlayer.headLength(in: $0) }
        guard case .next = outcome else { return (head, [], outcome) }
        let (body, bodyOutcome) =
            switch RequestFraming(head: head) {
            case .length(let count): readUntil(limit: count) { $0.count >= count ? count : nil }
            case .chunked: readUntil(limit: 64 << 20) { FaultPlayer.chunkedBodyLength(in: $0) }
            }
        return (head, body, bodyOutcome)
    }

    /// The request a head and body make, for a responder.
    static func request(head: [UInt8], body: [UInt8]) -> FaultRequest {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first.map { $0.split(separator: " ") } ?? []
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return FaultRequest(
            method: requestLine.first.map(String.init) ?? "", target: requestLine.dropFirst().first.map(String.init) ?? "",
            fields: fields, body: body)
    }

    /// Reads until `complete(pending)` gives how many bytes make up the awaited unit (or
    /// `limit` bytes are there), then consumes and returns them; ends the connection on EOF,
    /// error or the deadline.
    private mutating func readUntil(limit: Int, _ complete: ([UInt8]) -> Int?) -> (unit: [UInt8], outcome: Outcome) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let length = complete(pending) ?? (pending.count >= limit ? limit : nil) {
                let unit = Array(pending.prefix(length))
                pending.removeFirst(unit.count)
                return (unit, .next)
            }
            if server.stopRequested { return ([], .ended(.interrupted)) }
            switch socket.read(into: &buffer, deadline: min(deadline, ContinuousClock.now + .milliseconds(20))) {
            case .bytes(let count):
                server.record(buffer[..<count], onConnection: index)
                pending.append(contentsOf: buffer[..<count])
            case .endOfFile:
                return ([], .ended(.clientClosed))
            case .timedOut:
                if ContinuousClock.now >= deadline { return ([], .ended(.interrupted)) }
            case .failed(let error):
                return ([], .ended(.failed("recv: errno \(error)")))
            }
        }
    }

    /// The end of the first HTTP/2 frame of `type` on `stream` in `bytes` (frames from the start,
    /// after the client preface when it is there), if it has arrived whole.
    static func http2FrameEnd(in bytes: [UInt8], type: UInt8, stream: UInt32) -> Int? {
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        var offset = bytes.starts(with: preface) ? preface.count : 0
        if bytes.count < preface.count && preface.starts(with: bytes) { return nil }
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let frameStream =
                UInt32(bytes[offset + 5] & 0x7F) << 24 | UInt32(bytes[offset + 6]) << 16
                | UInt32(bytes[offset + 7]) << 8 | UInt32(bytes[offset + 8])
            let end = offset + 9 + length
            guard end <= bytes.count else { return nil }
            if bytes[offset + 3] == type && frameStream == stream { return end }
            offset = end
        }
        return nil
    }

    /// The length of a request head (through CRLF CRLF) at the start of `bytes`, if complete.
    static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 3..<bytes.count where bytes[i] == 10 && bytes[i - 1] == 13 && bytes[i - 2] == 10 && bytes[i - 3] == 13
        {
            return i + 1
        }
        return nil
    }

    /// The length of a chunked body at the start of `bytes` (through the last chunk and the
    /// empty trailer section), if it is all there. Chunk data is skipped by its declared size.
    static func chunkedBodyLength(in bytes: [UInt8]) -> Int? {
        var offset = 0
        while true {
            guard let lineEnd = crlfIndex(in: bytes, from: offset) else { return nil }
            let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            offset = lineEnd + 2
            if size == 0 {
                // Trailer lines until an empty line.
                while let end = crlfIndex(in: bytes, from: offset) {
                    defer { offset = end + 2 }
                    if end == offset { return end + 2 }
                }
                return nil
            }
            offset += size + 2
            guard offset <= bytes.count else { return nil }
        }
    }

    private static func crlfIndex(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }
}

/// How a scripted request's body is delimited, from its head: enough for test clients.
private enum RequestFraming {
    case length(Int)
    case chunked

    init(head: [UInt8]) {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n").dropFirst()
        var length = 0
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon]
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name.equalsIgnoringASCIICase("transfer-encoding") && value.lowercased().hasSuffix("chunked") {
                self = .chunked
                return
            }
            if name.equalsIgnoringASCIICase("content-length") { length = Int(value) ?? 0 }
        }
        self = .length(length)
    }
}
