// The request as a curl command line: Alamofire's cURLDescription, and one safe to paste into a shell.
public import Dispatch
import FoundationEssentials
import Synchronization

extension Request {
    /// The last request sent (or, before the first attempt, the request as created) in
    /// Alamofire's `cURLDescription()` format, so that logs and tests written against it keep
    /// working: `$ curl -v`, `-X METHOD`, `-u user:password` when `authenticate` set a
    /// credential, `-b "name=value; ..."` with the cookies sent (the session's cookie storage
    /// adds them when sending, as Alamofire's does), one `-H "Name: value"` per other field
    /// (quotes escaped), `-d
    /// "body"` for a body read as UTF-8, and the URL in quotes, joined with ` \`, a newline and a
    /// tab. Like Alamofire's, it is for reading: a value with `$` or a backquote is not safe to
    /// paste into a shell; `cURLCommand()` is.
    ///
    /// A request that could not be built gives `$ curl command could not be created`.
    public func cURLDescription() -> String {
        guard let request else { return "$ curl command could not be created" }
        // As sent: with the session's fields (Alamofire adds its configuration's) and cookies.
        var described = request
        described.headers = session.headersAsSent(request)
        let cookies = described.headers.value(for: "Cookie")
        return Self.alamofireCURLDescription(
            of: described, credential: mutableState.withLock { $0.records.credential }, cookies: cookies)
    }

    /// The last request sent (or, before the first attempt, the request as created) as a curl
    /// command that sends the same request when pasted into a POSIX shell, byte for byte. Every
    /// argument is single-quoted, and lines are joined with ` \` continuations:
    /// - `-X METHOD` (`--head` for HEAD, so that curl does not wait for a body), `--http1.1`, or
    ///   `--http2` (`--http2-prior-knowledge` for cleartext) when the last exchange used
    ///   HTTP/2 or, before any, the session would;
    /// - `-H 'Name: value'` for every field in order (`-H 'Name;'` for an empty value), with
    ///   the `Cookie` field the session's cookie storage would add now (as Alamofire adds the
    ///   storage's cookies; reading them marks them used), and
    ///   `-H 'Name:'` to remove what curl would add on its own and Wick did not send
    ///   (`Accept`, `User-Agent`, and with a body `Content-Type` and `Expect`);
    /// - `--compressed` when `Accept-Encoding` is Wick's default, so curl decodes the body too;
    /// - a text body with `--data-raw '...'`; a body that is not UTF-8 or holds a NUL byte is
    ///   piped in from `printf` with octal escapes (`printf '\001...' | curl ... --data-binary @-`);
    /// - `--unix-socket 'path'` for a request over a Unix socket (a Unix-socket URL becomes
    ///   `http://localhost/target`, or https);
    /// - `--anyauth -u 'user:password'` when `authenticate` set a credential (curl, like Wick,
    ///   answers the challenge; the `Authorization` field of a challenge answer is left out).
    ///
    /// A request that could not be built gives `curl command could not be created: <error>`.
    public func cURLCommand() -> String {
        guard let request else {
            return "curl command could not be created: \(error.map { "\($0)" } ?? "no request")"
        }
        // The session's fields and the Cookie field its cookie storage adds when sending.
        var described = request
        described.headers = session.headersAsSent(request)
        let (credential, lastVersion) = mutableState.withLock {
            ($0.records.credential, $0.records.lastAttempt?.responseVersion)
        }
        return Self.cURLCommand(
            for: described, credential: credential,
            versionOption: Self.curlVersionOption(
                for: described.url, used: lastVersion, configuration: session.configuration))
    }

    /// Calls `handler` on `queue` once with `cURLDescription()` as soon as the request that will
    /// be sent exists, as Alamofire does once its `URLRequest` is created: at once if a request
    /// has been sent, or if no adapter can change the request as created (neither the request
    /// nor the session has an interceptor), even before the request starts; otherwise when the
    /// first request is about to be sent, after adaptation (Wick adapts when the request starts,
    /// Alamofire as soon as it is created). A request that could not be built (an invalid URL)
    /// calls it at once with `$ curl command could not be created`, as Alamofire's does when its
    /// `URLRequest` cannot be made.
    @discardableResult
    public func cURLDescription(on queue: DispatchQueue, calling handler: @escaping @Sendable (String) -> Void) -> Self
    {
        let called = Atomic(false)
        let callOnce: @Sendable () -> Void = { [self] in
            guard !called.exchange(true, ordering: .relaxed) else { return }
            let description = cURLDescription()
            queue.async { handler(description) }
        }
        onURLRequestCreation(on: queue) { _ in callOnce() }
        switch initialRequest {
        case .failure: callOnce()
        case .success where !hasAttemptAdapter: callOnce()
        case .success: if !requests.isEmpty { callOnce() }
        }
        return self
    }

