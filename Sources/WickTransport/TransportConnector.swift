// Opens a connection to an origin, plain or TLS, over TCP, a Unix socket or a proxy (HTTP, HTTPS,
// SOCKS), timing the connect and the TLS phase apart: Wick's one way to open a TLS connection.
import WickCore
public import WickReactor
public import WickTLS

/// Opens ready `StreamChannel`s for the pool: resolve and Happy Eyeballs connect with the
/// reactor's `Connector`, then, for https, the TLS handshake and trust evaluation on the winning
/// socket, before any request byte can be written, in two visible steps so that a request's
/// metrics can tell the TCP connect from the TLS phase.
///
/// This is the only TLS connect path: tests and benchmarks that want a bare TLS connection,
/// without a pool, use `connect(host:port:context:trustManager:on:_:)` (SPI `WickDirectConnect`),
/// which runs the same steps.
///
/// An origin with a `unixSocketPath` is connected with one `connect(2)` to that socket: no
/// resolver, no Happy Eyeballs, within the connector's timeout. TLS over it (`https+unix`) then
/// runs as over TCP, with the origin's `host` as the SNI name and the name trust is evaluated for.
///
/// An origin with a `proxy` is dialled at the proxy's `host:port`. Through an HTTP proxy, for
/// `http` that is all: the requests go to the proxy in absolute form; for `https`,
/// `ProxyTunnel` first asks the proxy for a CONNECT tunnel to `host:port`. Through a SOCKS proxy,
/// `SOCKSTunnel` opens a tunnel to `host:port` for either scheme (resolving the name first for
/// `socks5` and `socks4`, with the connector's resolver). Either tunnel is opened within what
/// remains of the connect timeout, and counts as part of the connect time; TLS then runs inside
/// it with the origin's `host` as the SNI name and the name trust is evaluated for, never the
/// proxy's.
///
/// An HTTPS proxy is an HTTP proxy behind TLS: first a TLS session with the proxy (SNI and the
/// name its certificate is checked for are the proxy's host; the context is the origin's
/// `proxyTLS`, the evaluator its `tlsTrust`'s, never the trust manager's), bounded by the TLS
/// handshake timeout and counted as part of the connect, as the tunnel is. For `http` that
/// session is the connection; for `https` the CONNECT goes inside it, and the origin's TLS runs
/// inside the tunnel, its records carried as the proxy session's plaintext (TLS inside TLS). A
/// failure of the proxy's session is `ProxyTunnelError.tlsFailed` or `.tlsTimedOut`, naming the
/// proxy.
///
/// An origin's `source` binds every TCP connection made for it (to the server or to its proxy)
/// to that local address and ports before connecting.
///
/// A `ConnectToOverride` that matches the origin's `host:port` changes where TCP connections go
/// (and, through a proxy, the CONNECT target), never the SNI name or the name trust is evaluated
/// for; `ResolveOverride`s and a user's `NameResolver` act inside `connector`'s resolver.
@_spi(WickDirectConnect) public struct TransportConnector: Sendable {
    /// A connected stream and how long each step took.
    struct Connected: Sendable {
        let channel: any StreamChannel
        let timings: ConnectionTimings
    }

    let connector: Connector
    let tlsOptions: TLSConnectOptions
    let evaluationPool: TrustEvaluationPool
    /// Opens plain streams in place of `connector` when set (`TransportDialer`).
    var dialer: TransportDialer?
    /// The session's name-resolution rules; the connector reads its `--connect-to` entries (the
    /// rest act inside `connector`'s resolver).
    var nameResolution = NameResolution()

    /// A connector: `connector` resolves and connects sockets (its `options.timeout` bounds the
    /// whole connect), `tlsOptions` bound the TLS phase, and evaluations that may block run on
    /// `evaluationPool` (the process-wide pool by default).
    @_spi(WickDirectConnect) public init(
        connector: Connector, tlsOptions: TLSConnectOptions = TLSConnectOptions(),
        evaluationPool: TrustEvaluationPool = .shared
    ) {
        self.connector = connector
        self.tlsOptions = tlsOptions
        self.evaluationPool = evaluationPool
    }

