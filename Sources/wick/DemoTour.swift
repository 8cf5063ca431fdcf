// The tour Scripts/demo runs: real exchanges with local nginx and httpbin through Session.
import FoundationEssentials
import Wick

/// Runs a fixed series of requests against the servers Scripts/demo started and prints them.
struct DemoTour {
    let nginx: String
    let nginxTLS: String?
    let caFile: String?
    let pin: String?
    let httpbin: String
    /// nginx's plain-HTTP Unix domain socket.
    let nginxUnixSocket: String?

    /// Parses `--nginx URL --nginx-tls URL --ca FILE --pin sha256//... --httpbin URL
    /// --nginx-unix PATH`.
    /// - Throws: `UsageError`.
    init(arguments: [String]) throws {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { throw UsageError("bad option \(name)") }
            values[name] = value
        }
        guard let nginx = values["--nginx"], let httpbin = values["--httpbin"] else {
            throw UsageError("demo needs --nginx and --httpbin")
        }
        self.nginx = nginx
        self.httpbin = httpbin
        nginxTLS = values["--nginx-tls"]
        caFile = values["--ca"]
        pin = values["--pin"]
        nginxUnixSocket = values["--nginx-unix"]
    }

    /// Runs the tour.
    /// - Throws: `WickError` if an exchange that should succeed fails, `UsageError` for a bad
    ///   CA file or pin.
    func run() async throws {
        print("Wick demo: every request below is real, on loopback, through Wick's Session API")
        print("(Session → connection pool → HTTP/1.1 driver → epoll reactor, OpenSSL for https).")
        let session = Session()

        section("1. nginx, plain HTTP: one Session, its pool reuses a keep-alive connection")
        try await get(session, "\(nginx)/bytes/1k")
        try await get(session, "\(nginx)/bytes/10m", showHeaders: false)
        try await get(session, "\(nginx)/chunked/1m.txt", showHeaders: false)

        section("2. nginx asks for a short keep-alive (Keep-Alive: timeout=1): after 1.5 s the pool has let it go")
        try await get(session, "\(nginx)/keepalive-1s/1k", showHeaders: false)
        try await Task.sleep(for: .milliseconds(1_500))
        try await get(session, "\(nginx)/keepalive-1s/1k", showHeaders: false)

        section("3. httpbin (gunicorn): headers echoed, a body posted, gzip and deflate decoded, a redirect as it comes")
        try await get(session, "\(httpbin)/get?from=wick", headers: ["X-Demo": "wick"], showHeaders: false, preview: 400)
        print("POST \(httpbin)/post")
        ExchangeReport.print(
            await session.request("\(httpbin)/post", method: .post, headers: ["Content-Type": "text/plain"], body: Data("hello from Wick".utf8))
                .serializingData().response,
            showHeaders: false, bodyPreview: 90)
        // Session asks for `gzip, deflate, br, zstd` and decodes: the body is the JSON, the header stays.
        try await get(session, "\(httpbin)/gzip", showHeaders: false, preview: 120)
        try await get(session, "\(httpbin)/deflate", showHeaders: false, preview: 120)
        // Asking for `identity` yourself gets exactly that: no coding at all.
        try await get(session, "\(httpbin)/get", headers: ["Accept-Encoding": "identity"], showHeaders: false, preview: 120)
        try await get(session, "\(httpbin)/redirect-to?url=/get&status_code=302", preview: 60, emptyAllowed: true)
        await session.shutdown()

        section("4. A 500 ms request timeout against httpbin's /delay/2: the error names the phase")
        var quick = Session.Configuration()
        quick.requestTimeout = .milliseconds(500)
        let impatient = Session(configuration: quick)
        print("GET \(httpbin)/delay/2")
        ExchangeReport.print(await impatient.request("\(httpbin)/delay/2").serializingData().response)
        await impatient.shutdown()

        if let nginxTLS, let caFile, let pin {
            try await httpsTour(nginxTLS, caFile: caFile, pin: pin)
        }
        try await alamofireTour()
    }

    /// HTTPS with only the test root trusted and the server's public key pinned: a full
    /// handshake, a reused connection, and a wrong pin refused before any request byte is written.
    private func httpsTour(_ base: String, caFile: String, pin: String) async throws {
        section("5. nginx over HTTPS: only the test root trusted, the server's public key pinned (\(pin.prefix(20))...)")
        var configuration = Session.Configuration()
        configuration.trustRoots = try trustRoots(pemFile: caFile)
        let host = try base.asURL().host() ?? ""
        let pinned = Session(
            configuration: configuration,
            serverTrustManager: ServerTrustManager(evaluators: [host: PublicKeysTrustEvaluator(keys: [try PublicKey(pin: pin)])]))
        try await get(pinned, "\(base)/bytes/64k", showHeaders: false)
        try await get(pinned, "\(base)/bytes/64k", showHeaders: false)
        await pinned.shutdown()

        let wrongPin = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
        let mismatched = Session(
            configuration: configuration,
            serverTrustManager: ServerTrustManager(evaluators: [host: PublicKeysTrustEvaluator(keys: [wrongPin])]))
        print("GET \(base)/bytes/64k with a pin that does not match")
        let refused = await mismatched.request("\(base)/bytes/64k").serializingData().result
        switch refused {
        case .failure(.serverTrustEvaluationFailed(let reason)):
            print("  refused before any request byte was written:\n    \(reason)")
        case .failure(let error): print("  failed otherwise: \(error)")
        case .success: print("  unexpected: the connection was accepted")
        }
        await mismatched.shutdown()
    }

    func section(_ title: String) {
        print("\n\(title)")
    }

    func get(
        _ session: Session, _ url: String, headers: HTTPHeaders? = nil, showHeaders: Bool = true, preview: Int = 0,
        hex: Int = 0, emptyAllowed: Bool = false
    ) async throws {
        print("GET \(url)")
        let codes = emptyAllowed ? Set(100..<600) : DataResponseSerializer.defaultEmptyResponseCodes
        let response = await session.request(url, headers: headers).serializingData(emptyResponseCodes: codes).response
        ExchangeReport.print(response, showHeaders: showHeaders, bodyPreview: preview, hexPreview: hex)
        if let error = response.error { throw error }
    }
}