    /// `cURLDescription(on: session.responseQueue, calling: handler)`.
    @discardableResult
    public func cURLDescription(calling handler: @escaping @Sendable (String) -> Void) -> Self {
        cURLDescription(on: session.responseQueue, calling: handler)
    }

    /// Fields curl adds by itself unless told not to, with whether they matter only with a body.
    private static let curlDefaultFields: [(name: String, withBodyOnly: Bool)] = [
        ("Accept", false), ("User-Agent", false), ("Content-Type", true), ("Expect", true),
    ]

    /// The command for `request` (see `cURLDescription()`).
    /// curl's option for the HTTP version: the one the last exchange used (`--http2` over TLS,
    /// `--http2-prior-knowledge` in cleartext) by its response, or before any response what `configuration`
    /// would use for `url`; `--http1.1` otherwise.
    static func curlVersionOption(for url: URL, used: HTTPVersion?, configuration: Session.Configuration) -> String {
        let isCleartext = url.scheme?.lowercased() == "http"
        let speaksHTTP2: Bool =
            if let used { used == .http2 } else if isCleartext {
                configuration.http2PriorKnowledge || configuration.httpVersion == .http2Only
            } else { configuration.httpVersion != .http1Only }
        guard speaksHTTP2 else { return "--http1.1" }
        return isCleartext ? "--http2-prior-knowledge" : "--http2"
    }

    static func cURLCommand(for request: HTTPRequest, credential: HTTPCredential?, versionOption: String = "--http1.1")
        -> String
    {
        var pipe: String?
        var components = [
            "curl -v", request.method == .head ? "--head" : "-X \(request.method.rawValue)", versionOption,
        ]
        var url = request.url.absoluteString
        if let socket = request.unixSocketPath {
            components.append("--unix-socket \(shellQuoted(socket))")
        } else if let destination = try? TransportDestination(url: request.url, unixSocketPath: nil),
            let socket = destination.unixSocketPath
        {
            // A Unix-socket URL: curl takes the socket apart and an ordinary URL.
            components.append("--unix-socket \(shellQuoted(socket.path))")
            url = "\(destination.scheme.rawValue)://\(destination.host)\(destination.target)"
        }
        if let credential {
            components.append("--anyauth -u \(shellQuoted("\(credential.user):\(credential.password)"))")
        }
        for field in request.headers where credential == nil || !field.name.equalsIgnoringASCIICase("Authorization") {
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            components.append("-H \(shellQuoted(line))")
        }
        let hasBody = request.body != nil
        for (name, withBodyOnly) in curlDefaultFields where !request.headers.contains(name: name) {
            if !withBodyOnly || hasBody { components.append("-H \(shellQuoted("\(name):"))") }
        }
        if request.headers.value(for: "Accept-Encoding") == HTTPHeader.defaultAcceptEncoding.value {
            components.append("--compressed")
        }
        if let body = request.body {
            if !body.contains(0), let text = String(validating: body, as: UTF8.self) {
                components.append("--data-raw \(shellQuoted(text))")
            } else {
                pipe = "printf '\(body.map(octalEscape).joined())' |"
                components.append("--data-binary @-")
            }
        }
        components.append(shellQuoted(url))
        let command = components.joined(separator: " \\\n\t")
        return pipe.map { "\($0) \(command)" } ?? command
    }

    /// `request` in Alamofire's format (see `cURLDescription()`).
    static func alamofireCURLDescription(of request: HTTPRequest, credential: HTTPCredential?, cookies: String?)
        -> String
    {
        var components = ["$ curl -v", "-X \(request.method.rawValue)"]
        if let credential { components.append("-u \(credential.user):\(credential.password)") }
        if let cookies { components.append("-b \"\(cookies)\"") }
        for field in request.headers where !field.name.equalsIgnoringASCIICase("Cookie") {
            components.append("-H \"\(field.name): \(field.value.replacing("\"", with: "\\\""))\"")
        }
        if let body = request.body {
            let text = String(decoding: body, as: UTF8.self)
            components.append("-d \"\(text.replacing("\\\"", with: "\\\\\"").replacing("\"", with: "\\\""))\"")
        }
        components.append("\"\(request.url.absoluteString)\"")
        return components.joined(separator: " \\\n\t")
    }

    /// `text` in single quotes for a POSIX shell; a quote inside becomes `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// A byte as printf's three-digit octal escape, `\ooo`.
    private static func octalEscape(_ byte: UInt8) -> String {
        "\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7)
    }
}
