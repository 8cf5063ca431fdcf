// What the transport returns: the response and when each phase of the exchange happened.
package import FoundationEssentials
package import WickCore
package import WickTLS

/// A complete response, its body read in full.
package struct TransportResponse: Sendable {
    package var status: HTTPStatus
    /// The version the server answered with.
    package var version: HTTPVersion
    package var headers: HTTPHeaders
    /// The body as delivered (decoded when the request asked for decoding).
    package var body: Data
    /// The trailer fields of a chunked response, if it had some.
    package var trailers: HTTPHeaders?
    package var metrics: TransportMetrics

    /// A response with these parts: the transport's own, or one no exchange produced (a
    /// response cache's, whose metrics have no connection).
    package init(
        status: HTTPStatus, version: HTTPVersion, headers: HTTPHeaders, body: Data, trailers: HTTPHeaders?,
        metrics: TransportMetrics
    ) {
        self.status = status
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
        self.metrics = metrics
    }
}

/// When each phase of one request happened (monotonic clock), for the last attempt when the
/// request was replayed.
package struct TransportMetrics: Sendable {
    /// When `execute` took the request.
    package var started: Deadline
    /// Time from arrival in the pool to the lease of a connection (the last attempt's).
    package var poolWait: Duration? {
        get { storedPoolWait.value }
        set { storedPoolWait = CompactDuration(newValue) }
    }
    /// For a new connection whose host name was resolved: the resolution. nil otherwise.
    package var resolve: Duration? {
        get { storedResolve.value }
        set { storedResolve = CompactDuration(newValue) }
    }
    /// For a new connection: the connect after resolution (TCP, or the Unix socket; through a
    /// proxy, with the CONNECT exchange). nil on a reused connection.
    package var connect: Duration? {
        get { storedConnect.value }
        set { storedConnect = CompactDuration(newValue) }
    }
    /// For a new https connection: the TLS handshake and trust evaluation. nil otherwise.
    package var tlsHandshake: Duration? {
        get { storedTlsHandshake.value }
        set { storedTlsHandshake = CompactDuration(newValue) }
    }
    /// When the whole request had been handed to the socket.
    package var requestSent: Deadline? {
        get { storedRequestSent.value }
        set { storedRequestSent = CompactDeadline(newValue) }
    }
    /// When the first response byte was read.
    package var firstByte: Deadline? {
        get { storedFirstByte.value }
        set { storedFirstByte = CompactDeadline(newValue) }
    }
    /// When the final response head arrived.
    package var responseHead: Deadline? {
        get { storedResponseHead.value }
        set { storedResponseHead = CompactDeadline(newValue) }
    }
    /// When the response ended.
    package var completed: Deadline? {
        get { storedCompleted.value }
        set { storedCompleted = CompactDeadline(newValue) }
    }
    /// Whether the connection had carried an earlier request (on HTTP/2: another stream).
    package var isReused = false
    /// The protocol the exchange ran over (the last attempt's): `.http1_1` or `.http2`.
    package var httpVersion = HTTPVersion.http1_1
    /// Whether the request was sent again on a fresh connection (`ReplayPolicy`).
    package var wasReplayed = false
    /// The connection's addresses and TLS parameters (the last attempt's); nil until leased.
    package var connection: StreamConnectionDetails?
    /// Request bytes written to the connection (queued counts as written; plaintext under TLS).
    package var requestBytesSent = 0
    /// Response bytes read off the connection for this exchange: head and body as they came,
    /// before decoding (plaintext under TLS).
    package var responseBytesReceived = 0
    /// Body bytes handed to a `TransportBodySink` rather than collected.
    package var streamedBodyBytes = 0
    /// The faults a `FaultInjector` injected into this request's dials and attempts, up to the
    /// end of this response; empty without one.
    package var injectedFaults: [InjectedFault] = []
    /// What hedging did for the request; nil when it was not hedgeable (or no policy is set).
    package var hedge: HedgeOutcome?

    // The optional phases, 8 bytes each (see `CompactDuration`): the metrics travel with every
    // response through every layer, and `Duration?` fields made them 96 bytes larger.
    package internal(set) var storedPoolWait = CompactDuration.none
    package internal(set) var storedResolve = CompactDuration.none
    package internal(set) var storedConnect = CompactDuration.none
    package internal(set) var storedTlsHandshake = CompactDuration.none
    package private(set) var storedRequestSent = CompactDeadline.none
    package private(set) var storedFirstByte = CompactDeadline.none
    package private(set) var storedResponseHead = CompactDeadline.none
    package private(set) var storedCompleted = CompactDeadline.none

    /// Metrics that start at `started`, every phase still to come.
    package init(started: Deadline) {
        self.started = started
    }
}
