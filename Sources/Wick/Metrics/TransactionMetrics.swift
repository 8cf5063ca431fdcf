// One exchange's timings and connection facts, from the transport's metrics.
import WickCore

/// When each phase of one exchange happened, as durations since it was handed to the
/// connection pool, which connection carried it, and how many bytes it moved. When the
/// transport replayed the exchange on a fresh connection (`wasReplayed`), the phases, the
/// connection and the byte counts are the replay's.
public struct TransactionMetrics: Sendable, CustomStringConvertible {
    /// The request sent.
    public var request: HTTPRequest
    /// The status of the response.
    public var statusCode: Int
    /// Time spent waiting for a connection (including connecting a new one).
    public var poolWait: Duration? {
        get { storedPoolWait.value }
        set { storedPoolWait = CompactDuration(newValue) }
    }
    /// Name resolution of a new connection's host (the proxy's, through a proxy); nil on a
    /// reused connection, and for a numeric address or a Unix socket, which are not resolved.
    public var resolve: Duration? {
        get { storedResolve.value }
        set { storedResolve = CompactDuration(newValue) }
    }
    /// The connect of a new connection after resolution: TCP (Happy Eyeballs racing the
    /// addresses) or the Unix socket; through a proxy, the CONNECT exchange too. nil on a
    /// reused one.
    public var connect: Duration? {
        get { storedConnect.value }
        set { storedConnect = CompactDuration(newValue) }
    }
    /// TLS handshake and trust evaluation of a new https connection; nil otherwise.
    public var tlsHandshake: Duration? {
        get { storedTlsHandshake.value }
        set { storedTlsHandshake = CompactDuration(newValue) }
    }
    /// Until the whole request had been written.
    public var requestSent: Duration? {
        get { storedRequestSent.value }
        set { storedRequestSent = CompactDuration(newValue) }
    }
    /// Until the first response byte arrived.
    public var firstByte: Duration? {
        get { storedFirstByte.value }
        set { storedFirstByte = CompactDuration(newValue) }
    }
    /// Until the response ended.
    public var total: Duration? {
        get { storedTotal.value }
        set { storedTotal = CompactDuration(newValue) }
    }
    /// The response body's size as delivered (after decoding).
    public var responseBodyBytes: Int
    /// Request bytes written to the connection: head and body as sent (before TLS encryption).
    /// A byte counts once the transport queued it for the socket.
    public var requestBytesSent: Int
    /// Response bytes read off the connection for this exchange: head, body and framing as
    /// received, before content decoding (after TLS decryption).
    public var responseBytesReceived: Int
    /// Whether the connection had carried an earlier request (over HTTP/2, another stream).
    public var isReused: Bool
    /// The protocol the exchange ran over: `.http1_1`, or `.http2`; a response from the cache
    /// has the version of the exchange that stored or validated it.
    public var httpVersion: HTTPVersion
    /// Whether the request was sent again on a fresh connection after a reused one failed
    /// before any response byte (only when that is safe).
    public var wasReplayed: Bool
    /// The connection that carried the exchange: addresses and TLS parameters; nil for a
    /// response the session's cache gave without a request (`responseSource` `.cache` or
    /// `.staleWhileRevalidating`).
    public var connection: ConnectionInfo?
    /// Where the response came from: the network, the cache (fresh, or stale while a background
    /// request revalidates it), or the cache after a `304`
    /// (then `statusCode` and `responseBodyBytes` are the stored response's, and the timings,
    /// connection and byte counts the validation exchange's).
    public var responseSource: ResponseSource
    /// The faults the session's `FaultInjector` injected into this exchange (a latency, a
    /// synthesized status, ...) and into the dials of connections it waited for; empty
    /// without an injector. An exchange a fault failed has no metrics of its own: the event
    /// monitors hear of it (`EventMonitor.request(_:didInjectFault:)`).
    public var injectedFaults: [InjectedFault]
    /// What the session's `HedgingPolicy` did for the request: not needed, refused by its
    /// budget, or which attempt won (the phases and connection are the winner's); nil without
    /// a policy, or for a request it does not hedge.
    public var hedge: HedgeOutcome?

