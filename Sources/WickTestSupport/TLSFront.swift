// A TLS front for tests: TLS accepted on a loopback port, the plaintext relayed to a plain server.
import Foundation
@_spi(WickTLSTesting) public import WickTLS

/// Terminates TLS in front of a plain server on 127.0.0.1, as nginx's `stream` module with `ssl`
/// would: put in front of the in-process `TestProxy`, it makes an HTTPS proxy. Each accepted
/// connection gets its own thread: the TLS handshake with `certificateChain` (Wick's engine in
/// its server role, over OpenSSL), then, once the client's first plaintext arrives, a
/// connection to `backendPort` (so a client that refuses the certificate never reaches the
/// backend), and bytes relayed both ways until either side ends. The ends are passed on: the backend's FIN becomes `close_notify`
/// and a FIN to the client; the client's `close_notify`, FIN or TLS failure closes the backend.
///
/// It counts the connections whose handshake completed (`completedHandshakes`), so a test can
/// tell a client that refused the certificate (the handshake completes on the server's side,
/// then the client hangs up before sending any request) from one that went on. Each connection
/// is bounded by `connectionTimeLimit`; `stop()` (or deinit) interrupts every one.
public final class TLSFront: Sendable {
    private struct State {
        var accepted = 0
        var completedHandshakes = 0
        var relayedBytes = 0
        var openDescriptors: Set<Int32> = []
        var stopped = false
    }

    /// The port the front listens on at 127.0.0.1.
    public let port: Int
    /// The port on 127.0.0.1 the plaintext goes to.
    public let backendPort: Int
    /// The longest any one connection may live before it is cut.
    public let connectionTimeLimit: Duration
    private let context: TLSServerContext
    private let state = PthreadLocked(State())
    private let threads = DispatchGroup()

    /// Starts listening.
    /// - Parameters:
    ///   - backendPort: where each connection's plaintext goes (a `TestProxy`'s port).
    ///   - certificateChain: the chain served, leaf first (a `TestPKI`'s `serverChain`).
    ///   - privateKeyPEM: the leaf's key.
    /// - Throws: `TLSError` if the server context cannot be made, `TestSupportError.socket` if
    ///   the listener cannot.
    public init(
        backendPort: Int, certificateChain: [Certificate], privateKeyPEM: String,
        connectionTimeLimit: Duration = .seconds(30)
    ) throws {
        context = try TLSServerContext(certificateChain: certificateChain, privateKeyPEM: privateKeyPEM)
        let (listener, port) = try BlockingSocket.listenOnLoopback()
        self.port = port
        self.backendPort = backendPort
        self.connectionTimeLimit = connectionTimeLimit
        threads.enter()
        Thread.detachNewThread { [self] in
            acceptLoop(listener: listener)
            listener.close()
            threads.leave()
        }
    }

    /// A front serving `pki`'s `server` leaf (valid for localhost, 127.0.0.1 and ::1) with its
    /// intermediate.
    /// - Throws: as `init(backendPort:certificateChain:privateKeyPEM:connectionTimeLimit:)`, or
    ///   an error reading the PKI's files.
    public convenience init(backendPort: Int, pki: TestPKI) throws {
        try self.init(
            backendPort: backendPort,
            certificateChain: Certificate.chain(pemEncoded: String(contentsOf: pki.serverChain, encoding: .utf8)),
            privateKeyPEM: String(contentsOf: pki.server.privateKey, encoding: .utf8))
    }

    /// How many connections have been accepted so far.
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// How many TLS handshakes completed (on the server's side) so far.
    public var completedHandshakes: Int { state.withLock { $0.completedHandshakes } }

    /// How many plaintext bytes the front relayed so far, both ways.
    public var relayedBytes: Int { state.withLock { $0.relayedBytes } }

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

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(listener: BlockingSocket) {
        while !isStopped {
            guard let client = listener.accept(timeout: .milliseconds(20)) else { continue }
            guard track(client, accepted: true) else { return }
            threads.enter()
            Thread.detachNewThread { [self] in
                serve(client)
                release(client)
                threads.leave()
            }
        }
    }

    /// Makes `socket` reachable by `stop()`; false (and the socket closed) once stopped.
    private func track(_ socket: BlockingSocket, accepted: Bool = false) -> Bool {
        let tracked = state.withLock { state in
            guard !state.stopped else { return false }
            state.openDescriptors.insert(socket.fd)
            if accepted { state.accepted += 1 }
            return true
        }
        if !tracked { socket.close() }
        return tracked
    }

    /// Forgets `socket` (so `stop()` never touches a reused descriptor), then closes it.
    private func release(_ socket: BlockingSocket) {
        _ = state.withLock { $0.openDescriptors.remove(socket.fd) }
        socket.close()
    }

    // MARK: - One connection

