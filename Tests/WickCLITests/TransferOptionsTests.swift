// The meaning curl gives each option: data joining and encoding, headers, forms, method and URL.
import FoundationEssentials
import Testing
import Wick
import WickCLI
import WickTestSupport

struct TransferOptionsTests {
    @Test func dataPiecesJoinWithAmpersandButJSONPiecesDoNot() throws {
        #expect(try TransferOptions.parsing(["-d", "a", "-d", "b", "u"]).dataText == "a&b")
        #expect(try TransferOptions.parsing(["-d", "a", "--json", "b", "-d", "c", "u"]).dataText == "ab&c")
        #expect(try TransferOptions.parsing(["--json", "a", "--json", "b", "u"]).dataText == "ab")
    }

    @Test func dataFromFilesFollowsEachOptionsRule() throws {
        let files = ["f": "a\r\nb\n", "-": "in\n"]
        #expect(try TransferOptions.parsing(["-d", "@f", "u"], files: files).dataText == "ab")
        #expect(try TransferOptions.parsing(["--data-binary", "@f", "u"], files: files).dataText == "a\r\nb\n")
        #expect(try TransferOptions.parsing(["--data-raw", "@f", "u"], files: files).dataText == "@f")
        #expect(try TransferOptions.parsing(["-d", "@-", "u"], files: files).dataText == "in")
        #expect(try TransferOptions.parsing(["--json", "@-", "u"], files: files).dataText == "in\n")
    }

    @Test func anUnreadableDataFileWarnsUnlessSilencedBeforeAndSendsNothing() throws {
        let options = try TransferOptions.parsing(["-d", "@missing", "u"])
        #expect(options.dataText == "")
        #expect(options.warnings == ["Couldn't read data from file \"missing\", this makes an empty POST."])
        #expect(try TransferOptions.parsing(["-s", "-d", "@missing", "u"]).warnings.isEmpty)
        #expect(try TransferOptions.parsing(["-d", "@missing", "-s", "u"]).warnings.count == 1)
    }

    @Test func dataURLEncodeForms() throws {
        let files = ["f": "x y\n"]
        func encoded(_ argument: String) throws -> String? {
            try TransferOptions.parsing(["--data-urlencode", argument, "u"], files: files).dataText
        }
        #expect(try encoded("a b&c") == "a+b%26c")
        #expect(try encoded("=a=b") == "a%3Db")
        #expect(try encoded("name=a b/~") == "name=a+b%2F~")
        #expect(try encoded("@f") == "x+y%0A")
        #expect(try encoded("n@f") == "n=x+y%0A")
        #expect(try encoded("é") == "%C3%A9")
    }

