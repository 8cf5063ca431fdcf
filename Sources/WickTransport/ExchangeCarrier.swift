// What a running exchange holds: the HTTP/1.1 connection or the HTTP/2 stream that carries it.
import WickTLS

/// The connection-side handle of a request in progress: an `HTTP1ConnectionDriver` (the whole
/// connection is the request's) or an `HTTP2StreamHandle` (one stream of a shared connection).
/// `TransportExchange` uses it to cancel the request and to pause and resume its response body,
/// without knowing which protocol runs underneath. Used on the connection's loop only.
protocol ExchangeCarrier: AnyObject {
    /// The connection's addresses and TLS parameters.
    var connectionDetails: StreamConnectionDetails { get }
    /// Cancels the request: HTTP/1.1 closes the connection, HTTP/2 resets only this stream.
    func cancelRequest()
    /// The consumer cannot take more body bytes for now.
    func consumerBecameFull()
    /// The consumer can take body bytes again.
    func consumerWantsMore()
    /// Whether the connection carries other requests now (HTTP/2 streams besides this one).
    var carriesOtherRequests: Bool { get }
    /// The socket whose readiness moves the request now, for a caller waiting for it inline;
    /// nil once the connection closed.
    var readinessDescriptor: Int32? { get }
    /// Whether a caller may wait inline for the response now (the connection's
    /// `InlineWaitHistory`); counts one that may not.
    func inlineWaitMayBegin() -> Bool
    /// A caller's inline wait ended: it ran out before the response, or did not.
    func inlineWaitEnded(ranOut: Bool)
}

extension HTTP1ConnectionDriver: ExchangeCarrier {
    /// Never: an HTTP/1.1 connection carries one request at a time.
    var carriesOtherRequests: Bool { false }
    /// The channel's socket.
    var readinessDescriptor: Int32? { channel.readinessDescriptor }

    func inlineWaitMayBegin() -> Bool { inlineWaits.callerMayWait() }

    func inlineWaitEnded(ranOut: Bool) { inlineWaits.record(ranOut: ranOut) }
}

/// The connection the pool leased a request: an HTTP/1.1 connection, whole, or an HTTP/2
/// connection, on which the request opens a stream of its own.
enum LeasedConnection {
    case http1(HTTP1ConnectionDriver)
    case http2(HTTP2ConnectionDriver)
}
