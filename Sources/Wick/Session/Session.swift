// The public entry point: creates requests and runs them on its own loops and connection pools.
public import Dispatch
import FoundationEssentials
import Logging
import WickReactor
public import WickTLS
@_spi(WickSocketSeam) public import WickTransport

/// Creates and runs requests, as Alamofire's `Session` does: `Session.default.request(url)
/// .responseData { ... }`, or `try await session.request(url).serializingData().value`.
///
/// A Session owns `configuration.eventLoopCount` event loop threads, each with one connection
/// pool (its `TransportClient`); every request to one origin goes to the same pool, so
/// keep-alive connections are reused across requests. Make one Session per set of settings and
/// share it.
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
    /// The serial queue the user's request code runs on: validations, retriers and redirect
    /// handlers (never an event loop, so slow code there delays no connection).
    public let rootQueue: DispatchQueue
    /// The queue adapters run on (Alamofire's request queue, where each attempt's request is
    /// made): `rootQueue` unless another was given.
    public let requestQueue: DispatchQueue
    /// The queue response serializers run on before their completion handler is called on its
    /// own queue (Alamofire's serialization queue); nil (the default) serializes on the
    /// handler's queue, which saves a thread hop per response.
    public let serializationQueue: DispatchQueue?
    /// Adapts and retries every request, around each request's own interceptor: its adapter
    /// runs first, its retrier is asked last.
    public let interceptor: (any RequestInterceptor)?
    /// Whether `interceptor` is not nil, kept so a request's attempt does not copy the
    /// existential to ask.
    let hasInterceptor: Bool
    /// `configuration.logger`, or nil when it is `Logger.wickDisabled`'s kind (its handler
    /// discards everything at any level): a request with no logger of its own then skips its
    /// log points without copying the logger and asking its handler for the level at each.
    let requestLogger: Logger?
    /// Decides redirects for requests that set no handler of their own. Default: follow.
    public let redirectHandler: any RedirectHandler
    /// Decides whether and how storable responses go into `configuration.responseCache` for
    /// requests that set no handler of their own. Default: `ResponseCacher.cache`.
    public let cachedResponseHandler: any CachedResponseHandler
    /// Receives every request's events: the monitors given at creation.
    public let eventMonitor: CompositeEventMonitor

    /// The header fields of a request that brings none of its own: the configuration's, with
    /// `Accept-Encoding` while bodies are decoded. Built once, shared by every such request.
    let defaultRequestHeaders: HTTPHeaders
    /// The last URL string a request was made from, parsed (`url(from:)`).
    let recentURL = RecentURL()

    /// The stored responses a background request is revalidating now (`staleWhileRevalidate`):
    /// at most one such request per stored response.
    let revalidationsInFlight = Locked<Set<CacheEntryKey>>([])

    /// Every request created and not yet finished.
    private let activeRequests = RequestRegistry()
    /// The loops, the pools, the TLS rules, and the translation of a request into their terms.
    let transport: TransportClient

    /// A Session with its own loops and pools.
    ///
    /// Traps if the loop threads cannot be started (the process is out of file descriptors or
    /// threads): a client without its loops cannot do anything useful.
    /// The parameters come in Alamofire's order, so its `Session(...)` calls compile as written.
    /// - Parameter configuration: the settings fixed for the session's lifetime: timeouts, the
    ///   pool, TLS, the proxy, cookies, the response cache, the HSTS store, the logger.
    /// - Parameter rootQueue: a serial queue for the user's request code (validations, retriers,
    ///   redirect handlers); a concurrent queue would break their ordering.
    /// - Parameter startRequestsImmediately: start each request when its first response handler
    ///   is added; false waits for `resume()` (a request's `shouldAutomaticallyResume` overrides
    ///   it).
    /// - Parameter requestQueue: where adapters run; nil: `rootQueue`.
    /// - Parameter serializationQueue: where response serializers run; nil: each handler's queue.
    /// - Parameter interceptor: adapts and retries every request.
    /// - Parameter serverTrustManager: per-host trust evaluators (pinning, revocation); nil
    ///   evaluates every host by default against `configuration.trustRoots`.
    /// - Parameter redirectHandler: decides redirects; nil follows them (`Redirector.follow`).
    /// - Parameter cachedResponseHandler: decides what goes into `configuration.responseCache`;
    ///   nil stores every storable response (`ResponseCacher.cache`).
    /// - Parameter eventMonitors: receive every request's events, each on its own queue.
    public convenience init(
        configuration: Configuration = .default, rootQueue: DispatchQueue = DispatchQueue(label: "wick.session.root"),
        startRequestsImmediately: Bool = true, requestQueue: DispatchQueue? = nil,
        serializationQueue: DispatchQueue? = nil, interceptor: (any RequestInterceptor)? = nil,
        serverTrustManager: ServerTrustManager? = nil, redirectHandler: (any RedirectHandler)? = nil,
        cachedResponseHandler: (any CachedResponseHandler)? = nil, eventMonitors: [any EventMonitor] = []
    ) {
        self.init(
            configuration: configuration,
            queues: (root: rootQueue, request: requestQueue ?? rootQueue, serialization: serializationQueue),
            serverTrustManager: serverTrustManager, startRequestsImmediately: startRequestsImmediately,
            interceptor: interceptor, redirectHandler: redirectHandler, cachedResponseHandler: cachedResponseHandler,
            eventMonitors: eventMonitors, dialer: nil)
    }

    /// A Session with `configuration` and nothing more (no trust manager, interceptor, redirect
    /// handler of its own or event monitor) whose connections' plain streams are opened by
    /// `dialer` instead of sockets (for https, TLS then runs over them as usual).
    ///
    /// SPI (`@_spi(WickSocketSeam)`), not API: the whole-client fuzz target plays a hostile
    /// server through it, with the kernel replaced by the reactor's socket seam. Traps as
    /// `init(configuration:...)` does.
    @_spi(WickSocketSeam) public convenience init(configuration: Configuration, dialer: TransportDialer) {
        let root = DispatchQueue(label: "wick.session.root")
        self.init(
            configuration: configuration, queues: (root, root, nil), serverTrustManager: nil,
            startRequestsImmediately: true, interceptor: nil, redirectHandler: nil, cachedResponseHandler: nil,
            eventMonitors: [], dialer: dialer)
    }

    /// The one designated initializer: the public one's parameters, plus the dialer (nil opens
    /// real sockets).
    private init(
        configuration: Configuration,
        queues: (root: DispatchQueue, request: DispatchQueue, serialization: DispatchQueue?),
        serverTrustManager: ServerTrustManager?, startRequestsImmediately: Bool,
        interceptor: (any RequestInterceptor)?, redirectHandler: (any RedirectHandler)?,
        cachedResponseHandler: (any CachedResponseHandler)?, eventMonitors: [any EventMonitor], dialer: TransportDialer?
    ) {
        precondition(configuration.eventLoopCount >= 1, "Session: eventLoopCount must be at least 1")
        precondition(
            configuration.http2PingAckTimeout > .zero && configuration.http2SettingsAckTimeout > .zero
                && (configuration.http2PingInterval ?? .seconds(1)) > .zero,
            "Session: http2PingInterval, http2PingAckTimeout and http2SettingsAckTimeout must be positive")
        precondition(
            configuration.http2MaximumConcurrentStreams >= 1
                && (1...Int(Int32.max)).contains(configuration.http2StreamWindowSize)
                && (65_535...Int(Int32.max)).contains(configuration.http2ConnectionWindowSize),
            "Session: http2MaximumConcurrentStreams must be positive, http2StreamWindowSize 1...2^31-1, "
                + "http2ConnectionWindowSize 65,535...2^31-1")
        self.configuration = configuration
        defaultRequestHeaders = Self.defaultRequestHeaders(for: configuration)
        self.serverTrustManager = serverTrustManager
        self.startRequestsImmediately = startRequestsImmediately
        self.interceptor = interceptor
        hasInterceptor = interceptor != nil
        requestLogger = configuration.logger.handler is SwiftLogNoOpLogHandler ? nil : configuration.logger
        self.redirectHandler = redirectHandler ?? Redirector.follow
        self.cachedResponseHandler = cachedResponseHandler ?? ResponseCacher.cache
        eventMonitor = CompositeEventMonitor(monitors: eventMonitors)
        responseQueue = DispatchQueue(label: "wick.session.response")
        rootQueue = queues.root
        requestQueue = queues.request
        serializationQueue = queues.serialization
        var transportConfiguration = TransportClient.Configuration()
        transportConfiguration.eventLoopCount = configuration.eventLoopCount
        transportConfiguration.busyPollDuration = configuration.busyPollDuration ?? .zero
        var settings = TransportSettings()
        settings.pool.maximumConnectionsPerOrigin = configuration.maximumConnectionsPerHost
        settings.pool.maximumIdleConnectionsPerOrigin = configuration.maximumConnectionsPerHost
        settings.pool.idleTimeout = configuration.idleConnectionTimeout
        settings.pool.retriesFailedAttempts = configuration.waitsForConnectivity
        settings.pool.maximumRequestsPerConnection = configuration.maximumRequestsPerConnection
        settings.pool.maximumConnectionLifetime = configuration.maximumConnectionLifetime
        settings.pool.poolWaitTimeout = configuration.requestTimeout
        settings.maximumResponseBodyBytes = configuration.maximumResponseBodyBytes
        settings.driver.idleTimeout = configuration.idleTransferTimeout
        settings.connect.timeout = configuration.connectTimeout
        settings.connect.connectionAttemptDelay = configuration.connectionAttemptDelay
        settings.connect.resolutionDelay = configuration.resolutionDelay
        settings.tls.handshakeTimeout = configuration.tlsHandshakeTimeout
        settings.driver.continueTimeout = configuration.continueTimeout
        settings.dialer = dialer
        settings.faultInjector = configuration.faultInjector
        settings.hedging = configuration.hedging
        settings.nameResolution = configuration.nameResolution
        settings.httpVersion = configuration.httpVersion
        settings.http2PriorKnowledge = configuration.http2PriorKnowledge
        settings.http2.configuration.pingInterval = configuration.http2PingInterval
        settings.http2.configuration.pingAckTimeout = configuration.http2PingAckTimeout
        settings.http2.configuration.settingsAckTimeout = configuration.http2SettingsAckTimeout
        settings.http2.configuration.maxConcurrentStreams = configuration.http2MaximumConcurrentStreams
        settings.http2.configuration.initialStreamWindowSize = configuration.http2StreamWindowSize
        settings.http2.configuration.connectionWindowSize = configuration.http2ConnectionWindowSize
        transportConfiguration.settings = settings
        transportConfiguration.tls = configuration.tls
        if configuration.httpVersion != .http1Only {
            transportConfiguration.tls.applicationProtocols = configuration.httpVersion.applicationProtocols
        }
        transportConfiguration.trustManager = serverTrustManager
        transportConfiguration.sourceBinding = configuration.sourceBinding
        transportConfiguration.revocationFetchTimeout = configuration.revocationFetchTimeout
        transportConfiguration.userAgent = HTTPHeader.defaultUserAgent.value
        transportConfiguration.proxyRules = configuration.proxy.resolved(
            environment: ProcessInfo.processInfo.environment)
        transportConfiguration.decodesResponseBodies = configuration.automaticallyDecodesResponseBodies
        transportConfiguration.expectContinueThreshold = configuration.expectContinueThreshold
        do {
            transport = try TransportClient(configuration: transportConfiguration)
        } catch {
            fatalError("Session: cannot start event loops: \(error)")
        }
    }

    /// Calls `body` with every request created and not yet finished.
    public func withAllRequests(perform body: (Set<Request>) -> Void) {
        body(Set(activeRequests.all))
    }

    /// Cancels every request created and not yet finished.
    public func cancelAllRequests() {
        for request in activeRequests.all { request.cancel() }
    }

    /// Tracks `request` until it finishes.
    func register(_ request: Request) {
        activeRequests.add(request)
    }

    /// Stops tracking a finished request.
    func unregister(_ request: Request) {
        activeRequests.remove(request)
    }

    /// Fails requests still waiting for a connection, lets running ones finish, closes every
    /// connection, and stops the loop threads. Requests made afterwards fail with
    /// `WickError.sessionInvalidated`.
    public func shutdown() async {
        await transport.shutdown()
    }

    // MARK: - Running requests

    /// A request ready for the transport (its runner, its transport form, the handle that
    /// cancels it); `start(deadline:sink:leaseObserver:completion:)` sends it. The name
    /// `Request+Run.swift` uses for `TransportClient.PreparedSend`.
    typealias PreparedSend = TransportClient.PreparedSend

    /// `request` checked and made ready for the transport, with `bodySource` (an upload) sent
    /// instead of `request.body`, the cookie storage's `Cookie` field added
    /// (`headersAsSent`) and, for a cache validation, its `conditionalFields`:
    /// `TransportClient.prepareSend` with the failure made public. `request` has passed
    /// `invalidity(of:)` where it was made (created, adapted, redirected).
    func prepareSend(
        _ request: HTTPRequest, bodySource: (any TransportBodySource)? = nil, conditionalFields: HTTPHeaders? = nil
    ) -> Result<PreparedSend, WickError> {
        var headers = headersAsSent(request)
        if let conditionalFields {
            for field in conditionalFields { headers.update(field) }
        }
        return transport.prepareSend(
            request.method, url: request.url, headers: headers, body: request.body.map { [UInt8]($0) },
            unixSocketPath: request.unixSocketPath, destination: request.checkedDestination,
            source: request.sourceBinding,
            bodySource: bodySource, hedging: request.hedging
        ).mapError(WickError.init(preparing:))
    }

    // MARK: - The loops

    /// The event loop that serves every request when `eventLoopCount` is 1 (the default), as a
    /// `TaskExecutor`. A task that prefers it (`withTaskExecutorPreference(session.taskExecutor)
    /// { ... }`) runs on the loop's thread, so each request it awaits starts and completes
    /// there without waking another thread: two thread hops fewer per request, which is most of
    /// a small request's cost on loopback. Only for code that mostly awaits: anything slow it
    /// does between requests delays every connection of the loop. With several loops, use
    /// `taskExecutor(for:)`.
    public var taskExecutor: any TaskExecutor { transport.runners[0].loop }

    /// The event loop that serves the origin of `url`, as a `TaskExecutor` (see `taskExecutor`);
    /// the first loop's when `url` is unusable.
    public func taskExecutor(for url: some URLConvertible) -> any TaskExecutor {
        guard let parsed = try? url.asURL(),
            Self.invalidity(of: HTTPRequest(method: .get, url: parsed, headers: [:], body: nil)) == nil,
            let loop = transport.loop(for: parsed)
        else { return transport.runners[0].loop }
        return loop
    }

    // MARK: - The pools

    /// Opens connections to the origin of `url` (scheme, host, port, and this session's TLS
    /// rules) ahead of traffic, until it has `connections` of them, capped by
    /// `maximumConnectionsPerHost`. Returns at once; the connections open in the background,
    /// and then serve requests like any other (they age out after `idleConnectionTimeout`).
    /// Watch `poolStatistics()` to see them. The path of `url` is ignored.
    /// - Throws: `WickError.invalidURL` when `url` is not a usable http, https or Unix-socket URL.
    public func prewarm(_ url: some URLConvertible, connections: Int) throws(WickError) {
        let parsed = try url.asURL()
        if let invalid = Self.invalidity(of: HTTPRequest(method: .get, url: parsed, headers: HTTPHeaders(), body: nil))
        {
            throw invalid
        }
        do throws(TransportPreparationError) {
            try transport.prewarm(parsed, connections: connections)
        } catch {
            throw WickError(preparing: error)
        }
    }

    /// The pools' gauges (idle, leased, connecting, waiting) and counters (created, reused,
    /// replayed, evicted, pool-wait time), per origin and in total, summed over the session's
    /// event loops. Once the session is shut down, the pools report nothing.
    public func poolStatistics() async -> ConnectionPoolStatistics {
        var statistics = ConnectionPoolStatistics()
        for runner in transport.runners {
            guard let snapshot = try? await runner.statistics() else { continue }
            statistics.add(snapshot)
        }
        return statistics
    }
}