    @Test func headersSetRemoveSendEmptyAndComeFromFiles() throws {
        let options = try TransferOptions.parsing(
            ["-H", "X-A:   one", "-H", "Accept:", "-H", "X-Empty;", "-H", "no colon", "-H", "@h", "u"],
            files: ["h": "X-B: two\r\n\r\nX-C: three\n"])
        #expect(
            options.headers == [
                .set(name: "X-A", value: "one"), .remove(name: "Accept"), .set(name: "X-Empty", value: ""),
                .set(name: "X-B", value: "two"), .set(name: "X-C", value: "three"),
            ])
        #expect(throws: CommandFailure(.readError, "Failed to open missing")) {
            try TransferOptions.parsing(["-H", "@missing", "u"])
        }
    }

    @Test func headerFieldsComeInCurlsOrderWithReplacementsAndRemovals() throws {
        let options = try TransferOptions.parsing(
            [
                "-u", "me:pw", "-e", "http://r/", "--compressed", "-H", "accept: text/plain", "-H", "User-Agent:", "-H",
                "X-Y: z", "-d", "a", "u",
            ])
        let fields = options.headerFields(bodyContentType: "application/x-www-form-urlencoded")
        #expect(fields.map(\.name) == ["Authorization", "Referer", "Accept-Encoding", "accept", "X-Y", "Content-Type"])
        #expect(fields["Authorization"] == "Basic bWU6cHc=")
        #expect(fields["Accept"] == "text/plain")
    }

    @Test func digestSendsNoBasicField() throws {
        let digest = try TransferOptions.parsing(["--digest", "-u", "me:p:w", "u"])
        #expect(digest.credentials! == ("me", "p:w"))
        #expect(!digest.headerFields(bodyContentType: nil).contains(name: "Authorization"))
        let basic = try TransferOptions.parsing(["--digest", "--basic", "-u", "me", "u"])
        #expect(basic.credentials! == ("me", ""))
        #expect(basic.headerFields(bodyContentType: nil)["Authorization"] == "Basic bWU6")
    }

    @Test func jsonAddsItsTypesUnlessReplaced() throws {
        let json = try TransferOptions.parsing(["--json", "{}", "u"])
        let fields = json.headerFields(bodyContentType: "application/json")
        #expect(fields.map(\.name) == ["User-Agent", "Content-Type", "Accept"])
        #expect(fields["Accept"] == "application/json")
        let replaced = try TransferOptions.parsing(["--json", "{}", "-H", "Content-Type: text/x", "u"])
        #expect(replaced.headerFields(bodyContentType: "application/json").values(for: "Content-Type") == ["text/x"])
    }

    @Test func methodAndURLFollowCurl() throws {
        #expect(try TransferOptions.parsing(["u"]).effectiveMethod == .get)
        #expect(try TransferOptions.parsing(["-d", "x", "u"]).effectiveMethod == .post)
        #expect(try TransferOptions.parsing(["-F", "a=b", "u"]).effectiveMethod == .post)
        #expect(try TransferOptions.parsing(["-I", "u"]).effectiveMethod == .head)
        #expect(
            try TransferOptions.parsing(["-XPATCH", "-d", "x", "u"]).effectiveMethod == HTTPMethod(rawValue: "PATCH"))
        let get = try TransferOptions.parsing(["-G", "-d", "a=1", "-d", "b=2", "example.com/p?z=0"])
        #expect(get.effectiveMethod == .get)
        #expect(try get.effectiveURL(get.urls[0]) == "http://example.com/p?z=0&a=1&b=2")
        #expect(try get.body(input: TableInput()) == nil)
        #expect(try TransferOptions.parsing(["-G", "-d", "a", "u"]).effectiveURL("https://h/") == "https://h/?a")
        #expect(throws: CommandFailure(.unsupportedProtocol, "Protocol \"ftp\" not supported or disabled in libcurl")) {
            try TransferOptions.parsing(["u"]).effectiveURL("ftp://h/")
        }
    }

    @Test func formFieldsParseCurlsSyntax() throws {
        #expect(try FormField(parsing: "a=b;c") == FormField(parsing: "a=b;c"))
        let text = try FormField(parsing: "a=b;c")
        #expect(text.content == .text("b;c") && text.contentType == nil)
        let file = try FormField(parsing: "f=@x.bin;type=image/png;filename=y.png")
        #expect(file.content == .file(path: "x.bin") && file.contentType == "image/png" && file.fileName == "y.png")
        #expect(try FormField(parsing: "g=<x.txt").content == .fileText(path: "x.txt"))
        #expect(try FormField(parsing: "s=@x;type=t", literal: true).content == .text("@x;type=t"))
        #expect(throws: CommandFailure(.readError, "Illegally formatted input field: novalue")) {
            try FormField(parsing: "novalue")
        }
    }

    @Test func aFormEncodesItsPartsFromTextAndFiles() throws {
        let options = try TransferOptions.parsing(["-F", "a=1", "-F", "g=<t", "u"], files: ["t": "from file"])
        let body = try #require(try options.body(input: TableInput(files: ["t": "from file"]), boundary: "B"))
        #expect(body.contentType == "multipart/form-data; boundary=B")
        let text = String(decoding: body.bytes, as: UTF8.self)
        #expect(text.contains("name=\"a\"\r\n\r\n1\r\n"))
        #expect(text.contains("name=\"g\"\r\n\r\nfrom file\r\n"))
        #expect(throws: CommandFailure.self) { try options.body(input: TableInput()) }
    }

    @Test func switchesAndNumbers() throws {
        let options = try TransferOptions.parsing(
            [
                "-sSLfik", "--no-location", "-m", "1.5", "--connect-timeout", "2", "--max-redirs", "3", "--retry", "2",
                "--retry-delay", "0", "u",
            ])
        #expect(
            options.silent && options.showsError && options.failsOnHTTPError && options.includesHead && options.insecure
        )
        #expect(!options.followsRedirects)
        #expect(options.maximumTime == 1.5 && options.connectTimeout == 2 && options.maximumRedirects == 3)
        #expect(options.retries == 2 && options.retryDelay == nil && options.retryMaximumTime == nil)
        let retries = try TransferOptions.parsing(["--retry-max-time", "9", "--retry-all-errors", "u"])
        #expect(retries.retryMaximumTime == 9 && retries.retriesAllErrors)
        #expect(throws: CommandFailure.usage("option --max-time: expected a proper numerical parameter")) {
            try TransferOptions.parsing(["-m", "soon", "u"])
        }
    }

    @Test(arguments: [("100", 100), ("0", 0), ("200K", 204_800), ("3m", 3_145_728), ("1G", 1_073_741_824)])
    func maxFilesizeTakesCurlsSizeSuffixes(text: String, bytes: Int) throws {
        #expect(try TransferOptions.parsing(["--max-filesize", text, "u"]).maximumFileSize == bytes)
    }

    @Test(arguments: ["", "k", "-1", "1.5m", "10x", "9999999999999999g"])
    func maxFilesizeRefusesWhatIsNotASize(text: String) {
        #expect(throws: CommandFailure.self) { try TransferOptions.parsing(["--max-filesize", text, "u"]) }
    }

    @Test func commandLineMistakes() {
        #expect(throws: CommandFailure.usage("no URL specified!")) { try TransferOptions.parsing(["-s"]) }
        #expect(throws: CommandFailure.self) { try TransferOptions.parsing(["-I", "-d", "x", "u"]) }
        #expect(throws: CommandFailure.self) { try TransferOptions.parsing(["-F", "a=b", "-d", "x", "u"]) }
        #expect(throws: CommandFailure.usage("You must select either --fail or --fail-with-body, not both.")) {
            try TransferOptions.parsing(["-f", "--fail-with-body", "u"])
        }
    }

    @Test func resumeOffsets() throws {
        #expect(try TransferOptions.parsing(["u"]).resumeOffset(outputPath: "/etc/hostname") == nil)
        #expect(try TransferOptions.parsing(["-C", "7", "u"]).resumeOffset(outputPath: nil) == 7)
        #expect(try TransferOptions.parsing(["-C", "0", "u"]).resumeOffset(outputPath: nil) == nil)
        let automatic = try TransferOptions.parsing(["-C", "-", "u"])
        #expect(automatic.resumeOffset(outputPath: nil) == nil)
        #expect(automatic.resumeOffset(outputPath: "/nonexistent/file") == nil)
        let size = try FileManager.default.attributesOfItem(atPath: "/etc/hostname")[.size] as? UInt
        #expect(automatic.resumeOffset(outputPath: "/etc/hostname") == size.map { Int($0) })
        #expect(throws: CommandFailure.usage("option --continue-at: expected a proper numerical parameter")) {
            try TransferOptions.parsing(["-C", "x", "u"])
        }
    }

    @Test func outputsServeTheURLsInOrder() throws {
        let options = try TransferOptions.parsing(["a", "-o", "x", "b", "-O", "c", "--url", "d"])
        #expect(options.urls == ["a", "b", "c", "d"])
        #expect(options.outputs == [.file("x"), .remoteName])
    }

    @Test func outputPaths() throws {
        let url = URL(string: "http://h/dir/file.txt?q")
        let plain = try TransferOptions.parsing(["u"])
        #expect(try plain.outputPath(.file("x"), url: url) == "x")
        #expect(try plain.outputPath(.file("-"), url: url) == nil)
        #expect(try plain.outputPath(nil, url: url) == nil)
        #expect(try plain.outputPath(.remoteName, url: url) == "file.txt")
        let directory = try TransferOptions.parsing(["--output-dir", "d", "u"])
        #expect(try directory.outputPath(.remoteName, url: url) == "d/file.txt")
        #expect(try directory.outputPath(.file("/abs"), url: url) == "/abs")
        let headerNamed = try TransferOptions.parsing(["-J", "u"])
        #expect(
            try headerNamed.outputPath(.remoteName, url: url, contentDisposition: "attachment; filename=\"../a b.txt\"")
                == "a b.txt")
        #expect(
            try headerNamed.outputPath(.remoteName, url: url, contentDisposition: "inline;filename=c.txt; size=3")
                == "c.txt")
        #expect(try headerNamed.outputPath(.remoteName, url: url, contentDisposition: "attachment") == "file.txt")
        #expect(try headerNamed.outputPath(.file("o"), url: url, contentDisposition: "attachment; filename=x") == "o")
        #expect(try plain.outputPath(.remoteName, url: url, contentDisposition: "attachment; filename=x") == "file.txt")
        #expect(throws: CommandFailure(.writeError, "Remote file name has no length!")) {
            try plain.outputPath(.remoteName, url: URL(string: "http://h/"))
        }
    }
}

