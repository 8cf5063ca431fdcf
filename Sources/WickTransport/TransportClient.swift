// The transport as a Session drives it: its loops and pool runners, a request put into transport
// terms (destination, proxy, decoding, TLS rules), and the one cache of TLS rules.
import Dispatch
package import FoundationEssentials
package import WickCore
import WickHTTP1
import WickPool
package import WickReactor
package import WickTLS

/// What `Session` sends through. It owns `configuration.eventLoopCount` event loops with one
/// `ConnectionPoolRunner` on each, and turns a request given in plain terms (method, URL,
/// headers, body bytes, socket path) into a `TransportRequest` for the runner its origin always
/// uses. It knows nothing of `Session`, interceptors or `WickError`: failures to prepare are
/// `TransportPreparationError`, failures to send `TransportError`, both mapped by the caller.
///
/// **TLS rules.** The `TLSContext` of https requests (trust roots, session cache, revocation
/// fetcher) and the trust manager are built on the first https request (loading trust roots reads
/// files) and kept, failure included: this is the transport's one TLS context cache. Runners
/// take the rules each https request carries and build none of their own. The context of an
/// `https` proxy's sessions is built the same way, once per `ProxyTLSTrust` (a client's rules
/// name at most two proxies), and kept.
///
/// **Origins and runners.** An origin (host or socket path, and port) always maps to the same
/// runner, so its connections are shared; with one loop (the default) every origin uses it.
///
/// Call `shutdown()` before releasing it: the runners hold sockets and the loops threads.
package final class TransportClient: Sendable {
    /// What a client is built with; fixed for its lifetime.
    package struct Configuration: Sendable {
        /// The event loop threads, one pool runner on each. Default 1.
        package var eventLoopCount = 1
        /// How long the loops, and callers waiting inline, poll before they sleep
        /// (`EventLoopGroup.Configuration.busyPollDuration`). Default `.zero`: never.
        package var busyPollDuration: Duration = .zero
        /// The runners' pool, driver, connect and TLS settings, and the response body limit.
        package var settings = TransportSettings()
        /// The TLS settings of every https connection (trust roots, client identity, versions,
        /// ciphers, key log). Default `TLSConfiguration()`.
        package var tls = TLSConfiguration()
        /// Per-host trust evaluators, or nil for the default evaluation.
        package var trustManager: ServerTrustManager?
        /// The limit of one OCSP query or CRL download (through runner 0, over plain http).
        package var revocationFetchTimeout: Duration = .seconds(5)
        /// The `User-Agent` of the transport's own requests (OCSP and CRL fetches); nil sends none.
        package var userAgent: String?
        /// The proxy rules, resolved: nil goes direct; a failure fails every request that would
        /// consult them (every one not sent to a Unix socket).
        package var proxyRules: Result<ProxyRules?, ProxyConfigurationError> = .success(nil)
        /// The local address and ports of every TCP connection, unless a request names its own.
        package var sourceBinding: SourceBinding?
        /// Decode `gzip` and `deflate` response bodies (within `decodingLimits`).
        package var decodesResponseBodies = true
        /// Bodies from a `TransportBodySource` of at least this many bytes, or of unknown length,
        /// are sent with `Expect: 100-continue`; nil never.
        package var expectContinueThreshold: Int? = 1 << 20

        package init() {}

        /// The decoder's limits: its size limit is one byte past `maximumResponseBodyBytes`, so
        /// that a bomb ends as `responseBodyTooLarge` in the exchange, which counts decoded bytes.
        var decodingLimits: ContentDecoderLimits? {
            guard decodesResponseBodies else { return nil }
            var limits = ContentDecoderLimits()
            let maximum = settings.maximumResponseBodyBytes
            limits.maximumDecodedSize = maximum.addingReportingOverflow(1).overflow ? Int.max : maximum + 1
            return limits
        }
    }

    /// A request ready for the transport: its runner, its transport form, and the handle that
    /// cancels it.
    package struct PreparedSend: Sendable {
        let runner: ConnectionPoolRunner
        /// Cancels the exchange wherever it is, and tells its sink to take bytes again.
        package let cancellation: TransportCancellation

        /// Sends the request once (no redirect, no retry); `completion` is called once with the
        /// whole response or the failure, on the runner's loop thread. It must touch nothing of
        /// the loop's: when the caller is not on the loop, it runs there after the loop's
        /// iteration, outside it (`ConnectionPoolRunner.start`'s `completesAfterIteration`).
        /// - Parameters:
        ///   - sink: where a streamed body goes (downloads, data streams); nil collects it.
        ///   - leaseObserver: told on the loop when the request gets its connection.
        package func start(
            deadline: Deadline, sink: (any TransportBodySink)?, leaseObserver: TransportExchange.LeaseObserver?,
            completion: @escaping @Sendable (consuming Result<TransportResponse, TransportError>) -> Void
        ) {
            // A collected response may be hedged; a streamed one goes to its sink once.
            if let hedged = cancellation.hedged, sink == nil {
                return hedged.start(deadline: deadline, leaseObserver: leaseObserver, completion: completion)
            }
            // A caller on the loop (a task that prefers it) is told in a loop task, where its
            // Swift job then runs without waking the loop again.
            runner.start(
                cancellation.handle, deadline: deadline, sink: sink, leaseObserver: leaseObserver,
                completesAfterIteration: !runner.loop.inEventLoop, completion: completion)
        }
    }

    /// The runners, one per loop; an origin always uses the same one (`runner(for:)`).
    package let runners: [ConnectionPoolRunner]
    package let group: EventLoopGroup
    private let configuration: Configuration
    /// `configuration.proxyRules`, taken apart once: matching the `Result` per send copied it.
    private let proxyRules: ProxyRules?
    private let proxyRulesFailure: ProxyConfigurationError?
    /// The TLS rules of https requests, built on the first one (see the type's comment).
    /// The rules and the failure apart: a send copies only the two references of the rules out
    /// of the lock (a cached `Result` was copied through its value witnesses, `TLSError`'s size).
    private let tls = Locked<(rules: TransportTLS?, failure: TLSError?)>((nil, nil))
    /// The TLS contexts of https proxies, by their trust, built on first use (see the type's comment).
    private let proxyContexts = Locked<[ProxyTLSTrust: Result<ProxyTLSContext, TLSError>]>([:])

    /// Starts the loops and makes a runner on each.
    /// - Throws: `ReactorError` when the loop threads cannot be started.
    package init(configuration: Configuration) throws(ReactorError) {
        precondition(configuration.eventLoopCount >= 1, "TransportClient: eventLoopCount must be at least 1")
        self.configuration = configuration
        switch configuration.proxyRules {
        // Rules without a proxy (no proxy variable set) are none: no request then asks them.
        case .success(let rules):
            (proxyRules, proxyRulesFailure) = (rules.flatMap { $0.http == nil && $0.https == nil ? nil : $0 }, nil)
        case .failure(let failure): (proxyRules, proxyRulesFailure) = (nil, failure)
        }
        let group = try EventLoopGroup(
            configuration: EventLoopGroup.Configuration(
                threadCount: configuration.eventLoopCount, busyPollDuration: configuration.busyPollDuration))
        self.group = group
        runners = (0..<configuration.eventLoopCount).map { _ in
            ConnectionPoolRunner(group: group, settings: configuration.settings)
        }
    }

    // MARK: - Requests

    /// The request in transport terms, made ready for its runner, with `bodySource` (an upload)
    /// sent instead of `body`, hedged as `hedging` says. `destination`, when given, is `url` and `unixSocketPath` as
    /// `TransportDestination` already read them (the session checked the request), so they
    /// are not read again.
    package func prepareSend(
        _ method: HTTPMethod, url: URL, headers: HTTPHeaders, body: [UInt8]?, unixSocketPath: String?,
        destination: TransportDestination? = nil, source: SourceBinding? = nil,
        bodySource: (any TransportBodySource)? = nil,
        hedging: RequestHedging = .sessionPolicy
    ) -> Result<PreparedSend, TransportPreparationError> {
        // Thrown rather than returned in a `Result`, and consumed by the exchange, so the
        // request moves into it instead of being copied (through its value witnesses).
        let prepared: TransportRequest
        do throws(TransportPreparationError) {
            prepared = try prepare(
                method, url: url, headers: headers, body: body, unixSocketPath: unixSocketPath,
                destination: destination, source: source, bodySource: bodySource)
        } catch {
            return .failure(error)
        }
        let runner = runner(for: prepared)
        let hedgeable = bodySource == nil
        let exchange = runner.makeExchange(consume prepared)
        var cancellation = TransportCancellation(runner: runner, handle: exchange)
        if let policy = hedging.resolved(sessionPolicy: configuration.settings.hedging), hedgeable,
            policy.methods.contains(method)
        {
            cancellation.hedged = HedgedExchange(policy: policy, runner: runner, primary: exchange)
        }
        return .success(PreparedSend(runner: runner, cancellation: cancellation))
    }

    /// The transport's form of a request: its destination (`TransportDestination`, the one
    /// reading of the URL), the proxy `proxyRules` choose for a TCP origin (with its TLS context
    /// for an `https` proxy), its source binding
    /// (`source`, else the configuration's), the decoding limits, the body source with its
    /// `Expect: 100-continue` decision, and, for https, the TLS rules. A URL that passed
    /// `TransportDestination` where the request was made fails here only on a port out of range.
    /// - Throws: `TransportPreparationError` naming what cannot be sent.
    func prepare(
        _ method: HTTPMethod, url: URL, headers: HTTPHeaders, body: [UInt8]?, unixSocketPath: String?,
        destination checked: TransportDestination? = nil, source: SourceBinding? = nil,
        bodySource: (any TransportBodySource)? = nil
    ) throws(TransportPreparationError) -> TransportRequest {
        let destination: TransportDestination
        if let checked {
            destination = checked
        } else {
            destination = try TransportDestination(url: url, unixSocketPath: unixSocketPath)
        }
        let port = try destination.checkedPort()
        let host = destination.host
        // Everything that may throw comes first, and the request is made once, in the return:
        // a request made early and then filled in was copied (through its value witnesses) on
        // its way out. The rare parts (a socket, a proxy, a source binding) go straight into
        // the route, which a direct TCP request, the usual one, does without.
        let source = source ?? configuration.sourceBinding
        var route: TransportOrigin.Route?
        if let socket = destination.unixSocketPath {
            route = .of(unixSocketPath: socket, proxy: nil, proxyTLS: nil, source: nil)
        } else {
            if let proxyRulesFailure { throw .invalidProxyConfiguration(proxyRulesFailure) }
            if let proxy = proxyRules?.proxy(forScheme: destination.scheme.rawValue, host: host) {
                var proxyTLS: ProxyTLSContext?
                if proxy.scheme.usesTLS {
                    switch proxyContext(for: proxy.tlsTrust) {
                    case .success(let context): proxyTLS = context
                    case .failure(let error):
                        throw .invalidProxyConfiguration(.unusableTLSTrust(proxy: "\(proxy)", error: error))
                    }
                }
                route = .of(unixSocketPath: nil, proxy: proxy, proxyTLS: proxyTLS, source: source)
            } else if let source {
                route = .of(unixSocketPath: nil, proxy: nil, proxyTLS: nil, source: source)
            }
        }
        var tls: TransportTLS?
        if destination.scheme == .https {
            do throws(TLSError) {
                tls = try transportTLS()
            } catch {
                throw .tlsUnavailable(error)
            }
        }
        let expectContinue =
            bodySource.map { bodySource in
                configuration.expectContinueThreshold.map { threshold in
                    bodySource.length.map { $0 >= threshold } ?? true
                } ?? false
            } ?? false
        return TransportRequest(
            method: method, scheme: destination.scheme, host: host, port: port,
            hostFieldValue: destination.hostFieldValue
                ?? TransportRequest.hostFieldValue(host: host, port: port, scheme: destination.scheme),
            target: destination.target, headers: headers,
            body: bodySource == nil ? body : nil, bodySource: bodySource, expectContinue: expectContinue, tls: tls,
            route: route, hasVettedOriginTargetAndHost: destination.isVettedForHTTP1,
            decoding: configuration.decodingLimits)
    }

    /// The runner `request`'s origin always uses (stable within the process). With one runner
    /// (the default) the origin is never made.
    func runner(for request: borrowing TransportRequest) -> ConnectionPoolRunner {
        // Borrowed, and its origin built only with more than one runner: an autoclosure over
        // the request copied the whole request (through its value witnesses) per send.
        guard runners.count > 1 else { return runners[0] }
        let origin = request.origin
        var hasher = Hasher()
        hasher.combine(origin.unixSocketPath?.path ?? origin.host.lowercasedIfNeeded())
        hasher.combine(origin.port)
        return runners[Int(UInt(bitPattern: hasher.finalize()) % UInt(runners.count))]
    }

    /// The loop of the runner that serves the origin of `url`; nil when `url` cannot be sent to.
    package func loop(for url: URL) -> EventLoop? {
        guard let prepared = try? prepare(.get, url: url, headers: HTTPHeaders(), body: nil, unixSocketPath: nil)
        else { return nil }
        return runner(for: prepared).loop
    }

    /// Opens connections to the origin of `url` ahead of traffic, until it has `connections`
    /// of them (capped by the pool's limits); returns at once.
    /// - Throws: `TransportPreparationError` when `url` cannot be sent to.
    package func prewarm(_ url: URL, connections: Int) throws(TransportPreparationError) {
        let prepared = try prepare(.get, url: url, headers: HTTPHeaders(), body: nil, unixSocketPath: nil)
        runner(for: prepared).prewarm(prepared.origin, connections: connections)
    }

    /// Fails requests still waiting for a connection, lets running ones finish, closes every
    /// connection, and stops the loop threads.
    package func shutdown() async {
        for runner in runners { await runner.shutdown(.drain) }
        // Joining the loop threads blocks, so it happens off Swift's cooperative threads.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [group] in
                group.shutdownGracefully()
                continuation.resume()
            }
        }
    }

    // MARK: - TLS

    /// The context of https proxies under `trust`, built once per trust (the failure too).
    private func proxyContext(for trust: ProxyTLSTrust) -> Result<ProxyTLSContext, TLSError> {
        proxyContexts.withLock { contexts in
            if let cached = contexts[trust] { return cached }
            let built: Result<ProxyTLSContext, TLSError>
            do throws(TLSError) {
                built = .success(ProxyTLSContext(context: try TLSContext(configuration: trust.configuration)))
            } catch {
                built = .failure(error)
            }
            contexts[trust] = built
            return built
        }
    }

    /// The TLS context and trust manager, built once (the failure too).
    /// - Throws: `TLSError` when the context cannot be built (an unreadable trust store or
    ///   client identity), the same error for every request.
    private func transportTLS() throws(TLSError) -> TransportTLS {
        try tls.withLock { (state) throws(TLSError) -> TransportTLS in
            if let rules = state.rules { return rules }
            if let failure = state.failure { throw failure }
            do throws(TLSError) {
                let rules = TransportTLS(
                    context: try TLSContext(
                        configuration: configuration.tls,
                        revocationFetcher: TransportRevocationFetcher(
                            runner: runners[0], timeout: configuration.revocationFetchTimeout,
                            userAgent: configuration.userAgent)),
                    trustManager: configuration.trustManager)
                state.rules = rules
                return rules
            } catch {
                state.failure = error
                throw error
            }
        }
    }
}
