// The Session a command line needs: curl's timeouts, redirect limit, trust and proxy settings.
import FoundationEssentials
public import Wick

extension TransferOptions {
    /// The limit of a transfer without `-m` (curl has none; Wick's sessions need one).
    static let unlimitedTime = Duration.seconds(7 * 86_400)
    /// The connect limit without `--connect-timeout`: curl's 300 s.
    static let defaultConnectTimeout = Duration.seconds(300)

    /// The session's configuration: no header fields of its own (the request carries curl's),
    /// decoding only with `--compressed`, no idle limit, no body size limit,
    /// https-to-http redirects followed as curl follows them, and the roots of `--cacert` and
    /// every PEM file in `--capath` (files that hold no certificate are passed over).
    /// - Throws: `CommandFailure` (77) for an unusable `--cacert`, or a `--capath` without a
    ///   certificate; (5) for an unusable `-x`.
    public func sessionConfiguration() throws(CommandFailure) -> Session.Configuration {
        var configuration = Session.Configuration()
        configuration.headers = HTTPHeaders()
        configuration.automaticallyDecodesResponseBodies = compressed
        configuration.requestTimeout = maximumTime.map { .seconds($0) } ?? Self.unlimitedTime
        // The body streams to its output: `-m` bounds that transfer too.
        configuration.streamAndDownloadTimeout = maximumTime.map { .seconds($0) }
        configuration.idleTransferTimeout = nil
        // curl gives up on the first failed connect (7, or 28 past --connect-timeout).
        configuration.waitsForConnectivity = false
        configuration.connectTimeout = connectTimeout.map { .seconds($0) } ?? Self.defaultConnectTimeout
        configuration.tlsHandshakeTimeout = configuration.connectTimeout
        configuration.maximumRedirects = maximumRedirects < 0 ? Int.max : maximumRedirects
        configuration.allowsInsecureRedirects = true
        configuration.maximumResponseBodyBytes = Int.max
        // curl has no per-host limit: `-Z` runs as many connections as transfers.
        if isParallel {
            configuration.maximumConnectionsPerHost = max(configuration.maximumConnectionsPerHost, parallelMaximum)
        }
        try applyVersionsAndTrustRoots(to: &configuration)
        configuration.tls.clientIdentity = try clientIdentity()
        configuration.cookieStorage = cookieEngine()
        configuration.proxy = try proxySetting()
        configuration.nameResolution = try nameResolution()
        configuration.sourceBinding = try sourceBinding()
        return configuration
    }