@Suite struct CookieOptionTests {
    @Test func cookieFlagsTurnTheEngineOnAndLiteralsBecomeTheCookieField() throws {
        let plain = try TransferOptions.parsing(["u"])
        #expect(plain.cookieEngine() == nil)
        let literal = try TransferOptions.parsing(["-b", "a=1; b=2", "-b", "/nonexistent/jar", "u"])
        #expect(literal.cookieEngine() != nil)
        #expect(literal.headerFields(bodyContentType: nil).value(for: "Cookie") == "a=1; b=2")
    }

    @Test func aJarIsWrittenInTheNetscapeFormatAndReadBackWithB() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-jar-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jarPath = directory.appendingPathComponent("jar.txt").path
        let writing = try TransferOptions.parsing(["-c", jarPath, "u"])
        let storage = try #require(writing.cookieEngine())
        storage.storeCookies(from: ["sid=abc; Path=/"], for: URL(string: "http://h.test/")!, now: Date())
        #expect(writing.saveCookieJar(storage) == nil)
        let reading = try TransferOptions.parsing(["-b", jarPath, "u"])
        let read = try #require(reading.cookieEngine())
        #expect(read.cookieFieldValue(for: URL(string: "http://h.test/x")!, now: Date()) == "sid=abc")
    }
}

