// The golden suite: each command line run through curl and the built `wick` against the local
// nginx and httpbin (Scripts/test starts them), comparing exit status, files written, and
// standard output (or the `-v` heads) as each case says.
import Foundation
import Testing
import Wick
import WickTestSupport

/// What a case's placeholders need alive while it runs: the refusing port, which refuses only
/// while held, the HTTPS proxy (an in-process `TestProxy` behind a `TLSFront`), and the fronts
/// before nginx's http port that serve an expired and a self-signed leaf.
private struct HeldServers {
    let refused: RefusingPort
    let proxy: TestProxy
    let front: TLSFront
    let expired: TLSFront
    let selfSigned: TLSFront

    func stop() {
        for front in [front, expired, selfSigned] { front.stop() }
        proxy.stop()
        withExtendedLifetime(refused) {}
    }
}

/// The servers' addresses as the cases' placeholders name them, and the servers the caller must
/// hold while the case runs.
private func placeholders() throws -> (values: [String: String], held: HeldServers) {
    let nginx = try TestEnvironment.nginx()
    let httpbin = try TestEnvironment.httpbin()
    let socks = try TestEnvironment.socks()
    let pem = try String(contentsOf: nginx.pki.server.certificate, encoding: .utf8)
    let pin = try Certificate.chain(pemEncoded: pem)[0].publicKey.pin
    let refused = try RefusingPort()
    let proxy = try TestProxy()
    let front = try TLSFront(backendPort: proxy.port, pki: nginx.pki)
    let hostile = try hostileLeaves.get()
    let expired = try TLSFront(
        backendPort: nginx.httpPort,
        certificateChain: Certificate.chain(
            pemEncoded: String(contentsOf: hostile.expired.certificate, encoding: .utf8)
                + String(contentsOf: nginx.pki.intermediate.certificate, encoding: .utf8)),
        privateKeyPEM: String(contentsOf: hostile.expired.privateKey, encoding: .utf8))
    let selfSigned = try TLSFront(
        backendPort: nginx.httpPort,
        certificateChain: Certificate.chain(
            pemEncoded: String(contentsOf: hostile.selfSigned.certificate, encoding: .utf8)),
        privateKeyPEM: String(contentsOf: hostile.selfSigned.privateKey, encoding: .utf8))

    let values = [
        "{httpbin}": httpbin.base, "{www}": nginx.documentRoot.path, "{nginx}": nginx.httpBase, "{nginxs}": nginx.httpsBase,
        "{root}": nginx.pki.root.certificate.path, "{sock}": nginx.unixSocket, "{pin}": pin,
        "{refused}": "http://127.0.0.1:\(refused.port)/", "{capath}": try caDirectory.get(),
        "{mtls}": "https://localhost:\(nginx.mutualTLSPort)", "{clientchain}": nginx.pki.clientChain.path,
        "{clientkey}": nginx.pki.client.privateKey.path, "{httpbinport}": "\(httpbin.port)",
        "{nginxport}": "\(nginx.httpPort)", "{nginxsport}": "\(nginx.httpsPort)",
        "{nginxh2}": "https://localhost:\(nginx.http2Port)", "{nginxh2c}": "http://127.0.0.1:\(nginx.h2cPort)",
        "{serverkeypem}": try publicKeyFiles.get().pem, "{serverkeyder}": try publicKeyFiles.get().der,
        "{clientkeypem}": try publicKeyFiles.get().otherPEM,
        "{socks}": "127.0.0.1:\(socks.port)", "{socksauth}": "127.0.0.1:\(socks.authenticatingPort)",
        "{socksuser}": "\(socks.username):\(socks.password)", "{refusedauthority}": "127.0.0.1:\(refused.port)",
        "{httpsproxy}": "https://localhost:\(front.port)",
        "{expired}": "https://localhost:\(expired.port)", "{selfsigned}": "https://localhost:\(selfSigned.port)",
    ]
    return (values, HeldServers(refused: refused, proxy: proxy, front: front, expired: expired, selfSigned: selfSigned))
}

