// What a Session is built with: default headers, the request timeout, pool bounds, trust roots,
// the proxy, the cookie storage, the response cache, the HSTS store, the logger.
public import Logging
public import WickTLS

extension Session {
    /// The settings a `Session` is created with; fixed for its lifetime.
    public struct Configuration: Sendable {
        /// Header fields every request carries; a request's own fields replace them by name.
        /// Defaults to `HTTPHeaders.default`.
        public var headers: HTTPHeaders = .default
        /// The total deadline of one request, from `resume` to the last body byte: pool wait,
        /// connect, TLS, sending and receiving. Past it the request fails with
        /// `SessionTaskFailure.timedOut` naming the phase. Default 60 s. A request's own
        /// `HTTPRequest.timeout` (`timeoutInterval`) replaces it; streams and downloads use
        /// `streamAndDownloadTimeout` instead.
        public var requestTimeout: Duration = .seconds(60)
        /// The total deadline of a stream (`streamRequest`) or a download, which may rightly
        /// last for hours; nil (the default): none, so only `idleTransferTimeout` and the
        /// connect and TLS limits end one (URLSession's resource timeout is 7 days). Set it to
        /// bound them too; a request's own `HTTPRequest.timeout` replaces it.
        public var streamAndDownloadTimeout: Duration? = nil
        /// The longest a request may go without a byte sent or received once on a connection
        /// (URLSession's `timeoutIntervalForRequest`); past it the request fails with
        /// `SessionTaskFailure.timedOut(phase: .idleTransfer)`. Default 30 s; nil: only
        /// `requestTimeout` applies. A large download over a slow link needs a long
        /// `requestTimeout` but can keep this short.
        public var idleTransferTimeout: Duration? = .seconds(30)
        /// Whether a request whose connection attempt failed in a way that may heal (refused,
        /// reset, timed out) waits for a later attempt: true (the default) keeps it, with the
        /// origin's other waiters, through a backoff of 100 ms doubling to 10 s until a connect
        /// succeeds or its own deadline passes (the timeout then carries the last failure), so a
        /// daemon rides out a backend's restart. False fails every waiting request at once with
        /// `SessionTaskFailure.connectionFailed`, as curl does and URLSession does by default
        /// (its `waitsForConnectivity` is false unless set). A failure that cannot heal (trust
        /// refused, unknown host) fails at once either way.
        public var waitsForConnectivity: Bool = true
        /// The limit for a new connection's name resolution and TCP connect (all Happy Eyeballs
        /// attempts). Default 10 s. A request also stops at its own deadline.
        public var connectTimeout: Duration = .seconds(10)
        /// Happy Eyeballs' Connection Attempt Delay (RFC 8305 §5): how long a new connection's
        /// attempt to one address runs alone before the next address (alternating IPv6 and
        /// IPv4) is tried beside it; an attempt that fails starts the next at once, and the first
        /// to connect wins. Default 250 ms, the RFC's recommendation; it advises 100 ms to 2 s,
        /// and anything under its 10 ms floor counts as 10 ms.
        public var connectionAttemptDelay: Duration = .milliseconds(250)
        /// Happy Eyeballs' Resolution Delay (RFC 8305 §3): a host's IPv6 and IPv4 addresses are
        /// looked up at once, and IPv4 addresses that arrive first wait this long for the IPv6
        /// ones, so that IPv6 is tried first; IPv6 addresses that arrive first are tried at once.
        /// Default 50 ms, the RFC's recommendation; zero starts with whichever comes first.
        /// Applies to the system resolver and a `PerFamilyNameResolver`; an override or a plain
        /// `NameResolver` gives one list, tried in its order.
        public var resolutionDelay: Duration = .milliseconds(50)
        /// The limit for a new connection's TLS handshake and trust evaluation. Default 10 s.
        public var tlsHandshakeTimeout: Duration = .seconds(10)
        /// The limit for one OCSP query or CRL download made by a `RevocationTrustEvaluator`
        /// (through this session's pool, over plain http). Default 5 s; past it the status is
        /// unknown, which fails the evaluation only if the evaluator requires a positive answer.
        /// It runs within `tlsHandshakeTimeout`.
        public var revocationFetchTimeout: Duration = .seconds(5)
        /// The most connections open at once to one origin (scheme, host, port, TLS rules);
        /// further requests wait for one. Default 8.
        public var maximumConnectionsPerHost: Int = 8
        /// How long an idle pooled connection is kept before it is closed. Default 60 s (less
        /// when the server's `Keep-Alive: timeout` asks for less).
        public var idleConnectionTimeout: Duration = .seconds(60)
        /// How many requests one connection carries before it is retired; nil: no limit of
        /// Wick's own (the server's `Connection: close` or `Keep-Alive: max=` still ends one).
        /// Default nil. Must be positive.
        public var maximumRequestsPerConnection: Int? = nil
        /// How long a connection may live from its establishment; it is retired when it comes
        /// back idle after this, so a long-running daemon picks up DNS changes and spreads over a
        /// load balancer's backends. Default 10 minutes; nil: no limit. Must be positive.
        public var maximumConnectionLifetime: Duration? = .seconds(600)
        /// Every TLS setting of the session's https connections: trust roots, the client
        /// certificate for servers that ask for one (mTLS, `ClientIdentity` from PEM or
        /// PKCS#12), the oldest and newest TLS version, the TLS 1.2 cipher list and 1.3 suites,
        /// ALPN, session resumption, OCSP stapling, and a key log for debugging
        /// (`TLSKeyLog.fromEnvironment()` honours `SSLKEYLOGFILE`, as curl does). Default
        /// `TLSConfiguration()`: TLS 1.2 and 1.3, forward-secret AEAD suites only, the system
        /// store, no client certificate, no key log. The session's connections are keyed by the
        /// whole value (every field affects security), and a `ServerTrustManager` evaluates on
        /// top of it.
        public var tls = TLSConfiguration()
        /// Which HTTP versions the session's connections speak. Default `.preferHTTP2`, as
        /// curl, URLSession and async-http-client (`.automatic`) do: https connections offer
        /// `h2` then `http/1.1` in TLS's ALPN and use what the server selects; cleartext ones
        /// speak HTTP/1.1 unless `http2PriorKnowledge` is on. `.http2Only` offers `h2` alone
        /// and fails a connection whose server does not select it; `.http1Only` offers
        /// `http/1.1` alone. Either HTTP/2 choice replaces `tls.applicationProtocols`. Over
        /// HTTP/2 one connection per origin carries up to `http2MaximumConcurrentStreams`
        /// requests at once; a second opens only when every stream is taken.
        public var httpVersion: HTTPVersionPreference = .preferHTTP2
        /// Cleartext (`http`) origins speak HTTP/2 with prior knowledge (`h2c`, RFC 9113 §3.3,
        /// curl's `--http2-prior-knowledge`): no upgrade, the server must speak HTTP/2. Off by
        /// default; requests through an HTTP proxy keep HTTP/1.1. `.http2Only` implies it.
        public var http2PriorKnowledge = false
        /// After this long without a byte from an HTTP/2 server, Wick sends it a PING (streams
        /// open or not), so a pooled connection whose peer vanished is found and closed before a
        /// request is given to it. nil: no PINGs. Default 30 seconds. Must be positive.
        public var http2PingInterval: Duration? = .seconds(30)
        /// How long an HTTP/2 server has to answer that PING. Later, the connection closes and
        /// its requests fail with `ConnectionLoss.Cause.unresponsive` (idempotent ones that had
        /// no response byte are sent again on a new connection). Default 20 seconds. Must be
        /// positive.
        public var http2PingAckTimeout: Duration = .seconds(20)
        /// How long an HTTP/2 server has to acknowledge Wick's SETTINGS from the start of the
        /// connection (RFC 9113 §6.5.3). Later, the connection closes with SETTINGS_TIMEOUT and
        /// its requests fail as for `http2PingAckTimeout`. Default 10 seconds. Must be positive.
        public var http2SettingsAckTimeout: Duration = .seconds(10)
        /// Most streams one HTTP/2 connection carries at once; the smaller of this and the
        /// server's SETTINGS_MAX_CONCURRENT_STREAMS applies. More requests wait for a stream in
        /// FIFO order, or open another connection when every stream is taken and
        /// `maximumConnectionsPerHost` allows. Default 100, as curl's. Must be positive.
        public var http2MaximumConcurrentStreams = 100
        /// Each HTTP/2 stream's receive window (SETTINGS_INITIAL_WINDOW_SIZE): the bytes of one
        /// response the server may send before its reader consumes them, so what a slow reader
        /// makes the connection buffer for it at most. Reopened once half is consumed. Default
        /// 1 MiB (with the protocol's 65,535 a download over loopback ran at half the speed).
        /// 1 through 2^31 - 1.
        public var http2StreamWindowSize = 1_048_576
        /// The HTTP/2 connection's receive window: what all its responses together may have in
        /// flight unconsumed, so what one connection buffers at most. Default 8 MiB. 65,535
        /// through 2^31 - 1.
        public var http2ConnectionWindowSize = 8_388_608
        /// The certificates https servers are verified against (`tls.trustRoots`). Default
        /// `.system`.
        public var trustRoots: TrustRoots {
            get { tls.trustRoots }
            set { tls.trustRoots = newValue }
        }
        /// The event loop threads; each runs one connection pool, and an origin always uses
        /// the same one, so its connections are shared. Default 1 (one loop handles thousands
        /// of connections; more help only when TLS handshakes saturate a core).
        public var eventLoopCount: Int = 1
        /// Busy polling, for a daemon that trades CPU for latency: how long the session's loop
        /// threads keep polling their connections without sleeping before each wait that would
        /// sleep, and how long a task waiting inline for its response (`inlineResponseWait`)
        /// polls before it sleeps. A response that arrives within it is read at once by a
        /// running thread instead of one the scheduler must wake: against a local nginx on a
        /// 2-core VM, 50 µs about doubles sequential requests per second (see the README's
        /// table). The cost is CPU: a loop with requests in flight at least this often keeps
        /// its core busy, so give the loops cores of their own. An idle loop polls once for
        /// this long, then sleeps. Default nil: never polls. Must not be negative.
        public var busyPollDuration: Duration?
        /// How long a task awaiting a response it just sent (`serializingData().response` and
        /// the other `serializing…()` tasks) may wait for it on its own thread, when the
        /// connection's loop has nothing else to do: it takes the response from the socket
        /// itself, as a libcurl caller does, instead of sleeping until the loop thread wakes it
        /// (two thread switches a request). The wait blocks one of Swift's pool threads for at
        /// most this long, and ends at once when the loop has other work. Only a request alone
        /// on its loop is waited for, and since a blocked thread also holds back tasks that
        /// would send, one caller in 32 sleeps instead as a probe: if others sent meanwhile,
        /// waiting stops until 64 callers in a row are alone. A connection whose responses take
        /// longer stops being waited for: after a wait that runs out, the next 1, 2, 4 … up to
        /// 64 requests on it are not. Responses to streams, downloads and callback handlers are
        /// never waited for. Default 200 µs; nil never waits.
        public var inlineResponseWait: Duration? = .microseconds(200)
        /// The largest response body a request collects; more fails it with
        /// `WickError.bodyTooLarge` (the body is held in memory whole). Default 64 MiB.
        /// The limit applies to the body as delivered, so to the decoded size of a gzip or
        /// deflate body when `automaticallyDecodesResponseBodies` is on.
        public var maximumResponseBodyBytes: Int = 64 * 1024 * 1024
        /// Decode `gzip`, `deflate`, `br` and `zstd` response bodies, as URLSession does. Default true.
        ///
        /// When on, every request that has no `Accept-Encoding` of its own (in `headers` or the
        /// request's) is sent with `Accept-Encoding: gzip, deflate, br, zstd` (`HTTPHeader
        /// .defaultAcceptEncoding`), and a body whose `Content-Encoding` lists only those
        /// codings arrives decoded: `DataResponse.data` is the decoded body, while
        /// `HTTPResponse.headers` still carries the server's `Content-Encoding` and
        /// `Content-Length` (those describe the bytes on the wire, not `data`). A request that
        /// sets `Accept-Encoding` itself sends exactly that; a body in a coding Wick cannot
        /// decode (`compress`, `dcb`) is delivered as sent, with its `Content-Encoding`. A body that
        /// fails to decode (corrupt, truncated, an expansion ratio past 100:1 above 1 MiB
        /// decoded) fails the request with `SessionTaskFailure.contentDecodingFailed`, never a
        /// partial body. When off, nothing is added and nothing is decoded.
        public var automaticallyDecodesResponseBodies: Bool = true
        /// Uploads of at least this many bytes, and uploads of unknown length, are sent with
        /// `Expect: 100-continue`: the body waits until the server says `100 Continue`, or for
        /// `continueTimeout`, so that a server that refuses the request (401, 413) does so before
        /// the body travels (RFC 9110 §10.1.1). Default 1 MiB, as curl; nil never asks.
        public var expectContinueThreshold: Int? = 1 << 20
        /// How long an upload with `Expect: 100-continue` waits for `100 Continue` before
        /// sending its body anyway (servers that ignore the expectation). Default 1 s, as curl.
        public var continueTimeout: Duration = .seconds(1)
        /// The most redirects one request follows; one more fails it with
        /// `SessionTaskFailure.tooManyRedirects`. Default 10 (curl's `--max-redirs` default is 50,
        /// browsers stop near 20; a daemon's API calls rarely need more than a few).
        public var maximumRedirects: Int = 10
        /// Follow redirects from https to http. Default false: such a redirect fails the request
        /// with `SessionTaskFailure.invalidRedirect`, so a response meant to be private is never
        /// fetched in the clear by accident.
        public var allowsInsecureRedirects: Bool = false
        /// Which proxy (HTTP, HTTPS or SOCKS) requests go through. Default `.environment`: curl's
        /// variables (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`; `HTTP_PROXY` is
        /// ignored), read when the Session is created. `.none` always goes direct;
        /// `.proxy(_:noProxy:)` and `.rules(_:)` name the proxies. Unix-socket requests never use
        /// a proxy. An HTTPS proxy's certificate is checked under its own
        /// `ProxyConfiguration.tlsTrust`, never under `trustRoots` or the trust manager.
        public var proxy: ProxySetting = .environment
        /// How request hosts become addresses: curl's `--resolve` (`ResolveOverride`) and
        /// `--connect-to` (`ConnectToOverride`) entries, and your own `NameResolver` in place of
        /// the system's `getaddrinfo`. Default: none, and the system resolver. TLS still verifies
        /// the request's host and the `Host` field is the request's; only where connections go
        /// changes. The rules apply to every connection of the session (the pool is per session).
        public var nameResolution = NameResolution()
        /// The local address and ports every TCP connection is made from (curl's `--interface`
        /// with an address, and `--local-port`), unless a request sets its own
        /// (`HTTPRequest.sourceBinding`). Default nil: the kernel chooses. Part of the pool's
        /// key, so connections from different sources are never shared.
        public var sourceBinding: SourceBinding?
        /// Where requests keep cookies (RFC 6265bis): each request with no `Cookie` field of its
        /// own is sent with the cookies stored for its URL, and every response's `Set-Cookie`
        /// fields, a redirect's included, are stored, so a redirected request carries the
        /// cookies of its new URL. Default: a new, empty `InMemoryCookieStorage` for each
        /// `Configuration` value (so each `Session()` starts with its own; sessions made from one
        /// value share it, and any store given here may be shared on purpose). nil: no cookies
        /// are sent or stored. `HTTPRequest.httpShouldHandleCookies` opts one request out.
        public var cookieStorage: (any CookieStorage)? = InMemoryCookieStorage()
        /// Where responses are kept for reuse (RFC 9111, a private cache): a fresh stored
        /// response answers a GET without a request, a stale one is validated with
        /// `If-None-Match`/`If-Modified-Since` and a `304` serves it, unsafe methods invalidate,
        /// and every storable response is stored (as `Session`'s `CachedResponseHandler`
        /// decides). `HTTPRequest.cachePolicy` and the request's `Cache-Control` directives
        /// steer one request. Default nil: no cache (a daemon opts in, e.g. with
        /// `MemoryResponseCache()` or `DiskResponseCache(directory:)`). Data requests take part;
        /// downloads, streams and requests with `onHTTPResponse` or `downloadProgress`
        /// handlers bypass it.
        public var responseCache: (any ResponseCache)? = nil
        /// Whether `responseCache` serves stale responses while it revalidates them (RFC 5861
        /// §3): a GET whose stored response is stale, but by no more than the response's
        /// `stale-while-revalidate=N` seconds, is answered at once from the cache
        /// (`ResponseSource.staleWhileRevalidating`), and one conditional request in the
        /// background (at most one in flight per stored response) refreshes the stored entry.
        /// That request's end, a failure included, reaches no caller: event monitors hear it
        /// (`EventMonitor.request(_:didRevalidateInBackground:)`). Nothing that forbids a stale
        /// response is overridden: `must-revalidate`, `no-cache`, and a request's `max-age`,
        /// `min-fresh` or `max-stale` validate first, as without this option. Default false:
        /// a stale response is validated before it is delivered.
        public var staleWhileRevalidate = false
        /// The known HSTS hosts (RFC 6797): a trusted https response's
        /// `Strict-Transport-Security` field is recorded, and every later http request to such a
        /// host (a redirect hop included) is sent as https before a byte leaves. Default: a new,
        /// empty `InMemoryHSTSStorage` for each `Configuration` value (URLSession keeps HSTS on
        /// too). nil: no HSTS.
        public var hstsStorage: (any HSTSStorage)? = InMemoryHSTSStorage()
        /// A limit on the retries the session's requests make (`RetryBudget`), whichever
        /// retrier asks for them; nil (the default, as in Alamofire) for none.
        public var retryBudget: RetryBudget? = nil
        /// Faults to inject into the session's own connections and exchanges, for tests of the
        /// code that uses the session (`FaultInjector`: refused and timed-out connects,
        /// latency, resets, truncated bodies, stalls, synthesized statuses, per host or for a
        /// fraction of requests, from a seed). Default nil: none, and nothing else enables it.
        public var faultInjector: FaultInjector? = nil
        /// Hedged requests (`HedgingPolicy`): a data request with an idempotent method whose
        /// response head is late sends a second attempt on another connection, and the first
        /// response wins, within a budget of extra load. Default nil: never.
        public var hedging: HedgingPolicy? = nil
        /// Where the session's requests log (swift-log), unless a request names its own
        /// (`Request.logging(to:)`). Nothing is logged per request at `info` or above: each
        /// request's summary (method, host, status, phase timings, reuse, retries, redirects) is
        /// `debug`, the wire detail of each exchange `trace`. Default: `Logger.wickDisabled`,
        /// which logs nothing: a session that keeps it skips every log point of a request that
        /// has no logger of its own (`Request.logging(to:)`).
        public var logger: Logger = .wickDisabled

        /// The defaults described on each property.
        public init() {}

        /// The defaults described on each property.
        public static var `default`: Configuration { Configuration() }
    }
}
