// The hostile server behind the reactor's socket seam: it dials the pool's connections over a
// scripted kernel, delivers the fuzz input's bytes on them, and records what the client wrote.
import Glibc
@_spi(WickSocketSeam) import WickReactor
@_spi(WickSocketSeam) import WickTransport

/// What one connection of the server delivers: chunks of bytes, each released once the client
/// has written `gate` whole request heads on the connection, then its end (also gated).
struct ConnectionScript {
    /// Bytes delivered in order, no more than `ServerPlan.readSize` per read.
    struct Chunk {
        var bytes: ArraySlice<UInt8>
        var gate: Int
    }

    /// How the server ends the connection after its chunks.
    enum Ending {
        case endOfFile
        case reset
    }

    var chunks: [Chunk] = []
    var ending = Ending.endOfFile
    var endGate = 1
}

/// How the kernel behaves, from the input's first byte.
struct ServerPlan {
    /// The most bytes one read returns.
    var readSize: Int
    /// How much of what the client offers one write takes.
    var writeMode: Int
    /// The connections' scripts, handed out in dial order; later dials get an empty script (EOF).
    var scripts: [ConnectionScript]
}

/// One request the client wrote on a connection, as the server saw it.
struct WrittenRequest {
    /// The user request (index in the run) that was in flight when its first byte was written.
    let user: Int
    /// Its position among every request written in the run.
    let sequence: Int
    /// Response bytes the server had delivered on the connection when its first byte was written.
    let deliveredBefore: Int
    /// Whether the server had already ended the connection (EOF or reset) by then.
    let endedBefore: Bool
    /// The request method, once its request line's first space is written.
    var method = ""
}

/// One connection of the run: its script, what was delivered and written, how it ended. Owned
/// like `ScriptedServer` (the loop thread while the session runs, the fuzz thread after).
final class ScriptedConnection: @unchecked Sendable {
    let number: Int
    let script: ConnectionScript
    /// The socket pair end the server keeps (the channel owns the other).
    let peer: Int32
    /// Every byte delivered to the client, in order.
    var delivered: [UInt8] = []
    /// Set when the script's end was delivered (EOF or reset).
    var ended: ConnectionScript.Ending?
    /// Every request written, in order.
    var requests: [WrittenRequest] = []
    fileprivate var chunkIndex = 0
    fileprivate var chunkOffset = 0
    /// Reads in a row that found the next chunk gated (the server's patience, see `patience`).
    fileprivate var gatedReads = 0
    fileprivate var writeCalls = 0
    fileprivate var headsComplete = 0
    /// Reading the client's bytes: the head being written, or the body bytes still to come.
    fileprivate var head: [UInt8] = []
    fileprivate var bodyRemaining = 0
    fileprivate var inRequest = false

    init(number: Int, script: ConnectionScript, peer: Int32) {
        self.number = number
        self.script = script
        self.peer = peer
    }
}

/// The server. Thread ownership (the proof behind `@unchecked Sendable`): while the session runs,
/// every `var` is read and written on the session's one loop thread (the dialer and the seam's
/// calls run there, and so does the task that sets `currentUser`); the fuzz thread reads them
/// only after the session has shut down and its loop thread was joined.
final class ScriptedServer: @unchecked Sendable {
    /// Reads in a row, with no write between them, that may find the next chunk gated before
    /// the server sends it anyway: enough for the client to start the request it is about to
    /// write (a few loop iterations), and what keeps a client that waits for bytes the script
    /// holds back from waiting forever.
    static let patience = 16

    let plan: ServerPlan
    /// The most seam calls (reads and writes) the run may make: past it the client is spinning
    /// without end, a hang.
    let callBudget: Int
    private(set) var connections: [ScriptedConnection] = []
    /// The user request now in flight (set by the run on the loop before it starts one).
    var currentUser = 0
    private var calls = 0
    private var writtenRequests = 0

    init(plan: ServerPlan, inputSize: Int) {
        self.plan = plan
        callBudget = 50_000 + 64 * inputSize
    }

    /// Opens every connection of the pool over the seam.
    var dialer: TransportDialer {
        TransportDialer { [self] _, _, loop, completion in completion(dial(on: loop)) }
    }

