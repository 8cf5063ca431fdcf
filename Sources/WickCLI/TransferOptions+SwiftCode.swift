// `--print-swift`: the Wick code that sends what the command line describes, as curl's
// `--libcurl` writes the C code of a transfer.
import FoundationEssentials
import Wick

extension TransferOptions {
    /// A Swift program that makes the first URL's request through Wick's public API, with the
    /// session settings, trust, header fields and body this command line gives, and prints the
    /// status and the body.
    /// - Throws: `CommandFailure` for an unsupported scheme (1).
    public func swiftCode(input: some ArgumentInput) throws(CommandFailure) -> String {
        let url = try effectiveURL(urls[0])
        let host = URL(string: url)?.host() ?? ""
        var lines = ["import FoundationEssentials", "import Wick", "", "var configuration = Session.Configuration()"]
        lines.append("configuration.headers = HTTPHeaders()")
        lines.append("configuration.automaticallyDecodesResponseBodies = \(compressed)")
        if httpVersion != .preferHTTP2 { lines.append("configuration.httpVersion = .\(httpVersion)") }
        if http2PriorKnowledge { lines.append("configuration.http2PriorKnowledge = true") }
        if followsRedirects {
            lines.append(
                "configuration.maximumRedirects = \(maximumRedirects < 0 ? "Int.max" : String(maximumRedirects))")
        }
        if let maximumTime { lines.append("configuration.requestTimeout = .seconds(\(maximumTime))") }
        if let connectTimeout { lines.append("configuration.connectTimeout = .seconds(\(connectTimeout))") }
        if let caCertificateFile {
            lines.append("configuration.trustRoots = .certificates(")
            lines.append(
                "    try Certificate.chain(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: \(Self.literal(caCertificateFile)))), as: UTF8.self)))"
            )
        }
        if interface != nil || localPorts != nil {
            let address = interface.map { "address: \(Self.literal($0))" }
            let ports = localPorts.map { "ports: \($0.lowerBound)...\($0.upperBound)" }
            lines.append(
                "configuration.sourceBinding = try SourceBinding(\([address, ports].compactMap { $0 }.joined(separator: ", ")))"
            )
        }
        for entry in resolveEntries {
            lines.append(
                "configuration.nameResolution.resolveOverrides.append(try ResolveOverride(curlArgument: \(Self.literal(entry))))"
            )
        }
        for entry in connectToEntries {
            lines.append(
                "configuration.nameResolution.connectToOverrides.append(try ConnectToOverride(curlArgument: \(Self.literal(entry))))"
            )
        }
        if let proxy {
            let url = Self.literal(proxy.contains("://") ? proxy : "http://" + proxy)
            if proxyCredentials != nil || proxyCACertificateFile != nil || proxyInsecure {
                lines.append("var proxy = try ProxyConfiguration(url: \(url))")
                if let credentials = proxyCredentials {
                    lines.append(
                        "proxy.credentials = ProxyCredentials(username: \(Self.literal(credentials.username)), password: \(Self.literal(credentials.password)))"
                    )
                }
                if let proxyCACertificateFile {
                    lines.append("proxy.tlsTrust.roots = .certificates(")
                    lines.append(
                        "    try Certificate.chain(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: \(Self.literal(proxyCACertificateFile)))), as: UTF8.self)))"
                    )
                }
                if proxyInsecure { lines.append("proxy.tlsTrust.verifiesCertificate = false") }
                lines.append("configuration.proxy = .proxy(proxy)")
            } else {
                lines.append("configuration.proxy = .proxy(try ProxyConfiguration(url: \(url)))")
            }
        }
        var sessionArguments = ["configuration: configuration"]
        if let pinnedPublicKeys {
            let keys = pinnedPublicKeys.split(separator: ";").map { "try PublicKey(pin: \(Self.literal(String($0))))" }
            lines.append("let evaluator = PublicKeysTrustEvaluator(")
            lines.append(
                "    keys: [\(keys.joined(separator: ", "))], performDefaultValidation: \(!insecure), validateHost: \(!insecure))"
            )
            lines.append("let trustManager = ServerTrustManager(evaluators: [\(Self.literal(host)): evaluator])")
            sessionArguments.append("serverTrustManager: trustManager")
        } else if insecure {
            lines.append(
                "let trustManager = ServerTrustManager(evaluators: [\(Self.literal(host)): DisabledTrustEvaluator()])")
            sessionArguments.append("serverTrustManager: trustManager")
        }
        sessionArguments.append("redirectHandler: Redirector.\(followsRedirects ? "follow" : "doNotFollow")")
        lines.append("let session = Session(\(sessionArguments.joined(separator: ", ")))")
        lines.append("")
        // A form's files are read by the generated code, not here.
        let body = form.isEmpty ? try self.body(input: input) : (Data(), "multipart/form-data")
        var bodyArgument = "nil"
        if !form.isEmpty {
            lines += formLines() + [""]
            bodyArgument = "try form.encode()"
        } else if let body {
            if let text = String(validating: body.bytes, as: UTF8.self) {
                bodyArgument = "Data(\(Self.literal(text)).utf8)"
            } else {
                bodyArgument = "Data([\(body.bytes.map { String($0) }.joined(separator: ", "))])"
            }
        }
        lines.append("var headers = HTTPHeaders()")
        for field in headerFields(bodyContentType: body?.contentType) {
            let value =
                field.name.lowercased() == "content-type" && !form.isEmpty
                ? "form.contentType" : Self.literal(field.value)
            lines.append("headers.add(name: \(Self.literal(field.name)), value: \(value))")
        }
        lines.append("let request = HTTPRequest(")
        lines.append(
            "    method: HTTPMethod(rawValue: \(Self.literal(effectiveMethod.rawValue))), url: URL(string: \(Self.literal(url)))!,"
        )
        lines.append(
            "    headers: headers, body: \(bodyArgument)\(unixSocket.map { ", unixSocketPath: \(Self.literal($0))" } ?? ""))"
        )
        var call = "session.request(request)"
        if usesDigest, let (user, password) = credentials {
            call += ".authenticate(username: \(Self.literal(user)), password: \(Self.literal(password)))"
        }
        lines.append("let response = await \(call).serializingData(emptyResponseCodes: Set(100..<600)).response")
        lines.append("print(response.response?.statusCode ?? 0)")
        lines.append("print(String(decoding: response.data ?? Data(), as: UTF8.self))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines that build `form` from the `-F` fields.
    private func formLines() -> [String] {
        var lines = ["let form = MultipartFormData()"]
        for field in form {
            let name = Self.literal(field.name)
            let extras = [
                field.fileName.map { "fileName: \(Self.literal($0))" },
                field.contentType.map { "mimeType: \(Self.literal($0))" },
            ].compactMap { $0 }
            switch field.content {
            case .text(let text):
                lines.append(
                    "form.append(Data(\(Self.literal(text)).utf8), withName: \(([name] + extras).joined(separator: ", ")))"
                )
            case .fileText(let path):
                lines.append(
                    "form.append(try Data(contentsOf: URL(fileURLWithPath: \(Self.literal(path)))), withName: \(([name] + extras).joined(separator: ", ")))"
                )
            case .file(let path):
                let file = "URL(fileURLWithPath: \(Self.literal(path)))"
                if extras.isEmpty {
                    lines.append("form.append(\(file), withName: \(name))")
                } else {
                    let fileName = Self.literal(field.fileName ?? URL(fileURLWithPath: path).lastPathComponent)
                    let type = Self.literal(field.contentType ?? "application/octet-stream")
                    lines.append("form.append(\(file), withName: \(name), fileName: \(fileName), mimeType: \(type))")
                }
            }
        }
        return lines
    }

    /// `text` as a Swift string literal (`\u{X}` for control characters).
    static func literal(_ text: String) -> String {
        QuotedText.quoted(text) { "\\u{\(String($0, radix: 16))}" }
    }
}
