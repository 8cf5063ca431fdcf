// What the transport sends: a method, an origin, a target, headers and an optional body.
import WickCore
import WickHTTP1
import WickHTTP2

/// A request for `ConnectionPoolRunner.execute`: everything to reach the origin and write the
/// request. The body, when given, is sent with `Content-Length`.
///
/// With `unixSocketPath` the request goes to that Unix domain socket instead of `host:port`,
/// which then only name the server: the `Host` field, and for https the SNI name and the name
/// trust is evaluated for. `init(_:unixURL:...)` (in `TransportDestination+UnixSocket.swift`)
/// builds such a request from an `http+unix://`, `https+unix://` or `unix://` URL.
///
/// With `proxy` (ignored with `unixSocketPath`) the connection goes to that proxy. Through an
/// HTTP or HTTPS proxy, an `http` request is written in absolute form (`GET http://host:port/path
/// HTTP/1.1`) with the proxy's `Proxy-Authorization`; an `https` request goes in origin form
/// inside the CONNECT tunnel, and the credentials only in the CONNECT, never to the origin.
/// Through a SOCKS proxy, both go in origin form inside its tunnel, the credentials only in its
/// handshake.
struct TransportRequest: Sendable {
    var method: HTTPMethod
    let scheme: TransportOrigin.Scheme
    let host: String
    let port: UInt16
    /// The `Host` field value (`hostFieldValue(host:port:scheme:)`), made with the request or
    /// kept from the destination it was read from: a request's strings are not rebuilt for
    /// every request to the same URL.
    let hostFieldValue: String
    /// The origin-form target: absolute path and query, e.g. `/search?q=wick`. A change drops
    /// the mark that it was vetted (`hasVettedOriginTargetAndHost`).
    var target: String {
        didSet { hasVettedOriginTargetAndHost = false }
    }
    var headers: HTTPHeaders
    var body: [UInt8]?
    /// A body pulled piece by piece (uploads) instead of `body`: `Content-Length` when its
    /// length is known, else chunked.
    var bodySource: (any TransportBodySource)?
    /// Send `Expect: 100-continue` and hold the body until 100 Continue or the driver's timer.
    var expectContinue: Bool
    /// The TLS rules for `https`, required there (a runner builds none; `TransportClient.prepare`
    /// gives its cached rules). Ignored for `http`.
    var tls: TransportTLS?
    /// The Unix socket, proxy and source binding, in the box the request's origin holds too;
    /// nil for a direct TCP request, the common case, which then carries and copies none of
    /// them (each was copied and destroyed through `Optional`'s generic value witnesses).
    /// Setting the proxy or its TLS context makes a new route (`TransportOrigin.Route.of`, which
    /// drops a proxy and a source binding beside a Unix socket, and a proxy TLS context without
    /// an `https` proxy).
    private(set) var route: TransportOrigin.Route?
    /// The Unix domain socket to connect to instead of `host:port`; nil for TCP.
    var unixSocketPath: UnixSocketPath? { route?.unixSocketPath }
    /// The proxy (HTTP, HTTPS or SOCKS) to go through; nil goes direct (and always with a
    /// Unix socket).
    var proxy: ProxyConfiguration? {
        get { route?.proxy }
        set { route = .of(unixSocketPath: unixSocketPath, proxy: newValue, proxyTLS: proxyTLS, source: source) }
    }
    /// The TLS context of an `https` proxy, required there (a runner builds none;
    /// `TransportClient.prepare` gives its cached one for the proxy's `tlsTrust`).
    var proxyTLS: ProxyTLSContext? {
        get { route?.proxyTLS }
        set { route = .of(unixSocketPath: unixSocketPath, proxy: proxy, proxyTLS: newValue, source: source) }
    }
    /// The local address and ports TCP connections are made from; nil lets the kernel choose
    /// (and always with a Unix socket).
    var source: SourceBinding? { route?.source }
    /// Whether `target` and `hostFieldValue` are a destination's that passed the HTTP/1
    /// encoder's checks when it was read (`TransportDestination.isVettedForHTTP1`).
    var hasVettedOriginTargetAndHost = false
    /// Decode the response body's `gzip`, `deflate`, `br` and `zstd` codings within these limits
    /// (the consumer then gets decoded bytes); nil passes the body through as sent. Other codings
    /// always pass through.
    var decoding: ContentDecoderLimits?

    /// The pool key this request's connections are made under.
    @inline(__always)
    var origin: TransportOrigin {
        TransportOrigin(scheme: scheme, host: host, port: port, tls: tls, route: route)
    }