struct ProxyOptionsTests {
    /// The proxy a command line's session configuration sends http requests through.
    private static func proxy(_ arguments: [String]) throws -> ProxyConfiguration? {
        let configuration = try TransferOptions.parsing(arguments + ["u"]).sessionConfiguration()
        guard case .rules(let rules) = configuration.proxy else { return nil }
        return rules.http
    }

    @Test func socksOptionsNameTheirScheme() throws {
        #expect(try Self.proxy(["--socks5", "p:1"]) == ProxyConfiguration(.socks5, host: "p", port: 1))
        #expect(try Self.proxy(["--socks5-hostname", "p:2"]) == ProxyConfiguration(.socks5h, host: "p", port: 2))
        #expect(try Self.proxy(["--socks4", "p"]) == ProxyConfiguration(.socks4, host: "p"))
        #expect(try Self.proxy(["--socks4a", "p:4"]) == ProxyConfiguration(.socks4a, host: "p", port: 4))
        #expect(try Self.proxy(["-x", "socks5h://p:5"]) == ProxyConfiguration(.socks5h, host: "p", port: 5))
    }

    @Test func theLastOfXAndASocksOptionWins() throws {
        #expect(try Self.proxy(["-x", "h:1", "--socks5", "s:2"])?.scheme == .socks5)
        #expect(try Self.proxy(["--socks5", "s:2", "-x", "h:1"])?.scheme == .http)
    }