    private func dial(on loop: EventLoop) -> Result<Channel, ReactorError> {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        require(socketpair(AF_UNIX, type, 0, &fds) == 0, "socketpair: errno \(errno)")
        // One byte the channel never reads (its reads go to the script) keeps its end readable,
        // so the level-triggered loop asks the script again every iteration while it reads.
        require(Glibc.write(fds[1], "x", 1) == 1, "socketpair write: errno \(errno)")
        let number = connections.count
        let script = number < plan.scripts.count ? plan.scripts[number] : ConnectionScript()
        let connection = ScriptedConnection(number: number, script: script, peer: fds[1])
        connections.append(connection)
        let io = SocketIO(
            read: { [self] _, buffer throws(SyscallError) in try read(connection, into: buffer) },
            write: { [self] _, buffers throws(SyscallError) in write(connection, buffers) },
            shutdownWrite: { _ throws(SyscallError) in },
            pendingError: { _ throws(SyscallError) in 0 })
        do {
            return .success(
                try Channel(registering: fds[0], on: loop, remoteAddress: .unix(path: Self.name(number)), io: io))
        } catch {
            close(fds[0])
            return .failure(error)
        }
    }

    /// The remote address connection `number` reports: `fuzz-<number>`.
    static func name(_ number: Int) -> String { "fuzz-\(number)" }

    /// Closes the server's ends of every socket pair (after the session has shut down).
    func closePeers() {
        for connection in connections { close(connection.peer) }
    }

    private func countCall() {
        calls += 1
        require(
            calls <= callBudget,
            "hang: \(calls) seam calls for an input of \(plan.scripts.count) scripts, request \(currentUser) in flight")
    }

    // MARK: - Reads

    private func read(
        _ connection: ScriptedConnection, into buffer: UnsafeMutableRawBufferPointer
    ) throws(SyscallError) -> IOResult<Int> {
        countCall()
        require(connection.ended == nil, "connection \(connection.number) read again after its end")
        let script = connection.script
        let gate = connection.chunkIndex < script.chunks.count ? script.chunks[connection.chunkIndex].gate : script.endGate
        if gate > connection.headsComplete && connection.gatedReads < Self.patience {
            connection.gatedReads += 1
            return .wouldBlock
        }
        connection.gatedReads = 0
        guard connection.chunkIndex < script.chunks.count else {
            connection.ended = script.ending
            switch script.ending {
            case .endOfFile: return .processed(0)
            case .reset: throw SyscallError(call: "read", errno: ECONNRESET)
            }
        }
        let chunk = script.chunks[connection.chunkIndex].bytes
        let start = chunk.startIndex + connection.chunkOffset
        let count = min(buffer.count, plan.readSize, chunk.endIndex - start)
        let piece = chunk[start..<(start + count)]
        buffer.copyBytes(from: piece)
        connection.delivered += piece
        connection.chunkOffset += count
        if start + count == chunk.endIndex {
            connection.chunkIndex += 1
            connection.chunkOffset = 0
        }
        return .processed(count)
    }

    // MARK: - Writes

    private func write(_ connection: ScriptedConnection, _ buffers: [UnsafeRawBufferPointer]) -> IOResult<Int> {
        countCall()
        require(connection.ended != .reset, "connection \(connection.number) written after a reset")
        connection.writeCalls += 1
        let offered = buffers.reduce(0) { $0 + $1.count }
        let accepted =
            switch plan.writeMode {
            case 1: min(offered, 5)
            case 2: connection.writeCalls % 2 == 1 ? 0 : offered
            case 3: min(offered, 1)
            default: offered
            }
        guard accepted > 0 else { return .wouldBlock }
        // The server waits while the client is still writing.
        connection.gatedReads = 0
        var remaining = accepted
        for buffer in buffers where remaining > 0 {
            for byte in buffer.prefix(remaining) { take(byte, on: connection) }
            remaining -= min(remaining, buffer.count)
        }
        return .processed(accepted)
    }

    /// Follows the client's byte stream: request heads (whose first byte is recorded with what
    /// the server had delivered by then) and their `Content-Length` bodies.
    private func take(_ byte: UInt8, on connection: ScriptedConnection) {
        if !connection.inRequest {
            connection.inRequest = true
            connection.head = []
            connection.requests.append(
                WrittenRequest(
                    user: currentUser, sequence: writtenRequests, deliveredBefore: connection.delivered.count,
                    endedBefore: connection.ended != nil))
            writtenRequests += 1
        }
        if connection.bodyRemaining > 0 {
            connection.bodyRemaining -= 1
            if connection.bodyRemaining == 0 { connection.inRequest = false }
            return
        }
        connection.head.append(byte)
        if byte == 32 && connection.requests[connection.requests.count - 1].method.isEmpty {
            // The method is known from the request line's first space: a response may end the
            // exchange before the rest of the head is written.
            connection.requests[connection.requests.count - 1].method = String(
                decoding: connection.head.dropLast(), as: UTF8.self)
        }
        guard connection.head.suffix(4).elementsEqual([13, 10, 13, 10]) else { return }
        connection.headsComplete += 1
        let text = String(decoding: connection.head, as: UTF8.self)
        let length = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) }
        connection.bodyRemaining = length ?? 0
        connection.head = []
        if connection.bodyRemaining == 0 { connection.inRequest = false }
    }
}
