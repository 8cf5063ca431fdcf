// The public entry point: creates requests and runs them on its own loops and connection pools.
public import Dispatch
public import FoundationEssentials
import Synchronization
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

    private let group: EventLoopGroup
    private let runners: [ConnectionPoolRunner]
    /// The TLS rules of https requests, built on the first one (loading trust roots reads files).
    private let tls = Mutex<Result<TransportTLS, TLSError>?>(nil)
    /// `configuration.proxy` resolved (the environment read once); nil goes direct.
    private let proxyRules: Result<ProxyRules?, ProxyConfigurationError>

    /// A Session with its own loops and pools.
    ///
    /// Traps if the loop threads cannot be started (the process is out of file descriptors or
    /// threads): a client without its loops cannot do anything useful.
    /// - Parameter serverTrustManager: per-host trust evaluators (pinning, revocation); nil
    ///   evaluates every host by default against `configuration.trustRoots`.
    public init(configuration: Configuration = .default, serverTrustManager: ServerTrustManager? = nil) {
        precondition(configuration.eventLoopCount >= 1, "Session: eventLoopCount must be at least 1")
        self.configuration = configuration
        self.serverTrustManager = serverTrustManager
        responseQueue = DispatchQueue(label: "wick.session.response")
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
        runners = (0..<configuration.eventLoopCount).map { _ in
            ConnectionPoolRunner(group: group, settings: settings)
        }
    }

    /// Creates a request; it starts when its first response handler (`responseData`,
    /// `serializingData`) is added, or on `resume()`. An invalid URL does not throw here: the
    /// request finishes with `WickError.invalidURL`.
    ///
    /// Besides `http` and `https`, the URL may name a Unix domain socket, in async-http-client's
    /// spellings: `http+unix://%2Frun%2Fapp.sock/path?query` (the authority is the
    /// percent-encoded socket path, the rest the target), `https+unix://...` (TLS over the
    /// socket, verified for `localhost`), or `unix:///run/app.sock` (target `/`). The `Host`
    /// field is then `localhost`.
    /// - Parameter headers: fields that replace the configuration's by name (every field is
    ///   kept, so a name may repeat).
    /// - Parameter body: sent with `Content-Length`.
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil
    ) -> DataRequest {
        makeRequest(convertible, method: method, headers: headers, body: body, unixSocketPath: nil)
    }

    /// Creates a request for an `http` or `https` URL sent over the Unix domain socket at
    /// `unixSocketPath` instead of a TCP connection to the URL's host and port, which then make
    /// only the `Host` field and, for https, the TLS server name trust is evaluated for. A bad
    /// path (empty, over 107 bytes, a NUL byte) finishes the request with `WickError.invalidURL`.
    /// - Parameter unixSocketPath: the socket's file-system path, e.g. `/run/app.sock`.
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil,
        unixSocketPath: String
    ) -> DataRequest {
        makeRequest(convertible, method: method, headers: headers, body: body, unixSocketPath: unixSocketPath)
    }

    /// The same as `request(_:method:headers:body:)` with the body as bytes.
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: [UInt8]
    ) -> DataRequest {
        request(convertible, method: method, headers: headers, body: Data(body))
    }

    /// The schemes of Unix-socket URLs (`TransportRequest.parseUnixURL`).
    private static let unixSchemes: Set<String> = ["http+unix", "https+unix", "unix"]

    /// Validates the URL (and socket path) and merges the headers; a failure becomes a request
    /// that finishes with it.
    private func makeRequest(
        _ convertible: some URLConvertible, method: HTTPMethod, headers: HTTPHeaders?, body: Data?,
        unixSocketPath: String?
    ) -> DataRequest {
        var merged = configuration.headers
        let own = headers ?? HTTPHeaders()
        for field in own { merged.remove(name: field.name) }
        for field in own { merged.add(field) }
        if configuration.automaticallyDecodesResponseBodies, !merged.contains(name: "Accept-Encoding") {
            merged.add(.defaultAcceptEncoding)
        }
        do throws(WickError) {
            let url = try convertible.asURL()
            let scheme = url.scheme?.lowercased() ?? ""
            if Self.unixSchemes.contains(scheme) {
                guard unixSocketPath == nil else {
                    throw .invalidURL(
                        url: url.absoluteString, reason: "a Unix-socket URL names its own socket; pass no unixSocketPath")
                }
                do throws(UnixSocketError) {
                    _ = try TransportRequest.parseUnixURL(url.absoluteString)
                } catch {
                    throw .invalidURL(url: url.absoluteString, reason: error.description)
                }
            } else {
                guard scheme == "http" || scheme == "https" else {
                    throw .invalidURL(
                        url: url.absoluteString,
                        reason: "the scheme must be http, https, http+unix, https+unix or unix")
                }
                guard let host = url.host(), !host.isEmpty else {
                    throw .invalidURL(url: url.absoluteString, reason: "the URL has no host")
                }
                if let unixSocketPath {
                    do throws(UnixSocketError) {
                        _ = try UnixSocketPath(unixSocketPath)
                    } catch {
                        throw .invalidURL(url: url.absoluteString, reason: error.description)
                    }
                }
            }
            return DataRequest(
                session: self,
                request: HTTPRequest(
                    method: method, url: url, headers: merged, body: body, unixSocketPath: unixSocketPath))
        } catch {
            return DataRequest(session: self, failure: error)
        }
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

    /// Sends `request` and collects the response.
    func perform(_ request: HTTPRequest) async -> Result<TransportResponse, WickError> {
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
        let origin = transportRequest.origin
        let runner =
            runners.count == 1
            ? runners[0]
            : runners[runnerIndex(host: origin.unixSocketPath?.path ?? origin.host.lowercased(), port: origin.port)]
        do {
            return .success(
                try await runner.execute(transportRequest, deadline: .now() + configuration.requestTimeout))
        } catch {
            return .failure(WickError(error))
        }
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
                        context: try TLSContext(configuration: tlsConfiguration), trustManager: serverTrustManager))
            } catch {
                built = .failure(error)
            }
            cached = built
            return built
        }
    }
}
