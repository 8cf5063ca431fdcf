// `--print-swift`: the Wick code of a command line, line by line. (That such code compiles was
// checked once by building three generated programs in this target.)
import Testing
import WickCLI

struct SwiftCodeTests {
    private func code(_ words: [String], files: [String: String] = [:]) throws -> [String] {
        try TransferOptions.parsing(words, files: files).swiftCode(input: TableInput(files: files))
            .split(separator: "\n").map(String.init)
    }

    @Test func aPostWithHeadersAndLimits() throws {
        let lines = try code(["-L", "--max-redirs", "3", "-m", "2.5", "-H", "X-Q: \"q\"\t", "-d", "a=b", "example.com/p"])
        #expect(lines.contains("configuration.maximumRedirects = 3"))
        #expect(lines.contains("configuration.requestTimeout = .seconds(2.5)"))
        #expect(lines.contains("let session = Session(configuration: configuration, redirectHandler: Redirector.follow)"))
        #expect(lines.contains(#"headers.add(name: "X-Q", value: "\"q\"\t")"#))
        #expect(lines.contains(#"headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")"#))
        #expect(lines.contains(#"    method: HTTPMethod(rawValue: "POST"), url: URL(string: "http://example.com/p")!,"#))
        #expect(lines.contains(#"    headers: headers, body: Data("a=b".utf8))"#))
    }

    @Test func aSOCKSProxyWithItsCredentials() throws {
        let lines = try code(["--socks5-hostname", "p:1080", "-U", "u:pw", "http://h/"])
        #expect(lines.contains(#"var proxy = try ProxyConfiguration(url: "socks5h://p:1080")"#))
        #expect(lines.contains(#"proxy.credentials = ProxyCredentials(username: "u", password: "pw")"#))
        #expect(lines.contains("configuration.proxy = .proxy(proxy)"))
    }

    @Test func trustDigestFormsAndSockets() throws {
        let pinned = try code(["-k", "--pinnedpubkey", "sha256//a;sha256//b", "https://h/"])
        #expect(pinned.contains(#"    keys: [try PublicKey(pin: "sha256//a"), try PublicKey(pin: "sha256//b")], performDefaultValidation: false, validateHost: false)"#))
        let digest = try code(["--digest", "-u", "u:p", "--unix-socket", "/s", "http://localhost/"])
        #expect(digest.contains(#"    headers: headers, body: nil, unixSocketPath: "/s")"#))
        #expect(digest.contains { $0.contains(#".authenticate(username: "u", password: "p")"#) })
        let form = try code(["-F", "a=1;type=text/x", "-F", "f=@missing.bin", "http://h/"])
        #expect(form.contains(#"form.append(Data("1".utf8), withName: "a", mimeType: "text/x")"#))
        #expect(form.contains(#"form.append(URL(fileURLWithPath: "missing.bin"), withName: "f")"#))
        #expect(form.contains(#"headers.add(name: "Content-Type", value: form.contentType)"#))
    }
}