    @Test func proxyUserReplacesTheURLsCredentials() throws {
        let proxy = try Self.proxy(["-x", "socks5://a:b@p:1", "-U", "alice:pa:ss"])
        #expect(proxy?.credentials == ProxyCredentials(username: "alice", password: "pa:ss"))
        let userOnly = try Self.proxy(["--socks5-hostname", "p:1", "--proxy-user", "bob"])
        #expect(userOnly?.credentials == ProxyCredentials(username: "bob", password: ""))
    }

    @Test func anHTTPSProxyHasItsOwnTrustOptions() throws {
        #expect(try Self.proxy(["-x", "https://p"]) == ProxyConfiguration(.https, host: "p", port: 443))
        #expect(try Self.proxy(["-x", "https://p:8443", "--proxy-insecure"])?.tlsTrust == .unverified)
        // --insecure is the origins' business, not the proxy's.
        #expect(try Self.proxy(["-x", "https://p", "-k"])?.tlsTrust == .system)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-proxy-cacert-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try TestPKI.generate(in: directory)
        let root = try Certificate(pemEncoded: String(contentsOf: pki.root.certificate, encoding: .utf8))
        let trusted = try Self.proxy(["-x", "https://p", "--proxy-cacert", pki.root.certificate.path])
        #expect(trusted?.tlsTrust == ProxyTLSTrust(roots: .certificates([root])))
        let code = try TransferOptions.parsing(
            ["-x", "https://p", "--proxy-cacert", pki.root.certificate.path, "--proxy-insecure", "u"]
        ).swiftCode(input: TableInput(files: [:]))
        #expect(code.contains("proxy.tlsTrust.roots = .certificates("))
        #expect(code.contains("proxy.tlsTrust.verifiesCertificate = false"))
    }

    @Test func aProxyCACertificateFileWithoutCertificatesIsExit77() throws {
        #expect {
            try TransferOptions.parsing(["-x", "https://p", "--proxy-cacert", "/nonexistent.pem", "u"])
                .sessionConfiguration()
        } throws: { error in
            (error as? CommandFailure)?.code == .badCACertificateFile
        }
    }
}

struct HTTPVersionOptionsTests {
    @Test func http2PrefersH2AndTheLastVersionOptionWins() throws {
        #expect(try TransferOptions.parsing(["u"]).httpVersion == .preferHTTP2)
        #expect(try TransferOptions.parsing(["--http2", "u"]).httpVersion == .preferHTTP2)
        #expect(try TransferOptions.parsing(["--http2", "--http1.1", "u"]).httpVersion == .http1Only)
        #expect(try TransferOptions.parsing(["--http1.1", "--http2", "u"]).httpVersion == .preferHTTP2)
        #expect(try TransferOptions.parsing(["--http2", "--no-http2", "u"]).httpVersion == .http1Only)
    }

    @Test func priorKnowledgeReachesTheSessionAndTheSwiftCode() throws {
        let options = try TransferOptions.parsing(["--http2-prior-knowledge", "--http2", "u"])
        let configuration = try options.sessionConfiguration()
        #expect(configuration.http2PriorKnowledge && configuration.httpVersion == .preferHTTP2)
        #expect(
            try TransferOptions.parsing(["--http2-prior-knowledge", "--http1.1", "u"]).http2PriorKnowledge == false)
        let code = try options.swiftCode(input: TableInput(files: [:]))
        #expect(!code.contains("configuration.httpVersion"), "the session's default, as curl's")
        #expect(code.contains("configuration.http2PriorKnowledge = true"))
        let http1 = try TransferOptions.parsing(["--http1.1", "u"]).swiftCode(input: TableInput(files: [:]))
        #expect(http1.contains("configuration.httpVersion = .http1Only"))
    }
}
