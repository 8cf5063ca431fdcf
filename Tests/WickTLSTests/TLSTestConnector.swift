// How the TLS tests open TLS connections: by Wick's one TLS connect path, WickTransport's
// `TransportConnector`, under one context and trust manager.
import WickReactor
import WickTLS
@_spi(WickDirectConnect) import WickTransport

/// A `TransportConnector` with the context and trust manager every connection it opens uses:
/// resolve, Happy Eyeballs connect, TLS handshake and trust evaluation, exactly as the pool's
/// https connections are opened, handing over a ready, not yet started `TLSChannel`.
struct TLSTestConnector: Sendable {
    let transport: TransportConnector
    let context: TLSContext
    let trustManager: ServerTrustManager?

    /// A connector; `connector.options.timeout` bounds the whole connect, `options` the TLS phase.
    init(
        connector: Connector, context: TLSContext, trustManager: ServerTrustManager? = nil,
        options: TLSConnectOptions = TLSConnectOptions(), evaluationPool: TrustEvaluationPool = .shared
    ) {
        transport = TransportConnector(connector: connector, tlsOptions: options, evaluationPool: evaluationPool)
        self.context = context
        self.trustManager = trustManager
    }

    /// Connects to `host:port` and establishes TLS (`host` is the SNI name unless an IP literal,
    /// and the name trust is evaluated for).
    /// - Throws: `StreamChannelError`, as `TransportConnector` reports it.
    func connect(host: String, port: UInt16, on loop: EventLoop) async throws(StreamChannelError) -> TLSChannel {
        try await transport.connect(host: host, port: port, context: context, trustManager: trustManager, on: loop)
    }
}