    /// Connects to `origin` on `loop`. `completion` runs once, on `loop` (on the caller's thread
    /// if the loop has shut down), with the not yet started stream or the failure: `.reactor`
    /// for resolution and connect (a Unix socket's failure is `.connectFailed` or
    /// `.connectTimedOut` whose host is `unix:<path>`), `.proxy` when a proxy refuses or breaks
    /// the tunnel (CONNECT or SOCKS), `.tls` (`.serverTrustFailed` when the trust manager has no
    /// evaluator for the host and requires one, or the evaluator refuses the server;
    /// `.handshakeFailed`), `.tlsTimedOut`.
    ///
    /// Every phase ends at the earliest of its own limit and `deadline`: resolution and the
    /// socket's connect at the connector's `options.timeout`, the proxy's tunnel at what
    /// remains of it, the TLS phase at `tlsOptions.handshakeTimeout` and what then remains of it.
    /// `phase` is told, on `loop`, as each phase begins (`.connecting` before this returns).
    /// `fault`, a connect fault a `FaultInjector` chose, makes the dial fail as it says instead.
    func connect(
        to origin: TransportOrigin, deadline: Deadline = .distantFuture, on loop: EventLoop, fault: Fault? = nil,
        phase: @escaping @Sendable (ConnectPhase) -> Void = { _ in },
        _ completion: @escaping @Sendable (Result<Connected, StreamChannelError>) -> Void
    ) {
        let started = Deadline.now()
        phase(.connecting)
        guard let tls = origin.tls else {
            let overall = (started + connector.options.timeout).earliest(deadline)
            tunnel(to: origin, on: loop, deadline: overall, fault: fault, phase: phase) { result in
                completion(
                    result.map { tunnel in
                        Connected(
                            channel: tunnel.carrier,
                            timings: ConnectionTimings(
                                started: started, resolve: tunnel.resolve, connected: .now(), tlsHandshake: nil))
                    })
            }
            return
        }
        connectTLS(to: origin, tls: tls, started: started, deadline: deadline, on: loop, fault: fault, phase: phase) {
            result in
            completion(result.map { Connected(channel: $0.channel, timings: $0.timings) })
        }
    }

