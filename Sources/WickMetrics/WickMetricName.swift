// The names of the metrics WickMetrics records: OpenTelemetry's HTTP client names where they exist.

/// The labels of the metrics `MetricsMonitor` and `PoolGaugeReporter` record. The first group
/// are the OpenTelemetry HTTP client semantic conventions' names; the `wick.` ones measure what
/// those conventions have no name for. README's "Metrics" table lists each with its dimensions.
public enum WickMetricName {
    /// Timer: the duration of each exchange, from handing it to the pool to the response's
    /// last byte (a failed request: from its start to the failure).
    public static let requestDuration = "http.client.request.duration"
    /// Timer: how long each exchange waited for a connection (a new one's connect included).
    public static let timeInQueue = "http.client.request.time_in_queue"
    /// Recorder: the request body bytes each exchange wrote (head included, before TLS).
    public static let requestBodySize = "http.client.request.body.size"
    /// Recorder: the response bytes each exchange read (head and framing, before decoding).
    public static let responseBodySize = "http.client.response.body.size"
    /// Meter: requests started and not yet finished.
    public static let activeRequests = "http.client.active_requests"
    /// Gauge per origin and `http.connection.state` (`idle`, `active`): the pool's connections.
    public static let openConnections = "http.client.open_connections"
    /// Timer: name resolution of a new connection.
    public static let resolveDuration = "wick.client.connection.resolve.duration"
    /// Timer: the TCP (or Unix-socket, or proxy CONNECT) connect of a new connection.
    public static let connectDuration = "wick.client.connection.connect.duration"
    /// Timer: the TLS handshake and trust evaluation of a new connection.
    public static let tlsHandshakeDuration = "wick.client.tls.handshake.duration"
    /// Counter: TLS handshakes of new connections, by `wick.tls.resumed` (`true`: a cached
    /// session resumed; `false`: a full handshake); the resumption ratio is true ÷ all.
    public static let tlsHandshakes = "wick.client.tls.handshakes"
    /// Counter: new connections the requests got (`wick.connection.reused` = `false`) and reused
    /// ones (`true`).
    public static let connectionLeases = "wick.client.connection.leases"
    /// Gauge per origin: connections being opened.
    public static let connectingConnections = "wick.client.pool.connecting"
    /// Gauge per origin: requests waiting for a connection.
    public static let waitingRequests = "wick.client.pool.waiting"
    /// Counter: request bytes written, over every exchange.
    public static let bytesSent = "wick.client.bytes.sent"
    /// Counter: response bytes read, over every exchange.
    public static let bytesReceived = "wick.client.bytes.received"
    /// Counter: retries the retriers asked for.
    public static let retries = "wick.client.retries"
    /// Counter: redirects followed.
    public static let redirects = "wick.client.redirects"
    /// Counter: exchanges the transport sent again on a fresh connection after a reused one
    /// failed before any response byte.
    public static let replays = "wick.client.replays"
}