    /// What the connection state machine needs.
    @inline(__always)
    var connectionRequest: HTTP1ConnectionRequest {
        let framing: HTTPRequestFraming =
            if let bodySource { bodySource.length.map { .contentLength($0) } ?? .chunked } else {
                body.map { .contentLength($0.count) } ?? .none
            }
        // The head is built in the request and changed there: built apart and passed in, it was
        // copied and destroyed through its value witnesses.
        var request = HTTP1ConnectionRequest(
            head: HTTPRequestHead(
                method: method, target: .origin(target), host: hostFieldValue, headers: headers, framing: framing),
            expectContinue: expectContinue, decoding: decoding)
        if route?.isProxied == true, let proxy, proxy.scheme.speaksHTTP, scheme == .http {
            request.head.target = .absolute("http://\(hostFieldValue)\(target)")
            if let credentials = proxy.credentials {
                request.head.headers.add(name: "Proxy-Authorization", value: credentials.authorizationValue)
            }
        }
        request.hasVettedOriginTargetAndHost = hasVettedOriginTargetAndHost
        return request
    }
}

extension TransportRequest {
    /// A request; `port` defaults to the scheme's. With `unixSocketPath`, the connection goes
    /// to that socket and `host` and `port` make only the `Host` field (and the TLS name).
    /// `hostFieldValue`, when given, must be `hostFieldValue(host:port:scheme:)`'s for the
    /// request's host, port and scheme (a destination's, made once).
    init(
        _ method: HTTPMethod, _ scheme: TransportOrigin.Scheme, host: String, port: UInt16? = nil, target: String = "/",
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil, bodySource: (any TransportBodySource)? = nil,
        expectContinue: Bool = false, tls: TransportTLS? = nil, unixSocketPath: UnixSocketPath? = nil,
        proxy: ProxyConfiguration? = nil, proxyTLS: ProxyTLSContext? = nil, source: SourceBinding? = nil,
        decoding: ContentDecoderLimits? = nil, hostFieldValue: String? = nil
    ) {
        let port = port ?? scheme.defaultPort
        // Through the memberwise initializer: assigned field by field here, the request was
        // built aside and copied out whole (through its value witnesses) once a request.
        self.init(
            method: method, scheme: scheme, host: host, port: port,
            hostFieldValue: hostFieldValue ?? Self.hostFieldValue(host: host, port: port, scheme: scheme),
            target: target, headers: headers, body: body, bodySource: bodySource, expectContinue: expectContinue,
            tls: tls,
            route: TransportOrigin.Route.of(
                unixSocketPath: unixSocketPath, proxy: proxy, proxyTLS: proxyTLS, source: source),
            decoding: decoding)
    }
}

extension TransportRequest {
    /// The request as an HTTP/2 stream opens it: `:scheme`, `:authority` (the `Host` value) and
    /// `:path` (origin form, also through a CONNECT tunnel), the headers, and `content-length`
    /// when the body's length is known. `Expect: 100-continue` is not used on HTTP/2: the
    /// stream's flow control already holds the body back.
    @inline(__always)
    var http2Head: HTTP2RequestHead {
        var fields = headers
        let length = bodySource.map(\.length) ?? body.map(\.count)
        if let length, !fields.contains(name: "Content-Length") {
            fields.add(name: "content-length", value: String(length))
        }
        return HTTP2RequestHead(
            method: method, scheme: scheme == .https ? "https" : "http", authority: hostFieldValue, path: target,
            headers: fields)
    }
}

extension TransportRequest {
    /// The `Host` field value for `host`, `port` and `scheme`: the host (bracketed if it is an
    /// IPv6 literal), with the port unless it is the scheme's default (RFC 9110 §7.2).
    static func hostFieldValue(host: String, port: UInt16, scheme: TransportOrigin.Scheme) -> String {
        // SAFETY: `name` is the host's UTF-8 bytes, valid inside each closure and only read.
        let bracketed = host.utf8.span.withUnsafeBufferPointer { name in name.contains(UInt8(ascii: ":")) }
        if !bracketed && port == scheme.defaultPort { return host }
        // Written byte by byte into a stack buffer, then made a string once: interpolation or concatenation cost several times as much (and a
        // `String(unsafeUninitializedCapacity:)` builder with a closure per byte, 700
        // instructions).
        let showsPort = port != scheme.defaultPort
        let digits = port >= 10_000 ? 5 : port >= 1_000 ? 4 : port >= 100 ? 3 : port >= 10 ? 2 : 1
        // SAFETY: `buffer` has room for exactly `length` bytes, which is what the writes below
        // add up to (brackets, name, ":" and the port's `digits` digits); the string is made from
        // the `count` bytes written, before the buffer goes away.
        return host.utf8.span.withUnsafeBufferPointer { name in
            let length = name.count + (bracketed ? 2 : 0) + (showsPort ? 1 + digits : 0)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
                var count = 0
                if bracketed {
                    buffer[count] = UInt8(ascii: "[")
                    count += 1
                }
                for byte in name {
                    buffer[count] = byte
                    count += 1
                }
                if bracketed {
                    buffer[count] = UInt8(ascii: "]")
                    count += 1
                }
                if showsPort {
                    buffer[count] = UInt8(ascii: ":")
                    count += 1
                    var rest = port
                    for position in stride(from: count + digits - 1, through: count, by: -1) {
                        buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    }
                    count += digits
                }
                // SAFETY: the `count` bytes written above, read before the buffer goes away.
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            }
        }
    }
}