    /// The handshake, then the relay; returns when the connection is over.
    private func serve(_ client: BlockingSocket) {
        let deadline = ContinuousClock.now + connectionTimeLimit
        guard let engine = try? TLSEngine(serverContext: context), handshake(engine, client, deadline) else { return }
        state.withLock { $0.completedHandshakes += 1 }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        // The backend is dialled for the first plaintext, which may have come with the handshake.
        var first: [UInt8] = []
        while first.isEmpty, !isStopped {
            switch try? engine.read(into: &first) {
            case .bytes: continue
            case .needsInput:
                switch client.read(into: &buffer, deadline: deadline) {
                case .bytes(let count): engine.receivedFromNetwork(buffer[0..<count])
                case .endOfFile: engine.receivedEndOfStream()
                case .timedOut, .failed: return
                }
            case .closed, nil:
                return
            }
        }
        guard !first.isEmpty, case .success(let backend) = BlockingSocket.connectToLoopback(port: backendPort),
            track(backend)
        else { return }
        defer { release(backend) }
        guard backend.sendAll(first, deadline: deadline) == nil else { return }
        state.withLock { $0.relayedBytes += first.count }
        relay(engine, client: client, backend: backend, deadline: deadline)
    }

    /// Runs the server's handshake; false if it failed, the client left or time ran out.
    private func handshake(_ engine: TLSEngine, _ client: BlockingSocket, _ deadline: ContinuousClock.Instant) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !isStopped {
            let progress: TLSEngine.HandshakeProgress
            do {
                progress = try engine.handshake()
            } catch {
                flush(engine, to: client, deadline)
                return false
            }
            guard flush(engine, to: client, deadline) else { return false }
            if progress == .complete { return true }
            switch client.read(into: &buffer, deadline: deadline) {
            case .bytes(let count): engine.receivedFromNetwork(buffer[0..<count])
            case .endOfFile, .timedOut, .failed: return false
            }
        }
        return false
    }

    /// Relays plaintext both ways until either side ends, time runs out or the front stops.
    private func relay(
        _ engine: TLSEngine, client: BlockingSocket, backend: BlockingSocket, deadline: ContinuousClock.Instant
    ) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        // More plaintext may have come with the first.
        guard deliver(engine, to: backend, deadline) else { return }
        while !isStopped, ContinuousClock.now < deadline {
            let (clientReady, backendReady) = client.waitForInput(
                watching: (true, true), and: backend, timeout: .milliseconds(50))
            if clientReady {
                switch client.read(into: &buffer, deadline: deadline) {
                case .bytes(let count): engine.receivedFromNetwork(buffer[0..<count])
                case .endOfFile: engine.receivedEndOfStream()
                case .timedOut, .failed: return
                }
                guard deliver(engine, to: backend, deadline), flush(engine, to: client, deadline) else { return }
            }
            if backendReady {
                switch backend.read(into: &buffer, deadline: deadline) {
                case .bytes(let count):
                    guard (try? engine.write(buffer[0..<count])) != nil, flush(engine, to: client, deadline) else {
                        return
                    }
                    state.withLock { $0.relayedBytes += count }
                case .endOfFile:
                    engine.close()
                    flush(engine, to: client, deadline)
                    client.shutdownWrite()
                    return drain(client, deadline)
                case .timedOut, .failed:
                    return
                }
            }
        }
    }

    /// Decrypts what the engine holds and sends it to the backend; false once the client's
    /// stream ended (`close_notify`, or a TLS failure) or the backend failed.
    private func deliver(_ engine: TLSEngine, to backend: BlockingSocket, _ deadline: ContinuousClock.Instant) -> Bool {
        while true {
            var plaintext: [UInt8] = []
            switch try? engine.read(into: &plaintext) {
            case .bytes:
                guard backend.sendAll(plaintext, deadline: deadline) == nil else { return false }
                state.withLock { $0.relayedBytes += plaintext.count }
            case .needsInput:
                return true
            case .closed, nil:
                return false
            }
        }
    }

    /// Sends the engine's pending ciphertext to the client; false if that failed.
    @discardableResult
    private func flush(_ engine: TLSEngine, to client: BlockingSocket, _ deadline: ContinuousClock.Instant) -> Bool {
        guard engine.hasPendingOutput else { return true }
        return client.sendAll(engine.takePendingOutput(), deadline: deadline) == nil
    }

    /// Reads and drops what the client still sends (its `close_notify`) until it closes.
    private func drain(_ client: BlockingSocket, _ deadline: ContinuousClock.Instant) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let end = min(deadline, .now + .seconds(2))
        while !isStopped {
            switch client.read(into: &buffer, deadline: end) {
            case .bytes: continue
            case .endOfFile, .timedOut, .failed: return
            }
        }
    }
}
