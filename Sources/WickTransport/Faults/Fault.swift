// One fault a test injects into a session's transport: what it breaks and where.
public import WickCore

/// A failure a `FaultInjector` makes happen on the real transport path, so that a request's
/// retries, redirects, deadlines, metrics and event monitors meet it exactly as they would meet
/// a failing server or network.
///
/// Two kinds act at different moments:
/// - **Connect faults** (`connectRefused`, `connectTimeout`) act when the pool dials a new
///   connection: the dial fails without a socket being opened. A request served by an idle
///   pooled connection dials nothing, so it never meets them (set
///   `maximumRequestsPerConnection` to 1 to make every request dial).
/// - **Exchange faults** (the others) act on one request and its response on a connection,
///   plain or TLS (they act on the plaintext, above TLS): the response is held back, cut, or
///   replaced, and the HTTP/1.1 driver sees what it would see from such a server.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// The response's bytes are held back for a delay drawn from `FaultDelay` (counted from
    /// the moment the request starts on its connection), then delivered: a slow server.
    case latency(FaultDelay)
    /// The dial fails as if nothing listened there (`ECONNREFUSED`), at once.
    case connectRefused
    /// The dial fails as a connect that never completed would, when the connect timeout
    /// (`Session.Configuration.connectTimeout`) or the request's deadline passes, whichever
    /// is first.
    case connectTimeout
    /// After this many response bytes (head included; 0: before the first) the connection is
    /// reset (`ECONNRESET`).
    case reset(afterResponseBytes: Int)
    /// The response head and this many body bytes arrive, then the stream ends (a TCP FIN on a
    /// plain connection, an end without `close_notify` on a TLS one). A body framed by
    /// `Content-Length` or chunked then fails as incomplete; a body delimited by the close
    /// ends there, as it would from such a server. Counted from the end of the first head
    /// (`100 Continue` counts as body).
    case truncatedBody(keepingBytes: Int)
    /// After this many response bytes (0: before the first) nothing more arrives, ever: the
    /// request ends at its deadline or idle timeout, whose error names the phase it was in.
    case stall(afterResponseBytes: Int)
    /// The request never reaches the server: the connection answers it at once with this
    /// status, these fields and this body (sent with `Content-Length`, keep-alive), and stays
    /// usable for the next request.
    case respond(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8])

    /// `503 Service Unavailable`, with `Retry-After: seconds` when given.
    public static func serviceUnavailable(retryAfter seconds: Int? = nil) -> Fault {
        .respond(status: HTTPStatus(rawValue: 503), headers: retryAfter(seconds), body: [])
    }

    /// `429 Too Many Requests`, with `Retry-After: seconds` when given.
    public static func tooManyRequests(retryAfter seconds: Int? = nil) -> Fault {
        .respond(status: HTTPStatus(rawValue: 429), headers: retryAfter(seconds), body: [])
    }

    private static func retryAfter(_ seconds: Int?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let seconds { headers.add(name: "Retry-After", value: String(seconds)) }
        return headers
    }

    /// Whether it acts when a connection is dialled (else on an exchange).
    public var isConnectFault: Bool {
        switch self {
        case .connectRefused, .connectTimeout: true
        case .latency, .reset, .truncatedBody, .stall, .respond: false
        }
    }

    /// `reset after 100 response bytes`, `respond 503`, ...
    public var description: String {
        switch self {
        case .latency(let delay): "latency \(delay)"
        case .connectRefused: "connect refused"
        case .connectTimeout: "connect timeout"
        case .reset(let count): "reset after \(count) response bytes"
        case .truncatedBody(let count): "body truncated after \(count) bytes"
        case .stall(let count): "stall after \(count) response bytes"
        case .respond(let status, _, _): "respond \(status.rawValue)"
        }
    }
}
