// Opens TLS channels: resolve, Happy Eyeballs connect, TLS handshake, trust evaluation.
import WickCore
public import WickReactor

/// Opens ready `TLSChannel`s: the reactor's `Connector` resolves and races addresses, then the
/// TLS handshake and trust evaluation run on the winning socket, all before the channel is
/// handed over (so before a single application byte can be written).
///
/// The evaluator for a host comes from `trustManager` when one is given (Alamofire's rules:
/// with `allHostsMustBeEvaluated`, a host without an evaluator fails with
/// `.noRequiredEvaluator` before any connection is opened; otherwise such a host gets
/// `DefaultTrustEvaluator()`), and is `DefaultTrustEvaluator()` without a manager.
public struct TLSConnector: Sendable {
    /// Resolves and connects the sockets; its `options.timeout` bounds the whole connect.
    public let connector: Connector
    /// The TLS settings, trust store and session cache shared by the connections.
    public let context: TLSContext
    /// Per-host evaluators, or nil for `DefaultTrustEvaluator()` everywhere.
    public let trustManager: ServerTrustManager?
    /// The TLS phase's bounds.
    public var options: TLSConnectOptions
    /// Where evaluations that may block run (`TrustEvaluationSite`).
    public let evaluationPool: TrustEvaluationPool

    /// A connector; `evaluationPool` defaults to the process-wide pool.
    public init(
        connector: Connector, context: TLSContext, trustManager: ServerTrustManager? = nil,
        options: TLSConnectOptions = TLSConnectOptions(), evaluationPool: TrustEvaluationPool = .shared
    ) {
        self.connector = connector
        self.context = context
        self.trustManager = trustManager
        self.options = options
        self.evaluationPool = evaluationPool
    }

    /// Connects to `host:port` on `loop` and establishes TLS, naming `host` for SNI (unless it
    /// is an IP literal), session resumption and trust evaluation. `completion` runs once, on
    /// `loop`, with a ready, not yet started `TLSChannel`, or with `.reactor` (resolution or
    /// connect failed or timed out, loop shut down), `.tls` (`.handshakeFailed`,
    /// `.serverTrustFailed`, `.invalidConfiguration`) or `.tlsTimedOut` (naming the TLS phase).
    /// Callable from any thread; if `loop` has shut down, `completion` runs at once on the
    /// caller's thread.
    public func connect(
        host: String, port: UInt16, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<TLSChannel, StreamChannelError>) -> Void
    ) {
        let started = Deadline.now()
        let evaluator: any ServerTrustEvaluating
        do {
            evaluator = try self.evaluator(forHost: host)
        } catch {
            if !loop.execute({ completion(.failure(.tls(.serverTrustFailed(error)))) }) {
                completion(.failure(.reactor(.loopShutDown)))
            }
            return
        }
        let context = self.context
        let options = self.options
        let pool = evaluationPool
        let overall = started + connector.options.timeout
        connector.connect(host: host, port: port, on: loop) { result in
            let channel: Channel
            switch result {
            case .success(let connected): channel = connected
            case .failure(let error):
                completion(.failure(.reactor(error)))
                return
            }
            let engine: TLSEngine
            do throws(TLSError) {
                engine = try TLSEngine(context: context, serverHostname: host, port: Int(port))
            } catch {
                channel.close()
                completion(.failure(.tls(error)))
                return
            }
            TLSChannel.establish(
                over: channel, engine: engine, evaluator: evaluator, pool: pool,
                deadline: overall.earliest(.now() + options.handshakeTimeout), closeTimeout: options.closeTimeout,
                completion)
        }
    }

    /// `connect(host:port:on:_:)` for async callers.
    /// - Throws: the `StreamChannelError` the completion would carry.
    public func connect(host: String, port: UInt16, on loop: EventLoop) async throws(StreamChannelError) -> TLSChannel {
        let result = await awaitCallback { deliver in connect(host: host, port: port, on: loop, deliver) }
        return try result.get()
    }

    /// The evaluator for `host`: the manager's, `DefaultTrustEvaluator()` when it has none
    /// and allows that, or `DefaultTrustEvaluator()` without a manager.
    /// - Throws: `ServerTrustError` (`.noRequiredEvaluator`, or the manager's own error).
    func evaluator(forHost host: String) throws(ServerTrustError) -> any ServerTrustEvaluating {
        guard let trustManager else { return DefaultTrustEvaluator() }
        let name = HostAddress.unbracketed(host) ?? host
        do {
            return try trustManager.serverTrustEvaluator(forHost: name) ?? DefaultTrustEvaluator()
        } catch {
            throw error as? ServerTrustError
                ?? ServerTrustError(host: name, evaluator: "\(type(of: trustManager))", reason: .custom("\(error)"))
        }
    }
}