/// A leaf for localhost that expired a month ago (signed by the PKI's intermediate) and a
/// self-signed one, made once with `openssl` in the PKI's directory.
private let hostileLeaves = Result { () throws -> (expired: TestPKI.Identity, selfSigned: TestPKI.Identity) in
    let pki = try TestEnvironment.nginx().pki
    let authority = try CertificateAuthority(
        pki: pki, issuer: pki.intermediate, name: "golden-ca", ocspURLs: [], crlURLs: [])
    let day = 86_400.0
    let now = Date()
    let expired = try authority.issueLeaf(
        named: "expired", dnsNames: ["localhost"], validity: .between(now - 60 * day, now - 30 * day),
        revocationInfo: false)
    return (expired, try authority.selfSignedLeaf(named: "self-signed", dnsNames: ["localhost"]))
}

/// Public key files for `--pinnedpubkey FILE`: the server's key as PEM and as DER, and another
/// key (the client's) as PEM, written by `openssl pkey -pubout` into the PKI's directory. Made once.
private let publicKeyFiles = Result { () throws -> (pem: String, der: String, otherPEM: String) in
    let pki = try TestEnvironment.nginx().pki
    let pem = pki.directory.appendingPathComponent("server-public.pem").path
    let der = pki.directory.appendingPathComponent("server-public.der").path
    let other = pki.directory.appendingPathComponent("client-public.pem").path
    try runCommand("/usr/bin/openssl", ["pkey", "-in", pki.server.privateKey.path, "-pubout", "-out", pem])
    try runCommand(
        "/usr/bin/openssl", ["pkey", "-in", pki.server.privateKey.path, "-pubout", "-outform", "DER", "-out", der])
    try runCommand("/usr/bin/openssl", ["pkey", "-in", pki.client.privateKey.path, "-pubout", "-out", other])
    return (pem, der, other)
}

/// A `--capath` directory as curl needs it (the root under its OpenSSL subject-hash name too), in
/// the PKI's directory, which goes with the test run. Made once per process: the cases run in
/// parallel, and a global is initialized once whatever the threads; made anew, so a second run
/// against the same servers finds no earlier run's directory in its way.
private let caDirectory = Result { () throws -> String in
    let pki = try TestEnvironment.nginx().pki
    let directory = pki.directory.appendingPathComponent("capath")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: pki.root.certificate, to: directory.appendingPathComponent("root.pem"))
    try runCommand("/usr/bin/openssl", ["rehash", directory.path])
    return directory.path
}

/// Serialized: each case starts two processes, and 80 cases at once beside the rest of the run
/// loaded a shared machine enough to push other suites' timing-bound tests past their waits.
@Suite(
    .enabled(
        if: TestEnvironment.wantsNginx && TestEnvironment.wantsHTTPBin && TestEnvironment.wantsSOCKS,
        "needs nginx, httpbin and microsocks: use Scripts/test"),
    .serialized)