    /// Connects to `host:port` over TLS on `loop`, by the same steps as a pool's https origin
    /// (no proxy, no pool): for tests and benchmarks that drive a `TLSChannel` themselves.
    /// `host` is a name or an IP literal (IPv6 with or without brackets); it is the SNI name
    /// (unless an IP literal), the session cache key and the name trust is evaluated for, with
    /// `trustManager`'s evaluator for it (`DefaultTrustEvaluator()` without one). `completion`
    /// runs once, on `loop` (on the caller's thread if the loop has shut down), with a ready,
    /// not yet started `TLSChannel`, or the failure as `connect(to:on:_:)` reports it.
    @_spi(WickDirectConnect) public func connect(
        host: String, port: UInt16, context: TLSContext, trustManager: ServerTrustManager? = nil, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<TLSChannel, StreamChannelError>) -> Void
    ) {
        let tls = TransportTLS(context: context, trustManager: trustManager)
        let origin = TransportOrigin(scheme: .https, host: TransportOrigin.unbracketed(host), port: port, tls: tls)
        connectTLS(to: origin, tls: tls, started: .now(), deadline: .distantFuture, on: loop, phase: { _ in }) {
            completion($0.map(\.channel))
        }
    }

    /// `connect(host:port:context:trustManager:on:_:)` for async callers.
    /// - Throws: the `StreamChannelError` the completion would carry.
    @_spi(WickDirectConnect) public func connect(
        host: String, port: UInt16, context: TLSContext, trustManager: ServerTrustManager? = nil, on loop: EventLoop
    ) async throws(StreamChannelError) -> TLSChannel {
        let result = await awaitCallback { deliver in
            connect(host: host, port: port, context: context, trustManager: trustManager, on: loop, deliver)
        }
        return try result.get()
    }

    /// The https half of `connect(to:on:_:)`: the evaluator for the host (refused before any
    /// socket opens when the manager requires one it lacks), the plain stream (`tunnel`), then
    /// the handshake and trust evaluation, bounded as `connect(to:on:_:)` says.
    private func connectTLS(
        to origin: TransportOrigin, tls: TransportTLS, started: Deadline, deadline: Deadline, on loop: EventLoop,
        fault: Fault? = nil, phase: @escaping @Sendable (ConnectPhase) -> Void,
        _ completion:
            @escaping @Sendable (Result<(channel: TLSChannel, timings: ConnectionTimings), StreamChannelError>) ->
            Void
    ) {
        let evaluator: any ServerTrustEvaluating
        do {
            evaluator = try Self.evaluator(for: origin.host, trustManager: tls.trustManager)
        } catch {
            if !loop.execute({ completion(.failure(.tls(.serverTrustFailed(error)))) }) {
                completion(.failure(.reactor(.loopShutDown)))
            }
            return
        }
        let overall = (started + connector.options.timeout).earliest(deadline)
        let (options, pool) = (tlsOptions, evaluationPool)
        tunnel(to: origin, on: loop, deadline: overall, fault: fault, phase: phase) { result in
            let tunnel: Tunnel
            switch result {
            case .success(let opened): tunnel = opened
            case .failure(let error): return completion(.failure(error))
            }
            let channel = tunnel.carrier
            let connected = Deadline.now()
            phase(.tlsHandshake)
            let engine: TLSEngine
            do throws(TLSError) {
                engine = try TLSEngine(context: tls.context, serverHostname: origin.host, port: Int(origin.port))
            } catch {
                channel.close()
                return completion(.failure(.tls(error)))
            }
            TLSChannel.establish(
                over: channel, engine: engine, evaluator: evaluator, pool: pool,
                deadline: overall.earliest(.now() + options.handshakeTimeout), closeTimeout: options.closeTimeout
            ) { [resolve = tunnel.resolve] result in
                completion(
                    result.map {
                        (
                            channel: $0,
                            timings: ConnectionTimings(
                                started: started, resolve: resolve, connected: connected,
                                tlsHandshake: .now() - connected)
                        )
                    }
                    .mapError { Self.throughProxy($0, origin: origin) })
            }
        }
    }

    /// `error`, the origin's TLS handshake failure, saying it happened inside a proxy's tunnel
    /// when it did (so a proxy that tunnels to something that does not speak TLS is not taken
    /// for a broken origin seen directly); any other error as it is.
    private static func throughProxy(_ error: StreamChannelError, origin: TransportOrigin) -> StreamChannelError {
        guard let proxy = origin.proxy, case .tls(.handshakeFailed(let reason)) = error else { return error }
        let place = "the origin \(origin.authority), inside the tunnel through proxy \(proxy)"
        return .tls(.handshakeFailed("\(reason) (\(place))"))
    }

    /// Opens the plain stream to `origin` by `deadline` (or the connector's timeout): its Unix
    /// socket, its proxy, or `host:port` resolved and raced; with a `dialer`, whatever it opens
    /// for the same host and port (a test seam: it answers at once, so no deadline applies);
    /// with a connect `fault`, that fault's failure.
    private func dial(
        _ origin: TransportOrigin, deadline: Deadline, on loop: EventLoop, fault: Fault?,
        _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
    ) {
        let target = nameResolution.connectTarget(host: origin.host, port: origin.port)
        var connector = self.connector
        if let source = origin.source { connector.options.socket = source.applied(to: connector.options.socket) }
        if let fault, fault.isConnectFault {
            failDial(with: fault, host: origin.proxy?.host ?? target.host, deadline: deadline, on: loop, completion)
        } else if let dialer {
            let (host, port) = origin.proxy.map { ($0.host, $0.port) } ?? target
            dialer.dial(host, port, loop, completion)
        } else if let socket = origin.unixSocketPath {
            connector.connect(to: socket.address, deadline: deadline, on: loop, completion)
        } else if let proxy = origin.proxy {
            connector.connect(host: proxy.host, port: proxy.port, deadline: deadline, on: loop, completion)
        } else {
            connector.connect(host: target.host, port: target.port, deadline: deadline, on: loop, completion)
        }
    }

    /// Fails a dial as an injected connect `fault` says, on `loop`: refused at once, or timed
    /// out when the connect timeout or `deadline` passes, whichever is first, with no socket
    /// opened either way.
    private func failDial(
        with fault: Fault, host: String, deadline: Deadline, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<Channel, ReactorError>) -> Void
    ) {
        let timeout = connector.options.timeout
        if case .connectTimeout = fault {
            _ = loop.schedule(at: (Deadline.now() + timeout).earliest(deadline)) {
                completion(.failure(.connectTimedOut(host: host, timeout: timeout, attempts: [])))
            }
        } else if !loop.execute({ completion(.failure(.connectionRefused)) }) {
            completion(.failure(.loopShutDown))
        }
    }

    /// The CONNECT target for `origin` through a proxy: its `host:port`, or a matching
    /// `ConnectToOverride`'s target (an IPv6 host bracketed).
    private func tunnelAuthority(for origin: TransportOrigin) -> String {
        let target = nameResolution.connectTarget(host: origin.host, port: origin.port)
        return "\(target.host.utf8.contains(UInt8(ascii: ":")) ? "[\(target.host)]" : target.host):\(target.port)"
    }

    /// The stream requests (or the origin's TLS) run over, and how long resolving the name of
    /// what was dialled took.
    struct Tunnel {
        let carrier: any TLSCarrier
        let resolve: Duration?
    }

    /// The stream requests (or TLS) run over, by `deadline`: `dial`'s; through a SOCKS proxy the
    /// tunnel its handshake opens on it; through an HTTP proxy, for https, the CONNECT tunnel
    /// (plain http goes to an HTTP proxy as it is, in absolute form); through an HTTPS proxy, the
    /// TLS session with it, and for https the CONNECT tunnel inside that session.
    private func tunnel(
        to origin: TransportOrigin, on loop: EventLoop, deadline: Deadline, fault: Fault?,
        phase: @escaping @Sendable (ConnectPhase) -> Void,
        _ completion: @escaping @Sendable (Result<Tunnel, StreamChannelError>) -> Void
    ) {
        dial(origin, deadline: deadline, on: loop, fault: fault) { result in
            let socket: Channel
            switch result {
            case .success(let connected): socket = connected
            case .failure(let error): return completion(.failure(.reactor(error)))
            }
            let opened = { @Sendable (carrier: any TLSCarrier) in
                completion(.success(Tunnel(carrier: carrier, resolve: socket.resolveDuration)))
            }
            guard let proxy = origin.proxy, proxy.scheme.isSOCKS || proxy.scheme.usesTLS || origin.tls != nil else {
                return opened(socket)
            }
            phase(.proxyConnect)
            if proxy.scheme.isSOCKS {
                let target = nameResolution.connectTarget(host: origin.host, port: origin.port)
                return SOCKSTunnel.open(
                    over: socket, host: target.host, port: target.port, proxy: proxy, resolver: connector.resolver,
                    deadline: deadline
                ) { completion($0.map { Tunnel(carrier: $0, resolve: socket.resolveDuration) }) }
            }
            let connect = { @Sendable (carrier: any TLSCarrier) in
                guard origin.tls != nil else { return opened(carrier) }
                ProxyTunnel.open(
                    over: carrier, authority: tunnelAuthority(for: origin), proxy: proxy, deadline: deadline
                ) { completion($0.map { Tunnel(carrier: $0, resolve: socket.resolveDuration) }) }
            }
            guard let proxyTLS = origin.proxyTLS else { return connect(socket) }
            proxySession(over: socket, proxy: proxy, context: proxyTLS.context, deadline: deadline) { result in
                switch result {
                case .success(let session): connect(session)
                case .failure(let error): completion(.failure(error))
                }
            }
        }
    }

    /// The TLS session with an HTTPS proxy over `socket`: the proxy's host is the SNI name and
    /// the name its certificate is checked for, under its `tlsTrust`. Ends at `deadline` or the
    /// TLS handshake timeout, whichever is first. TLS failures name the proxy
    /// (`ProxyTunnelError.tlsFailed`, `.tlsTimedOut`); a socket's failure stays `.reactor`.
    private func proxySession(
        over socket: Channel, proxy: ProxyConfiguration, context: TLSContext, deadline: Deadline,
        _ completion: @escaping @Sendable (Result<TLSChannel, StreamChannelError>) -> Void
    ) {
        let engine: TLSEngine
        do throws(TLSError) {
            engine = try TLSEngine(context: context, serverHostname: proxy.host, port: Int(proxy.port))
        } catch {
            socket.close()
            return completion(.failure(.proxy(.tlsFailed(proxy: proxy.authority, error))))
        }
        TLSChannel.establish(
            over: socket, engine: engine, evaluator: proxy.tlsTrust.evaluator, pool: evaluationPool,
            deadline: deadline.earliest(.now() + tlsOptions.handshakeTimeout), closeTimeout: tlsOptions.closeTimeout
        ) { result in
            completion(
                result.mapError { error in
                    switch error {
                    case .tls(let failure): .proxy(.tlsFailed(proxy: proxy.authority, failure))
                    case .tlsTimedOut(_, let phase, let after):
                        .proxy(.tlsTimedOut(proxy: proxy.authority, phase: phase, after: after))
                    case .reactor, .proxy: error
                    }
                })
        }
    }

    /// The trust manager's evaluator for `host`, `DefaultTrustEvaluator()` when it has none and
    /// allows that, or without a manager (default validation is never skipped silently).
    /// - Throws: `ServerTrustError` (`.noRequiredEvaluator`, or the manager's own error).
    static func evaluator(
        for host: String, trustManager: ServerTrustManager?
    ) throws(ServerTrustError) -> any ServerTrustEvaluating {
        guard let trustManager else { return DefaultTrustEvaluator() }
        do {
            return try trustManager.serverTrustEvaluator(forHost: host) ?? DefaultTrustEvaluator()
        } catch {
            throw error as? ServerTrustError
                ?? ServerTrustError(host: host, evaluator: "\(type(of: trustManager))", reason: .custom("\(error)"))
        }
    }
}