    // The phases, 8 bytes each (see `CompactDuration`): the metrics are moved with every
    // response through the request's run, and `Duration?` fields made them 112 bytes larger.
    private var storedPoolWait = CompactDuration.none
    private var storedResolve = CompactDuration.none
    private var storedConnect = CompactDuration.none
    private var storedTlsHandshake = CompactDuration.none
    private var storedRequestSent = CompactDuration.none
    private var storedFirstByte = CompactDuration.none
    private var storedTotal = CompactDuration.none

    /// This end's address (`127.0.0.1:54321`); nil over a Unix socket or from the cache.
    public var localAddress: String? { connection?.localAddress }
    /// The server's address (`127.0.0.1:443`, `[::1]:8443`), or the Unix socket's path; nil
    /// for a response from the cache.
    public var remoteAddress: String? { connection?.remoteAddress }
    /// The TLS version negotiated; nil for plain http or a response from the cache.
    public var tlsVersion: TLSVersion? { connection?.tlsVersion }
    /// The TLS cipher suite negotiated, by OpenSSL's name; nil for plain http or the cache.
    public var tlsCipherSuite: String? { connection?.tlsCipherSuite }

    /// `GET https://host/path → 200, new connection 127.0.0.1:51234 → 127.0.0.1:8443, TLSv1.3
    /// TLS_AES_256_GCM_SHA384, resolve 0.1 ms, connect 0.2 ms, TLS 1.9 ms, first byte 2.5 ms, total 2.6 ms,
    /// sent 97 B, received 1033 B` (on one line).
    public var description: String {
        var parts = ["\(request.method.rawValue) \(request.url.absoluteString) → \(statusCode)"]
        if responseSource != .network { parts.append("from the \(responseSource)") }
        if let connection { parts.append(connection.description) }
        if httpVersion == .http2 { parts.append("HTTP/2") }
        if wasReplayed { parts.append("replayed") }
        if let hedge, hedge != .notNeeded { parts.append("\(hedge)") }
        for fault in injectedFaults { parts.append("injected \(fault.fault)") }
        if let resolve { parts.append("resolve \(resolve)") }
        if let connect { parts.append("connect \(connect)") }
        if let tlsHandshake { parts.append("TLS \(tlsHandshake)") }
        if let firstByte { parts.append("first byte \(firstByte)") }
        if let total { parts.append("total \(total)") }
        parts.append("sent \(requestBytesSent) B, received \(responseBytesReceived) B")
        return parts.joined(separator: ", ")
    }
}

extension TransactionMetrics {
    /// The metrics of `response`, the answer to `request` from `source`. A response from the
    /// network always has a connection.
    init(request: HTTPRequest, response: borrowing TransportResponse, source: ResponseSource = .network) {
        // Each field is read from `response.metrics` where it is: a local copy of the whole
        // `TransportMetrics` cost a retain of each reference in it, per request. Made through
        // the memberwise initializer: assigned field by field, the metrics were built aside and
        // copied out whole (through their value witnesses) once a request.
        let start = response.metrics.started
        precondition(
            response.metrics.connection != nil || source == .cache || source == .staleWhileRevalidating,
            "TransactionMetrics: a network response without a connection")
        self.init(
            request: request, statusCode: response.status.rawValue, responseBodyBytes: response.body.count,
            requestBytesSent: response.metrics.requestBytesSent,
            responseBytesReceived: response.metrics.responseBytesReceived, isReused: response.metrics.isReused,
            httpVersion: response.metrics.httpVersion, wasReplayed: response.metrics.wasReplayed,
            connection: response.metrics.connection.map {
                ConnectionInfo(isReused: response.metrics.isReused, details: $0)
            },
            responseSource: source, injectedFaults: response.metrics.injectedFaults, hedge: response.metrics.hedge,
            // Taken as they are stored, without a round trip through `Duration`.
            storedPoolWait: response.metrics.storedPoolWait, storedResolve: response.metrics.storedResolve,
            storedConnect: response.metrics.storedConnect, storedTlsHandshake: response.metrics.storedTlsHandshake,
            storedRequestSent: CompactDuration(from: start, to: response.metrics.storedRequestSent),
            storedFirstByte: CompactDuration(from: start, to: response.metrics.storedFirstByte),
            storedTotal: CompactDuration(from: start, to: response.metrics.storedCompleted))
    }
}
