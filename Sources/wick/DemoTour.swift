// The tour Scripts/demo runs: real exchanges with local nginx and httpbin, showing each layer.
import WickCore
import WickHTTP1
import FoundationEssentials
import WickReactor
import WickTLS

/// Runs a fixed series of requests against the servers Scripts/demo started and prints them.
struct DemoTour {
    let nginx: Target
    let nginxTLS: Target?
    let caFile: String?
    let pin: String?
    let httpbin: Target

    /// Parses `--nginx URL --nginx-tls URL --ca FILE --pin sha256//... --httpbin URL`.
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
        self.nginx = try Target(nginx)
        self.httpbin = try Target(httpbin)
        self.nginxTLS = try values["--nginx-tls"].map(Target.init)
        self.caFile = values["--ca"]
        self.pin = values["--pin"]
    }

    /// Runs the tour.
    /// - Throws: `LayerError` if an exchange fails.
    func run() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        print("Wick demo: every request below is real, on loopback, through Wick's own layers")
        print("(epoll reactor → request encoder → incremental response parser → gzip decoder).\n")

        section("1. nginx, plain HTTP: a keep-alive connection reused for three requests")
        let connection = try await LayerConnection.open(host: nginx.host, port: nginx.port, group: group)
        try await get("/bytes/1k", on: connection, base: nginx)
        try await get("/bytes/10m", on: connection, base: nginx, showHeaders: false)
        try await get(
            "/chunked/1m.txt", on: connection, base: nginx, headers: ["Accept-Encoding": "gzip"], showHeaders: false)
        await connection.close()

        section("2. nginx asks for a short keep-alive (Keep-Alive: timeout=1)")
        let shortLived = try await LayerConnection.open(host: nginx.host, port: nginx.port, group: group)
        try await get("/keepalive-1s/1k", on: shortLived, base: nginx)
        await shortLived.close()

        section("3. httpbin (gunicorn): headers echoed, gzip, a redirect as it comes")
        let bin = try await LayerConnection.open(host: httpbin.host, port: httpbin.port, group: group)
        try await get(
            "/get?from=wick", on: bin, base: httpbin, headers: ["X-Demo": "wick"], showHeaders: false, preview: 400)
        try await get(
            "/gzip", on: bin, base: httpbin, headers: ["Accept-Encoding": "gzip"], showHeaders: false, preview: 120)
        try await get("/redirect-to?url=/get&status_code=302", on: bin, base: httpbin)
        await bin.close()

        if let nginxTLS, let caFile, let pin {
            try await httpsTour(nginxTLS, caFile: caFile, pin: pin, group: group)
        }
        print("\nNot shown yet: connection pool, Session API, redirects followed, retries (see the README).")
    }

    /// HTTPS with only the test root trusted and the server's public key pinned: a full
    /// handshake, a resumed one, and a wrong pin refused before any request byte is written.
    private func httpsTour(_ base: Target, caFile: String, pin: String, group: EventLoopGroup) async throws {
        section("4. nginx over HTTPS: the test root trusted, the server's public key pinned (\(pin.prefix(20))...)")
        var configuration = TLSConfiguration()
        configuration.trustRoots = .certificates(
            try Certificate.chain(pemEncoded: String(decoding: try Data(contentsOf: URL(filePath: caFile)), as: UTF8.self)))
        let context = try TLSContext(configuration: configuration)
        let pinned = ServerTrustManager(evaluators: [base.host: PublicKeysTrustEvaluator(keys: [try PublicKey(pin: pin)])])
        for attempt in ["full handshake", "resumed session"] {
            let connection = try await LayerConnection.openTLS(
                host: base.host, port: base.port, group: group, context: context, trustManager: pinned)
            print("  (\(attempt))")
            try await get("/bytes/64k", on: connection, base: base, showHeaders: false)
            await connection.close()
        }
        let wrongPin = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
        let mismatched = ServerTrustManager(evaluators: [base.host: PublicKeysTrustEvaluator(keys: [wrongPin])])
        print("GET \(base) with a pin that does not match")
        do {
            let connection = try await LayerConnection.openTLS(
                host: base.host, port: base.port, group: group, context: context, trustManager: mismatched)
            await connection.close()
            print("  unexpected: the connection was accepted")
        } catch {
            print("  refused before any request byte was written:\n    \(error)")
        }
    }

    private func section(_ title: String) {
        print("\n\(title)")
    }

    private func get(
        _ path: String, on connection: LayerConnection, base: Target, headers: HTTPHeaders = HTTPHeaders(),
        showHeaders: Bool = true, preview: Int = 0
    ) async throws {
        let target = try Target("\(base.scheme)://\(base.hostHeader)\(path)")
        let reused = connection.exchanges > 0
        print("GET \(target)")
        let result = try await connection.exchange(
            HTTPRequestHead(method: .get, target: .origin(target.path), host: target.hostHeader, headers: headers))
        ExchangeReport.print(
            result, target: target, connection: connection, reused: reused, showHeaders: showHeaders,
            bodyPreview: preview)
    }
}
