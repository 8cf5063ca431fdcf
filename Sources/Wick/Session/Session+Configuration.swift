// What a Session is built with: default headers, the request timeout, pool bounds, trust roots.
public import WickTLS

extension Session {
    /// The settings a `Session` is created with; fixed for its lifetime.
    public struct Configuration: Sendable {
        /// Header fields every request carries; a request's own fields replace them by name.
        /// Defaults to `HTTPHeaders.default`.
        public var headers: HTTPHeaders = .default
        /// The total deadline of one request, from `resume` to the last body byte: pool wait,
        /// connect, TLS, sending and receiving. Past it the request fails with
        /// `SessionTaskFailure.timedOut` naming the phase. Default 60 s.
        public var requestTimeout: Duration = .seconds(60)
        /// The most connections open at once to one origin (scheme, host, port, TLS rules);
        /// further requests wait for one. Default 8.
        public var maximumConnectionsPerHost: Int = 8
        /// How long an idle pooled connection is kept before it is closed. Default 60 s (less
        /// when the server's `Keep-Alive: timeout` asks for less).
        public var idleConnectionTimeout: Duration = .seconds(60)
        /// The certificates https servers are verified against. Default `.system`.
        public var trustRoots: TrustRoots = .system
        /// The event loop threads; each runs one connection pool, and an origin always uses
        /// the same one, so its connections are shared. Default 1 (one loop handles thousands
        /// of connections; more help only when TLS handshakes saturate a core).
        public var eventLoopCount: Int = 1
        /// The largest response body a request collects; more fails it with
        /// `WickError.bodyTooLarge` (the body is held in memory whole). Default 64 MiB.
        public var maximumResponseBodyBytes: Int = 64 * 1024 * 1024

        /// The defaults described on each property.
        public init() {}

        /// The defaults described on each property.
        public static var `default`: Configuration { Configuration() }
    }
}
