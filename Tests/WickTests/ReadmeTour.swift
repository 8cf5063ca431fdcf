// The README's API tour, compiled with the tests so that the front door never shows code that
// does not build. It is never run: the hosts are examples.
import Foundation
import Testing
import Wick

/// Stand-ins for the names the tour uses without defining them.
private enum ReadmeTourNames {
    struct Item: Codable, Sendable {}
    struct Event: Decodable, Sendable {}
    struct Tokens: AuthenticationCredential { var requiresRefresh: Bool { false } }
    final class OAuth: Authenticator {
        func apply(_ credential: Tokens, to request: inout HTTPRequest) {}
        func refresh(_ credential: Tokens, for session: Session, completion: @escaping @Sendable (Result<Tokens, any Error>) -> Void) {
            completion(.success(credential))
        }
        func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: any Error) -> Bool { false }
        func isRequest(_ request: HTTPRequest, authenticatedWith credential: Tokens) -> Bool { true }
    }
}

/// The tour's code, as the README shows it (between the stand-ins' declarations).
private func readmeTour(root: Certificate, ids: [Int]) async throws {
    typealias Item = ReadmeTourNames.Item
    typealias Event = ReadmeTourNames.Event
    typealias OAuth = ReadmeTourNames.OAuth
    let token = "token"
    let newItem = Item()
    let tokens = ReadmeTourNames.Tokens()
    let url = "https://host/path"
    let fileURL = URL(fileURLWithPath: "/tmp/file")
    let imageURL = URL(fileURLWithPath: "/tmp/image.png")
    let downloads = URL(fileURLWithPath: "/tmp/downloads")
    let p12Bytes: [UInt8] = []
    @Sendable func sign(_ request: HTTPRequest) -> String { "" }
    func handle(_ chunk: Data) {}
    do {  // README tour begins

        let session = Session()                          // or Session.default, which lives for the process

        // Handlers run on session.responseQueue (serial; a daemon has no main queue) unless you pass `queue:`.
        session.request("https://api.example.com/items", parameters: ["page": 2], headers: [.authorization(bearerToken: token)])
            .validate()                                  // 2xx and a Content-Type matching Accept
            .responseDecodable(of: [Item].self) { response in
                print(response.result, response.metrics?.isReused ?? false)
            }

        // async/await; `automaticallyCancelling: true` makes cancelling the awaiting task cancel the request.
        let item = try await session.request("https://api.example.com/items/7").validate()
            .serializingDecodable(Item.self, automaticallyCancelling: true).value  // throws WickError
        let created = try await session.request("https://api.example.com/items", method: .post,
                                                 parameters: newItem, encoder: JSONParameterEncoder.default)
            .serializingString().value
        let json = try await session.request("https://api.example.com/status").serializingJSON().value
        print(json["version"]?.stringValue ?? "?")  // a JSONValue, parsed strictly (RFC 8259)
        session.request("https://host/export")
            .onHTTPResponse { head, decide in decide(head.statusCode == 200 ? .allow : .cancel) }  // before the body
            .downloadProgress { print($0) }.responseData { print($0.result) }

        // Interceptors and retries, as in Alamofire.
        let resilient = Session(interceptor: Interceptor(adapters: [Adapter { request, _, completion in
            var signed = request; signed.headers.update(name: "X-Signature", value: sign(request)); completion(.success(signed))
        }], retriers: [RetryPolicy()]))                 // 2 retries, exponential backoff, idempotent methods
        let guarded = session.request(url, interceptor: AuthenticationInterceptor(authenticator: OAuth(), credential: tokens))
        session.request("https://host/private").authenticate(username: "user", password: "secret")  // Basic or Digest
        // Retry-After on 429/503 is honoured (up to 60 s); jitter spreads retries; a budget caps their share.
        var budgeted = Session.Configuration(); budgeted.retryBudget = RetryBudget(ratio: 0.2, scope: .host)
        let polite = Session(configuration: budgeted, interceptor: RetryPolicy(jitter: .full))
        // Hedged requests: a GET whose response head is late (past the host's p95) gets a second attempt
        // on another connection; the first response wins, the loser's connection closes; ≤ 10 % extra load.
        var hedged = Session.Configuration(); hedged.hedging = HedgingPolicy(delay: .percentile(0.95, fallback: .milliseconds(50)))
        session.request("https://host/export") { $0.hedging = .disabled }  // per request: .disabled or .policy(...)
        // Fault injection for your own tests: real failures on the real transport path, drawn from a seed.
        var faulty = Session.Configuration()
        faulty.faultInjector = FaultInjector(seed: 42, rules: [
            FaultRule(.reset(afterResponseBytes: 100), hosts: ["api.example.com"], fraction: 0.1),
            FaultRule(.tooManyRequests(retryAfter: 1), limit: 2),         // then connectRefused, connectTimeout,
            FaultRule(.latency(.exponential(mean: .milliseconds(20), maximum: .seconds(1))))])  // truncatedBody, stall
        print(faulty.faultInjector?.injectedFaults ?? [])  // also TransactionMetrics.injectedFaults, EventMonitor.request(_:didInjectFault:)

        // Redirects follow RFC 9110 (303 → GET, 307/308 keep the body, credentials dropped across origins,
        // https → http refused, at most 10); or decide yourself.
        session.request(url).redirect(using: .doNotFollow)

        // Cookies (RFC 6265bis) are kept per session, in memory by default: stored from every response,
        // redirects included, and sent by domain, path and Secure; a cookie for a public suffix is refused.
        print(session.configuration.cookieStorage?.cookies(for: URL(string: "https://api.example.com/")!) ?? [])
        let cookieless = session.request(url) { $0.httpShouldHandleCookies = false }  // neither sends nor stores
        let jar = try FileCookieStorage(fileURL: URL(fileURLWithPath: "cookies.txt"))  // curl's -b/-c format
        var withJar = Session.Configuration(); withJar.cookieStorage = jar   // later: try jar.save() (atomic, 0600)

        // A response cache (RFC 9111), off unless given: fresh responses answer without a request, stale
        // ones are validated (a 304 serves the stored body), POST/PUT/DELETE invalidate.
        var caching = Session.Configuration()
        caching.responseCache = MemoryResponseCache(maximumBytes: 32 << 20)      // or: try DiskResponseCache(directory: dir)
        caching.staleWhileRevalidate = true   // RFC 5861: serve stale-while-revalidate at once, refresh in the background
        let cached = Session(configuration: caching, cachedResponseHandler: ResponseCacher.cache)  // Alamofire's handler
        let items = await cached.request("https://api.example.com/items").serializingData().response
        print(items.metrics?.responseSource ?? .network)        // .network, .cache, .revalidatedCache, .staleWhileRevalidating
        _ = cached.request(url).cacheResponse(using: .doNotCache)                // per request, as in Alamofire
        _ = cached.request(url) { $0.cachePolicy = .returnCacheDataElseLoad }    // URLRequest's four policies
        _ = cached.request(url, headers: ["Cache-Control": "max-stale=60"])      // request directives count too
        // HSTS (RFC 6797) is on by default: after a trusted https response with Strict-Transport-Security,
        // http://host/... is sent as https://host/... (port 80 → 443). Preload hosts, or nil to turn it off:
        var strict = Session.Configuration(); strict.hstsStorage = InMemoryHSTSStorage(preloaded: ["api.example.com": true])

        // Uploads read files and streams in pieces: memory stays flat whatever the size.
        session.upload(fileURL, to: "https://host/upload", method: .put).uploadProgress { print($0) }
        session.upload(multipartFormData: { form in
            form.append(Data("wick".utf8), withName: "user")
            form.append(imageURL, withName: "image")    // file name and MIME type from the URL
        }, to: "https://host/form").responseDecodable(of: Item.self) { print($0.result) }

        // Downloads go to a file (memory stays flat), can be cancelled with resume data and resumed.
        let download = session.download("https://host/big.iso",
                                        to: DownloadRequest.suggestedDownloadDestination(for: downloads, options: .createIntermediateDirectories))
            .downloadProgress { print($0.fractionCompleted) }
        let fileURL = try await download.serializingDownloadedFileURL().value
        // ...or: download.cancel(producingResumeData: true); later session.download(resumingWith: download.resumeData!)
        print(try await session.download("https://host/item.json").serializingDecodable(Item.self).value)  // any serializer

        // Streams: chunks as they arrive, newline-delimited JSON, or an AsyncSequence that stops reading
        // the socket when you fall behind.
        for try await chunk in session.streamRequest("https://host/events").validate().streamingData() { handle(chunk) }
        session.streamRequest("https://host/feed").responseStreamDecodable(of: Event.self) { stream in
            if case .stream(.success(let event)) = stream.event { print(event) }
        }

        // Unix domain sockets and proxies.
        let docker = try await session.request("http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info").serializingData().value
        var proxied = Session.Configuration()           // curl's http_proxy/https_proxy/all_proxy/no_proxy by default
        proxied.proxy = .proxy(try ProxyConfiguration(url: "http://user:pass@proxy.internal:3128"), noProxy: NoProxyList(".internal"))
        proxied.proxy = .proxy(try ProxyConfiguration(url: "socks5h://user:pass@bastion:1080"))  // the proxy resolves names
        proxied.proxy = .proxy(ProxyConfiguration(.socks5, host: "127.0.0.1", port: 9050))   // Wick resolves, sends the address
        proxied.proxy = .proxy(ProxyConfiguration(.https, host: "proxy.corp", tlsTrust: ProxyTLSTrust(roots: .certificates([root]))))  // TLS to the proxy, its own trust

        // Pinning, deadlines, pools.
        var configuration = Session.Configuration()
        configuration.trustRoots = .certificates([root])
        configuration.tls.clientIdentity = try ClientIdentity(pkcs12: p12Bytes, passphrase: "secret")  // mTLS (or PEM)
        configuration.tls.minimumVersion = .v1_3          // also maximumVersion, cipherList, cipherSuites
        configuration.tls.keyLog = TLSKeyLog.fromEnvironment()  // SSLKEYLOGFILE, as curl: for Wireshark only
        configuration.tls.sessionFile = "/var/lib/mydaemon/tls-sessions"  // a restart resumes (0600, atomic)
        configuration.maximumRequestsPerConnection = 10_000  // and maximumConnectionLifetime (default 10 min)
        configuration.requestTimeout = .seconds(10)     // one budget: every attempt, hop and retry delay
        configuration.idleTransferTimeout = .seconds(5) // no byte either way for 5 s fails the request
        _ = AF.request("https://api.example.com/health") { $0.timeoutInterval = 2 }  // this request's own budget
        let pinned = Session(configuration: configuration, serverTrustManager: ServerTrustManager(
            evaluators: ["api.example.com": PublicKeysTrustEvaluator(keys: [try PublicKey(pin: "sha256//...")])]))
        // Pins that survive rotation: a backup key, report-only first (mismatches reach event monitors
        // as ServerTrustEvaluation.reportedViolations), an expiry after which default validation decides.
        let rollout = PublicKeysTrustEvaluator(keys: [try PublicKey(pin: "sha256//...")], backupKeys: [try PublicKey(pin: "sha256//...")],
                                               policy: PinningPolicy(mode: .reportOnly, expiration: Date(timeIntervalSinceNow: 86_400 * 90)))
        try pinned.prewarm("https://api.example.com", connections: 4)
        print(await pinned.poolStatistics().total)      // idle, leased, connecting, waiting, created, reused...
        print(session.request(url).cURLCommand())   // a curl command that sends the same request (cURLDescription(): Alamofire's text)

        // A task awaiting a response it just sent takes it on its own thread when the loop is otherwise
        // idle (up to 200 µs, then it sleeps as usual; learnt off when other tasks send meanwhile):
        // one context switch a request instead of two, no futex call. nil turns it off.
        var quick = Session.Configuration()
        quick.inlineResponseWait = .microseconds(200)
        // For request loops in a latency-sensitive daemon: run the loop's task on Wick's event loop, so a
        // request neither wakes nor waits for another thread (two hops fewer per request).
        try await withTaskExecutorPreference(session.taskExecutor) {
            for id in ids { _ = try await session.request("http://backend/\(id)").serializingData().value }
        }
        // Or for the whole process, early in main: every task then runs on the session's loops (no hop
        // for any request; the trade-off: a task that computes for long delays that loop's connections).
        // `wick get URL --loops-as-global-executor` shows it.
        _ = Session.default.unsafeInstallLoopsAsGlobalExecutor()
        // Busy polling, for a daemon that gives Wick a core: the loop, and a task waiting for its
        // response, poll the socket for up to 50 µs before they sleep, so a fast response is read by a
        // running thread, not one the scheduler must wake. About twice the sequential requests per second
        // (p50 latency 36-56 µs against libcurl's 101-116 µs here); the cost: that core stays busy while
        // requests come at least every 50 µs. Off by default (nil); `wick bench --busy-poll 50us` tries it.
        quick.busyPollDuration = .microseconds(50)
        await pinned.shutdown()                         // closes connections and stops the loop threads

        // README tour ends
        _ = (resilient, guarded, docker, proxied, item, created, fileURL, cookieless, withJar, strict, quick)
    }
}

/// Keeps the tour above and the README's in step.
struct ReadmeTourTests {
    @Test func theReadmeTourIsTheCodeCompiledHere() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Using Wick").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let shown = block.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let source = try String(contentsOf: tests, encoding: .utf8)
        let compiled = try #require(source.components(separatedBy: "// README tour begins\n").dropFirst().first?
            .components(separatedBy: "// README tour ends").first)
        let lines = compiled.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(lines == shown)
    }
}
