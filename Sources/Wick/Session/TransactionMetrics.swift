// One exchange's timings and connection facts, from the transport's metrics.
/// When each phase of one exchange happened, as durations since it was handed to the
/// connection pool, and whether its connection was reused. When the transport replayed the
/// exchange on a fresh connection (`wasReplayed`), the phases are the replay's.
public struct TransactionMetrics: Sendable, CustomStringConvertible {
    /// The request sent.
    public var request: HTTPRequest
    /// The status of the response.
    public var statusCode: Int
    /// Time spent waiting for a connection (including connecting a new one).
    public var poolWait: Duration?
    /// Name resolution and TCP connect of a new connection; nil on a reused one.
    public var connect: Duration?
    /// TLS handshake and trust evaluation of a new https connection; nil otherwise.
    public var tlsHandshake: Duration?
    /// Until the whole request had been written.
    public var requestSent: Duration?
    /// Until the first response byte arrived.
    public var firstByte: Duration?
    /// Until the response ended.
    public var total: Duration?
    /// The response body's size as delivered (after decoding).
    public var responseBodyBytes: Int
    /// Whether the connection had carried an earlier request.
    public var isReused: Bool
    /// Whether the request was sent again on a fresh connection after a reused one failed
    /// before any response byte (only when that is safe).
    public var wasReplayed: Bool

    init(request: HTTPRequest, response: TransportResponse) {
        let metrics = response.metrics
        let start = metrics.started
        self.request = request
        statusCode = response.status.rawValue
        poolWait = metrics.poolWait
        connect = metrics.connect
        tlsHandshake = metrics.tlsHandshake
        requestSent = metrics.requestSent.map { $0 - start }
        firstByte = metrics.firstByte.map { $0 - start }
        total = metrics.completed.map { $0 - start }
        responseBodyBytes = response.body.count
        isReused = metrics.isReused
        wasReplayed = metrics.wasReplayed
    }

    /// `GET http://host/path → 200, reused connection, first byte 0.4 ms, total 0.5 ms`.
    public var description: String {
        var parts = ["\(request.method.rawValue) \(request.url.absoluteString) → \(statusCode)"]
        parts.append(isReused ? "reused connection" : "new connection")
        if wasReplayed { parts.append("replayed") }
        if let connect { parts.append("connect \(connect)") }
        if let tlsHandshake { parts.append("TLS \(tlsHandshake)") }
        if let firstByte { parts.append("first byte \(firstByte)") }
        if let total { parts.append("total \(total)") }
        return parts.joined(separator: ", ")
    }
}
