// A client and a server engine wired together in memory: swift-nio-ssl's interactInMemory, ours.
@_spi(WickTLSTesting) import WickTLS
import WickTestSupport

/// Moves ciphertext between a client and a server engine until neither has anything to say.
/// Every loop is bounded.
final class InMemoryTLS {
    let client: TLSEngine
    let server: TLSEngine
    /// Whether to feed bytes to the peer one at a time (every split of every record).
    let byteAtATime: Bool

    init(client: TLSEngine, server: TLSEngine, byteAtATime: Bool = false) {
        self.client = client
        self.server = server
        self.byteAtATime = byteAtATime
    }

    /// A pair for `host:port`, the server serving `chain` with `key`.
    convenience init(
        clientContext: TLSContext, serverContext: TLSServerContext, host: String = "localhost", port: Int = 443,
        byteAtATime: Bool = false
    ) throws {
        self.init(
            client: try TLSEngine(context: clientContext, serverHostname: host, port: port),
            server: try TLSEngine(serverContext: serverContext), byteAtATime: byteAtATime)
    }

    /// Sends each side's pending output to the other.
    func flush() {
        deliver(client.takePendingOutput(), to: server)
        deliver(server.takePendingOutput(), to: client)
    }

    private func deliver(_ bytes: [UInt8], to engine: TLSEngine) {
        guard !bytes.isEmpty else { return }
        if byteAtATime {
            for byte in bytes { engine.receivedFromNetwork(CollectionOfOne(byte)) }
        } else {
            engine.receivedFromNetwork(bytes)
        }
    }

    /// Runs the handshake until the client's is complete (the server's, too, unless it failed).
    /// - Throws: the client's handshake error, or the server's.
    func handshake() throws(TLSError) {
        var clientDone = false
        var serverDone = false
        for _ in 0..<20 where !(clientDone && serverDone) {
            if !clientDone { clientDone = try client.handshake() == .complete }
            flush()
            if !serverDone { serverDone = try server.handshake() == .complete }
            flush()
        }
        precondition(clientDone && serverDone, "the in-memory handshake did not finish in 20 rounds")
    }

    /// Handshake, then the client evaluates trust with `evaluator`.
    func connect(evaluator: (any ServerTrustEvaluating)? = nil) throws(TLSError) {
        try handshake()
        try client.evaluateTrust(using: evaluator)
    }

    /// Everything `engine` can read now (after a flush), and whether it saw the end.
    func readAll(_ engine: TLSEngine) throws(TLSError) -> (bytes: [UInt8], closed: Bool) {
        flush()
        var bytes: [UInt8] = []
        for _ in 0..<1000 {
            switch try engine.read(into: &bytes) {
            case .bytes: continue
            case .needsInput: return (bytes, false)
            case .closed: return (bytes, true)
            }
        }
        preconditionFailure("more than 1000 reads")
    }
}