struct GoldenCommandTests {
    @Test(arguments: GoldenCommandCase.all)
    func wickAgreesWithCurl(_ golden: GoldenCommandCase) throws {
        let (values, held) = try placeholders()
        defer { held.stop() }
        let arguments = golden.arguments.map { argument in
            values.reduce(argument) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
        var seeds: [String: [UInt8]] = [:]
        for seed in golden.seeds {
            let source = values.reduce(seed.source) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: source)))
            seeds[seed.name] = Array(bytes.prefix(seed.length ?? bytes.count))
        }
        let curl = try CommandRun("/usr/bin/curl", arguments, standardInput: golden.standardInput, seeds: seeds)
        let wick = try CommandRun(CommandRun.wickPath, arguments, standardInput: golden.standardInput, seeds: seeds)
        #expect(wick.status == curl.status, "exit status; wick said: \(wick.errorText)")
        #expect(wick.files.keys.sorted() == curl.files.keys.sorted())
        for (path, contents) in curl.files {
            #expect(wick.files[path].map { Self.comparable(String(decoding: $0, as: UTF8.self)) } == Self.comparable(String(decoding: contents, as: UTF8.self)), "\(path)")
        }
        switch golden.comparison {
        case .exact:
            #expect(Self.comparable(wick.outputText) == Self.comparable(curl.outputText))
        case .json(var ignored):
            // The programs' own User-Agents differ, unless the case names one.
            if !arguments.contains("-A") && !arguments.contains(where: { $0.hasPrefix("User-Agent") }) {
                ignored.insert("user-agent")
            }
            #expect(try Self.json(wick.output, ignoringHeaders: ignored) == Self.json(curl.output, ignoringHeaders: ignored))
        case .writeOut:
            #expect(Self.withoutTimes(wick.outputText) == Self.withoutTimes(curl.outputText))
        case .writeOutJSON:
            try Self.compareWriteOutJSON(wick: wick.output, curl: curl.output)
        case .verbose:
            #expect(wick.outputText == curl.outputText)
            let (wickRequest, wickResponse) = Self.heads(wick.errorText)
            let (curlRequest, curlResponse) = Self.heads(curl.errorText)
            // The request line first; the fields in any order (curl writes Content-Length
            // before the -d Content-Type, Wick's encoder writes the framing field last).
            #expect(wickRequest.first == curlRequest.first)
            #expect(wickRequest.sorted() == curlRequest.sorted())
            #expect(Self.comparable(wickResponse.joined(separator: "\n")) == Self.comparable(curlResponse.joined(separator: "\n")))
        case .warnings:
            #expect(wick.outputText == curl.outputText)
            #expect(Self.lines(wick.errorText).filter { $0.hasPrefix("Warning:") } == Self.lines(curl.errorText).filter { $0.hasPrefix("Warning:") })
        case .progress:
            #expect(wick.outputText == curl.outputText)
            let (wickHeader, wickLast) = Self.progressShape(wick.errorText)
            let (curlHeader, curlLast) = Self.progressShape(curl.errorText)
            #expect(wickHeader == curlHeader)
            #expect(wickLast.count == curlLast.count, "wick's last line: \(wickLast)")
            #expect(wickLast.prefix(33) == curlLast.prefix(33))
        case .statusOnly:
            break
        }
    }

    /// A progress display's text before its first `\r` (the meter's header, the resume line),
    /// and its last `\r` line.
    static func progressShape(_ text: String) -> (header: Substring, last: Substring) {
        let segments = text.split(separator: "\r", omittingEmptySubsequences: false)
        return (segments.first ?? "", segments.count > 1 ? segments[segments.count - 1] : "")
    }

    /// `text` without its `Date:` lines, and with status lines' reason phrases in lowercase:
    /// Wick's responses carry the code, not the server's phrase, so `wick` prints RFC 9110's
    /// (`No Content` where httpbin says `NO CONTENT`).
    static func comparable(_ text: String) -> String {
        lines(text).filter { !$0.hasPrefix("Date: ") && !$0.hasPrefix("< Date: ") }
            .map { $0.hasPrefix("HTTP/") || $0.hasPrefix("< HTTP/") ? $0.lowercased() : $0 }
            .joined(separator: "\n")
    }

    /// The lines of `text`, split at LF and CRLF (which Swift counts as one character).
    static func lines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
    }

    /// `text` with each `digits.sixdigits` time as `T`.
    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+\.[0-9]{6}"#, with: "T", options: .regularExpression)
    }

    /// The `>` and the `<` lines of a `-v` trace.
    static func heads(_ trace: String) -> (request: [String], response: [String]) {
        let all = lines(trace)
        return (all.filter { $0.hasPrefix("> ") }, all.filter { $0.hasPrefix("< ") })
    }

    /// httpbin's echo as a dictionary, with the named request headers removed.
    static func json(_ bytes: [UInt8], ignoringHeaders ignored: Set<String>) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        guard var dictionary = object as? [String: Any] else { return [:] }
        if let headers = dictionary["headers"] as? [String: Any] {
            dictionary["headers"] = headers.filter { !ignored.contains($0.key.lowercased()) }
        }
        return dictionary as NSDictionary
    }

    /// Every key of `wick`'s `%{json}` is in curl's, and the values that do not depend on
    /// timing or on the program agree.
    static func compareWriteOutJSON(wick: [UInt8], curl: [UInt8]) throws {
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(wick)) as? [String: Any])
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(curl)) as? [String: Any])
        #expect(Set(ours.keys).isSubset(of: Set(theirs.keys)), "\(Set(ours.keys).subtracting(theirs.keys))")
        for key in [
            "content_type", "exitcode", "http_code", "http_version", "method", "num_connects", "num_redirects",
            "remote_ip", "remote_port", "response_code", "scheme", "size_download", "url", "url_effective",
            "filename_effective",
        ] {
            #expect("\(ours[key] ?? "missing")" == "\(theirs[key] ?? "missing")", "\(key)")
        }
    }
}
