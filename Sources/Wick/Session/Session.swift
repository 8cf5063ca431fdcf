// The public entry point: creates requests and runs them on its own loops and connection pools.
public import Dispatch
import FoundationEssentials
import WickHTTP1
import WickReactor
public import WickTLS

/// Creates and runs requests, as Alamofire's `Session` does: `Session.default.request(url)
/// .responseData { ... }`, or `try await session.request(url).serializingData().value`.
///
/// A Session owns `configuration.eventLoopCount` event loop threads, each with one connection
/// pool; every request to one origin goes to the same pool, so keep-alive connections are
/// reused across requests. Make one Session per set of settings and share it.
///
/// **Queues.** A Linux daemon has no main run loop, so handlers do not default to a main queue:
/// `responseData(queue: nil)` runs on `responseQueue`, a serial queue the Session owns, so
/// handlers of one Session never run concurrently with each other. Pass a queue to choose.
///
/// **Lifetime.** Call `shutdown()` when done: it waits for running requests, closes every
/// connection and stops the loop threads. A Session dropped without it keeps its loop threads
/// and idle connections until the process exits (the threads cannot be joined from an arbitrary
/// thread, which a deinit may run on); `Session.default` is meant to live that long.
public final class Session: Sendable {
    /// A Session with `Configuration.default` and no trust manager, for the process's life.
    public static let `default` = Session()

    /// The settings the Session was created with.
    public let configuration: Configuration
    /// The per-host trust evaluators for https, or nil for the default evaluation (the chain
    /// against `configuration.trustRoots`, and the host name).
    public let serverTrustManager: ServerTrustManager?
    /// The serial queue response handlers run on when none is given.
    public let responseQueue: DispatchQueue
    /// Whether a request starts when its first response handler is added (true, the default),
    /// or only on `resume()`.
    public let startRequestsImmediately: Bool
    /// The serial queue the user's request code runs on: adapters, validations, retriers and
    /// redirect handlers (never an event loop, so slow code there delays no connection).
    public let rootQueue: DispatchQueue
    /// Adapts and retries every request, around each request's own interceptor: its adapter
    /// runs first, its retrier is asked last.
    public let interceptor: (any RequestInterceptor)?
    /// Decides redirects for requests that set no handler of their own. Default: follow.
    public let redirectHandler: any RedirectHandler
    /// Receives every request's events: the monitors given at creation.
    public let eventMonitor: CompositeEventMonitor

    /// The header fields of a request that brings none of its own: the configuration's, with
    /// `Accept-Encoding` while bodies are decoded. Built once, shared by every such request.
    let defaultRequestHeaders: HTTPHeaders

    /// Every request created and not yet finished, by identifier.
    private let activeRequests = Locked<[UUID: Request]>([:])
    let group: EventLoopGroup
    private let runners: [ConnectionPoolRunner]
    /// The TLS rules of https requests, built on the first one (loading trust roots reads files).
    private let tls = Locked<Result<TransportTLS, TLSError>?>(nil)
    /// `configuration.proxy` resolved (the environment read once); nil goes direct.
    private let proxyRules: Result<ProxyRules?, ProxyConfigurationError>