    /// Sets `configuration`'s HTTP versions (`--http1.1`, `--http2`, `--http2-prior-knowledge`)
    /// and trust roots (`--cacert`, and every PEM file in `--capath`; files that hold no
    /// certificate are passed over), as both `wick` and `wick bench` read them.
    /// - Throws: `CommandFailure` (77) for an unusable `--cacert`, or a `--capath` without a
    ///   certificate.
    func applyVersionsAndTrustRoots(to configuration: inout Session.Configuration) throws(CommandFailure) {
        configuration.httpVersion = httpVersion
        configuration.http2PriorKnowledge = http2PriorKnowledge
        var roots: [Certificate] = []
        if let caCertificateFile {
            guard case .certificates(let certificates)? = TrustRoots.certificates(inPEMFile: caCertificateFile) else {
                throw CommandFailure(.badCACertificateFile, "error setting certificate file: \(caCertificateFile)")
            }
            roots += certificates
        }
        if let caDirectory {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: caDirectory)) ?? []
            for name in names.sorted() {
                if case .certificates(let certificates)? = TrustRoots.certificates(inPEMFile: caDirectory + "/" + name)
                {
                    roots += certificates
                }
            }
            guard !roots.isEmpty else {
                throw CommandFailure(.badCACertificateFile, "error setting certificate path: \(caDirectory)")
            }
        }
        if !roots.isEmpty { configuration.trustRoots = .certificates(roots) }
    }

    /// `--interface` (an IP address) and `--local-port`; nil when neither is given.
    /// - Throws: `CommandFailure` (45) for an interface that is not an IP address, in curl's words.
    private func sourceBinding() throws(CommandFailure) -> SourceBinding? {
        guard interface != nil || localPorts != nil else { return nil }
        do {
            return try SourceBinding(address: interface, ports: localPorts)
        } catch {
            throw CommandFailure(.interfaceFailed, "Couldn't bind to '\(interface ?? "")': \(error)")
        }
    }

    /// `--resolve` and `--connect-to`, as curl reads them.
    /// - Throws: `CommandFailure` (49) naming the first entry that does not parse, in curl's words.
    private func nameResolution() throws(CommandFailure) -> NameResolution {
        var resolution = NameResolution()
        for entry in resolveEntries {
            do {
                resolution.resolveOverrides.append(try ResolveOverride(curlArgument: entry))
            } catch {
                throw CommandFailure(.optionSyntaxError, "Couldn't parse CURLOPT_RESOLVE entry '\(entry)': \(error)")
            }
        }
        for entry in connectToEntries {
            do {
                resolution.connectToOverrides.append(try ConnectToOverride(curlArgument: entry))
            } catch {
                throw CommandFailure(.optionSyntaxError, "Couldn't parse CURLOPT_CONNECT_TO entry '\(entry)': \(error)")
            }
        }
        return resolution
    }

    /// The cookie engine, as curl's: off (nil) unless `-b` or `-c` is given; then a store with
    /// the cookies of every `-b` file (a missing or unreadable file is passed over, as curl
    /// does), which records the responses' `Set-Cookie` for the transfers and redirects that
    /// follow. With `-c FILE` it is that file's store, emptied first (curl does not read the
    /// jar), saved by `saveCookieJar`.
    public func cookieEngine() -> (any CookieStorage)? {
        guard !cookies.isEmpty || cookieJar != nil else { return nil }
        let now = Date()
        var jar: FileCookieStorage?
        if let cookieJar, cookieJar != "-" { jar = try? FileCookieStorage(fileURL: URL(fileURLWithPath: cookieJar)) }
        jar?.removeAll()
        let memory = jar == nil ? InMemoryCookieStorage() : nil
        for file in cookies where !file.contains("=") {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            for cookie in NetscapeCookieFile.parse(bytes, now: now).cookies {
                if let jar { jar.insert(cookie, now: now) } else { memory?.insert(cookie, now: now) }
            }
        }
        return jar ?? memory
    }

    /// Writes `-c`'s jar: every cookie of `storage` in the Netscape format, to the file (kept
    /// whole if writing fails) or to standard output for `-`. Returns a warning when the file
    /// could not be written, as curl's.
    public func saveCookieJar(_ storage: (any CookieStorage)?) -> String? {
        guard let cookieJar else { return nil }
        if let file = storage as? FileCookieStorage {
            do {
                try file.save()
            } catch {
                return "Failed to save cookies in \(cookieJar)"
            }
        } else if cookieJar == "-", let memory = storage as? InMemoryCookieStorage {
            StandardStreams.write(NetscapeCookieFile.serialize(memory.allCookies()), to: StandardStreams.output)
        } else {
            return "Failed to save cookies in \(cookieJar)"
        }
        return nil
    }

    /// The identity of `--cert` and `--key`: a PKCS#12 file (`.p12`, `.pfx`, `FILE:PASSWORD`),
    /// or a PEM chain with its key in `--key` or in the same file; nil without `--cert`.
    /// - Throws: `CommandFailure` (58) when a file cannot be read or does not hold an identity.
    private func clientIdentity() throws(CommandFailure) -> ClientIdentity? {
        guard let clientCertificateFile else { return nil }
        let failure = CommandFailure(
            .localCertificateProblem, "could not load the client certificate: \(clientCertificateFile)")
        var path = clientCertificateFile
        var password = ""
        let lowercased = path.lowercased()
        if let colon = path.lastIndex(of: ":"),
            [".p12", ".pfx"].contains(where: { path[..<colon].lowercased().hasSuffix($0) })
        {
            password = String(path[path.index(after: colon)...])
            path = String(path[..<colon])
        }
        guard let certificate = FileManager.default.contents(atPath: path) else { throw failure }
        do {
            if lowercased.contains(".p12") || lowercased.contains(".pfx") {
                return try ClientIdentity(pkcs12: [UInt8](certificate), passphrase: password)
            }
            let key = clientKeyFile.map { FileManager.default.contents(atPath: $0) } ?? certificate
            guard let key else { throw failure }
            return try ClientIdentity(
                certificateChainPEM: String(decoding: certificate, as: UTF8.self),
                privateKeyPEM: String(decoding: key, as: UTF8.self))
        } catch {
            throw failure
        }
    }

    /// `-x` (a bare `host:port` is http) with `--noproxy`, or the environment's variables with
    /// `--noproxy` in place of theirs; `--proxy-user` replaces the credentials of either, and
    /// `--proxy-cacert` and `--proxy-insecure` the trust of an HTTPS proxy.
    private func proxySetting() throws(CommandFailure) -> ProxySetting {
        let noProxyList = noProxy.map(NoProxyList.init)
        let trust = try proxyTLSTrust()
        if let proxy {
            do {
                var configuration = try ProxyConfiguration(url: proxy.contains("://") ? proxy : "http://" + proxy)
                configuration.credentials = proxyCredentials ?? configuration.credentials
                configuration.tlsTrust = trust ?? configuration.tlsTrust
                return .proxy(configuration, noProxy: noProxyList ?? .empty)
            } catch {
                throw CommandFailure(.couldNotResolveProxy, "Unsupported proxy \(proxy): \(error)")
            }
        }
        guard noProxyList != nil || proxyCredentials != nil || trust != nil else { return .environment }
        do {
            var rules = try ProxyRules(environment: ProcessInfo.processInfo.environment)
            rules.noProxy = noProxyList ?? rules.noProxy
            if let proxyCredentials {
                rules.http?.credentials = proxyCredentials
                rules.https?.credentials = proxyCredentials
            }
            if let trust {
                rules.http?.tlsTrust = trust
                rules.https?.tlsTrust = trust
            }
            return .rules(rules)
        } catch {
            throw CommandFailure(.couldNotResolveProxy, "Unsupported proxy: \(error)")
        }
    }

    /// `--proxy-cacert FILE` and `--proxy-insecure` as an HTTPS proxy's trust; nil when neither
    /// is given (the system store).
    /// - Throws: `CommandFailure` (77, as curl) when the file holds no certificate.
    private func proxyTLSTrust() throws(CommandFailure) -> ProxyTLSTrust? {
        guard proxyCACertificateFile != nil || proxyInsecure else { return nil }
        var trust = ProxyTLSTrust(verifiesCertificate: !proxyInsecure)
        if let proxyCACertificateFile {
            guard let roots = TrustRoots.certificates(inPEMFile: proxyCACertificateFile) else {
                throw CommandFailure(
                    .badCACertificateFile, "error setting proxy certificate file: \(proxyCACertificateFile)")
            }
            trust.roots = roots
        }
        return trust
    }

    /// `--proxy-user USER[:PASSWORD]` as credentials (the first colon ends the user name; none
    /// means an empty password).
    var proxyCredentials: ProxyCredentials? {
        guard let proxyUser else { return nil }
        guard let colon = proxyUser.firstIndex(of: ":") else {
            return ProxyCredentials(username: proxyUser, password: "")
        }
        return ProxyCredentials(
            username: String(proxyUser[..<colon]), password: String(proxyUser[proxyUser.index(after: colon)...]))
    }

    /// The trust manager for `-k` and `--pinnedpubkey`, the same for every host; nil for the
    /// default evaluation.
    /// - Throws: `CommandFailure` (2) for a pin that is not `sha256//BASE64`; (90) for a key file
    ///   that cannot be read or holds no public key.
    public func trustManager() throws(CommandFailure) -> ServerTrustManager? {
        guard let pinnedPublicKeys else {
            return insecure ? EveryHostTrustManager(evaluator: DisabledTrustEvaluator()) : nil
        }
        let keys: [PublicKey]
        if pinnedPublicKeys.hasPrefix("sha256//") {
            do {
                keys = try PublicKey.pins(fromList: pinnedPublicKeys)
            } catch {
                throw .usage("--pinnedpubkey takes a key file or sha256//BASE64 hashes separated by ';': \(error)")
            }
        } else {
            // curl's other form: the path of a file holding one public key, PEM or DER.
            guard let bytes = FileManager.default.contents(atPath: pinnedPublicKeys) else {
                throw CommandFailure(.pinnedPublicKeyMismatch, "--pinnedpubkey: cannot read \(pinnedPublicKeys)")
            }
            do {
                keys = [try PublicKey(keyFile: [UInt8](bytes))]
            } catch {
                throw CommandFailure(.pinnedPublicKeyMismatch, "--pinnedpubkey \(pinnedPublicKeys): \(error)")
            }
        }
        return EveryHostTrustManager(
            evaluator: PublicKeysTrustEvaluator(
                keys: keys, performDefaultValidation: !insecure, validateHost: !insecure))
    }
}