    /// A Session with its own loops and pools.
    ///
    /// Traps if the loop threads cannot be started (the process is out of file descriptors or
    /// threads): a client without its loops cannot do anything useful.
    /// - Parameter serverTrustManager: per-host trust evaluators (pinning, revocation); nil
    ///   evaluates every host by default against `configuration.trustRoots`.
    /// - Parameter startRequestsImmediately: start each request when its first response handler
    ///   is added; false waits for `resume()`.
    /// - Parameter interceptor: adapts and retries every request.
    /// - Parameter redirectHandler: decides redirects; nil follows them (`Redirector.follow`).
    /// - Parameter eventMonitors: receive every request's events, each on its own queue.
    public init(
        configuration: Configuration = .default, serverTrustManager: ServerTrustManager? = nil,
        startRequestsImmediately: Bool = true, interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: (any RedirectHandler)? = nil, eventMonitors: [any EventMonitor] = []
    ) {
        precondition(configuration.eventLoopCount >= 1, "Session: eventLoopCount must be at least 1")
        self.configuration = configuration
        defaultRequestHeaders = Self.defaultRequestHeaders(for: configuration)
        self.serverTrustManager = serverTrustManager
        self.startRequestsImmediately = startRequestsImmediately
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler ?? Redirector.follow
        eventMonitor = CompositeEventMonitor(monitors: eventMonitors)
        responseQueue = DispatchQueue(label: "wick.session.response")
        rootQueue = DispatchQueue(label: "wick.session.root")
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(
                configuration: EventLoopGroup.Configuration(threadCount: configuration.eventLoopCount))
        } catch {
            fatalError("Session: cannot start event loops: \(error)")
        }
        self.group = group
        proxyRules = configuration.proxy.resolved(environment: ProcessInfo.processInfo.environment)
        var settings = TransportSettings()
        settings.pool.maximumConnectionsPerOrigin = configuration.maximumConnectionsPerHost
        settings.pool.maximumIdleConnectionsPerOrigin = configuration.maximumConnectionsPerHost
        settings.pool.idleTimeout = configuration.idleConnectionTimeout
        settings.pool.poolWaitTimeout = configuration.requestTimeout
        settings.maximumResponseBodyBytes = configuration.maximumResponseBodyBytes
        settings.driver.idleTimeout = configuration.idleTransferTimeout
        settings.connect.timeout = configuration.connectTimeout
        settings.tls.handshakeTimeout = configuration.tlsHandshakeTimeout
        settings.driver.continueTimeout = configuration.continueTimeout
        runners = (0..<configuration.eventLoopCount).map { _ in
            ConnectionPoolRunner(group: group, settings: settings)
        }
    }

    /// Calls `body` with every request created and not yet finished.
    public func withAllRequests(perform body: (Set<Request>) -> Void) {
        body(Set(activeRequests.withLock { Array($0.values) }))
    }

    /// Cancels every request created and not yet finished.
    public func cancelAllRequests() {
        for request in activeRequests.withLock({ Array($0.values) }) { request.cancel() }
    }

    /// Tracks `request` until it finishes.
    func register(_ request: Request) {
        activeRequests.withLock { $0[request.id] = request }
    }

    /// Stops tracking a finished request.
    func unregister(_ request: Request) {
        _ = activeRequests.withLock { $0.removeValue(forKey: request.id) }
    }

    /// Fails requests still waiting for a connection, lets running ones finish, closes every
    /// connection, and stops the loop threads. Requests made afterwards fail with
    /// `WickError.sessionInvalidated`.
    public func shutdown() async {
        for runner in runners { await runner.shutdown(.drain) }
        // Joining the loop threads blocks, so it happens off Swift's cooperative threads.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [group] in
                group.shutdownGracefully()
                continuation.resume()
            }
        }
    }

    // MARK: - Running requests

    /// A request ready for the transport: its runner, its transport form, and the handle that
    /// cancels it.
    struct PreparedSend: Sendable {
        let runner: ConnectionPoolRunner
        let request: TransportRequest
        let cancellation: TransportCancellation

        /// Sends the request once (no redirect, no retry); `completion` is called once, on the
        /// runner's loop, with the whole response or the failure.
        /// - Parameters:
        ///   - sink: where a streamed body goes (downloads, data streams); nil collects it.
        ///   - leaseObserver: told on the loop when the request gets its connection.
        func start(
            deadline: Deadline, sink: (any TransportBodySink)?, leaseObserver: TransportExchange.LeaseObserver?,
            completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
        ) {
            runner.start(
                request, deadline: deadline, handle: cancellation.handle, sink: sink, leaseObserver: leaseObserver,
                completion: completion)
        }
    }

    /// `request` checked and made ready for the transport, with `bodySource` (an upload) sent
    /// instead of `request.body`.
    func prepareSend(
        _ request: HTTPRequest, bodySource: (any TransportBodySource)? = nil
    ) -> Result<PreparedSend, WickError> {
        prepare(request).map { prepared in
            var prepared = prepared
            if let bodySource {
                prepared.body = nil
                prepared.bodySource = bodySource
                prepared.expectContinue = configuration.expectContinueThreshold.map { threshold in
                    bodySource.length.map { $0 >= threshold } ?? true
                } ?? false
            }
            let runner = runner(for: prepared.origin)
            return PreparedSend(
                runner: runner, request: prepared,
                cancellation: TransportCancellation(runner: runner, handle: TransportExchangeReference()))
        }
    }

    /// The transport's request for `request`, checked, with its decoding limits and TLS rules.
    /// `request` has passed `invalidity(of:)` where it was made (created, adapted, redirected),
    /// so the URL is not checked again on each send.
    private func prepare(_ request: HTTPRequest) -> Result<TransportRequest, WickError> {
        var transportRequest: TransportRequest
        switch makeTransportRequest(request) {
        case .success(let built): transportRequest = built
        case .failure(let error): return .failure(error)
        }
        if configuration.automaticallyDecodesResponseBodies {
            var limits = ContentDecoderLimits()
            // One byte past the body limit, so that a bomb ends as `bodyTooLarge` in the exchange.
            limits.maximumDecodedSize = configuration.maximumResponseBodyBytes.addingReportingOverflow(1).overflow
                ? Int.max : configuration.maximumResponseBodyBytes + 1
            transportRequest.decoding = limits
        }
        if transportRequest.scheme == .https {
            switch transportTLS() {
            case .success(let rules): transportRequest.tls = rules
            case .failure(let error): return .failure(.sessionTaskFailed(error: .tlsUnavailable(error)))
            }
        }
        return .success(transportRequest)
    }

    /// The runner an origin always uses.
    private func runner(for origin: TransportOrigin) -> ConnectionPoolRunner {
        runners.count == 1
            ? runners[0]
            : runners[runnerIndex(host: origin.unixSocketPath?.path ?? origin.host.lowercased(), port: origin.port)]
    }

    // MARK: - The loops

    /// The event loop that serves every request when `eventLoopCount` is 1 (the default), as a
    /// `TaskExecutor`. A task that prefers it (`withTaskExecutorPreference(session.taskExecutor)
    /// { ... }`) runs on the loop's thread, so each request it awaits starts and completes
    /// there without waking another thread: two thread hops fewer per request, which is most of
    /// a small request's cost on loopback. Only for code that mostly awaits: anything slow it
    /// does between requests delays every connection of the loop. With several loops, use
    /// `taskExecutor(for:)`.
    public var taskExecutor: any TaskExecutor { runners[0].loop }

    /// The event loop that serves the origin of `url`, as a `TaskExecutor` (see `taskExecutor`);
    /// the first loop's when `url` is unusable.
    public func taskExecutor(for url: some URLConvertible) -> any TaskExecutor {
        guard let parsed = try? url.asURL(),
            case let probe = HTTPRequest(method: .get, url: parsed, headers: [:], body: nil),
            Self.invalidity(of: probe) == nil, case .success(let prepared) = prepare(probe)
        else { return runners[0].loop }
        return runner(for: prepared.origin).loop
    }

    // MARK: - The pools

    /// Opens connections to the origin of `url` (scheme, host, port, and this session's TLS
    /// rules) ahead of traffic, until it has `connections` of them, capped by
    /// `maximumConnectionsPerHost`. Returns at once; the connections open in the background,
    /// and then serve requests like any other (they age out after `idleConnectionTimeout`).
    /// Watch `poolStatistics()` to see them. The path of `url` is ignored.
    /// - Throws: `WickError.invalidURL` when `url` is not a usable http, https or Unix-socket URL.
    public func prewarm(_ url: some URLConvertible, connections: Int) throws(WickError) {
        let request = HTTPRequest(method: .get, url: try url.asURL(), headers: HTTPHeaders(), body: nil)
        if let invalid = Self.invalidity(of: request) { throw invalid }
        let prepared = try prepare(request).get()
        runner(for: prepared.origin).prewarm(prepared.origin, connections: connections)
    }

    /// The pools' gauges (idle, leased, connecting, waiting) and counters (created, reused,
    /// replayed, evicted, pool-wait time), per origin and in total, summed over the session's
    /// event loops. Once the session is shut down, the pools report nothing.
    public func poolStatistics() async -> ConnectionPoolStatistics {
        var statistics = ConnectionPoolStatistics()
        for runner in runners {
            guard let snapshot = try? await runner.statistics() else { continue }
            statistics.add(snapshot)
        }
        return statistics
    }

    /// The transport's form of `request`: a TCP origin (through the proxy `proxyRules` choose),
    /// a Unix-socket URL, or a URL over `request.unixSocketPath`.
    private func makeTransportRequest(_ request: HTTPRequest) -> Result<TransportRequest, WickError> {
        let url = request.url
        let body = request.body.map { [UInt8]($0) }
        let text = url.absoluteString
        if Self.unixSchemes.contains(url.scheme?.lowercased() ?? "") {
            do throws(UnixSocketError) {
                return .success(try TransportRequest(request.method, unixURL: text, headers: request.headers, body: body))
            } catch {
                return .failure(.invalidURL(url: text, reason: error.description))
            }
        }
        let scheme: TransportOrigin.Scheme = url.scheme?.lowercased() == "https" ? .https : .http
        var host = url.host() ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let path = url.path(percentEncoded: true)
        let target = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        guard let port = UInt16(exactly: url.port ?? Int(scheme.defaultPort)) else {
            return .failure(.invalidURL(url: text, reason: "the port is out of range"))
        }
        var socket: UnixSocketPath?
        if let unixSocketPath = request.unixSocketPath {
            do throws(UnixSocketError) {
                socket = try UnixSocketPath(unixSocketPath)
            } catch {
                return .failure(.invalidURL(url: text, reason: error.description))
            }
        }
        var transportRequest = TransportRequest(
            request.method, scheme, host: host, port: port, target: target, headers: request.headers, body: body,
            unixSocketPath: socket)
        if socket == nil {
            switch proxyRules {
            case .success(let rules): transportRequest.proxy = rules?.proxy(forScheme: scheme.rawValue, host: host)
            case .failure(let error): return .failure(.invalidProxyConfiguration(error))
            }
        }
        return .success(transportRequest)
    }

    /// The pool an origin always uses (stable within the process).
    private func runnerIndex(host: String, port: UInt16) -> Int {
        var hasher = Hasher()
        hasher.combine(host)
        hasher.combine(port)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(runners.count))
    }

    /// The TLS context and trust manager, built once.
    private func transportTLS() -> Result<TransportTLS, TLSError> {
        tls.withLock { cached in
            if let cached { return cached }
            var tlsConfiguration = TLSConfiguration()
            tlsConfiguration.trustRoots = configuration.trustRoots
            let built: Result<TransportTLS, TLSError>
            do throws(TLSError) {
                built = .success(
                    TransportTLS(
                        context: try TLSContext(
                            configuration: tlsConfiguration,
                            revocationFetcher: TransportRevocationFetcher(
                                runner: runners[0], timeout: configuration.revocationFetchTimeout)),
                        trustManager: serverTrustManager))
            } catch {
                built = .failure(error)
            }
            cached = built
            return built
        }
    }
}
