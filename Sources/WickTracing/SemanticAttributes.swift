// OpenTelemetry's HTTP client span attributes for Wick's requests, responses and errors.
import FoundationEssentials
import Tracing
import Wick

/// Builds span attributes named by the OpenTelemetry HTTP client semantic conventions. The
/// URL is recorded without its query and user information, which carry credentials
/// (`url.full` = `https://example.com:8443/path`).
enum SemanticAttributes {
    /// `http.request.method`, `url.full`, `url.scheme`, `server.address`, `server.port`.
    static func request(_ request: HTTPRequest) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.request.method"] = request.method.rawValue
        let url = request.url
        let scheme = url.scheme ?? "http"
        let host = url.host ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        attributes["url.full"] = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)\(url.path)"
        attributes["url.scheme"] = scheme
        attributes["server.address"] = host
        attributes["server.port"] = port
        return attributes
    }

    /// One exchange's facts, for its span event: status, connection reuse and peer, bytes and
    /// phase timings (`wick.timing.*`, in nanoseconds).
    static func exchange(_ metrics: TransactionMetrics) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.response.status_code"] = metrics.statusCode
        attributes["network.peer.address"] = metrics.remoteAddress
        attributes["wick.connection.reused"] = metrics.isReused
        attributes["wick.connection.replayed"] = metrics.wasReplayed
        attributes["http.request.body.size"] = metrics.requestBytesSent
        attributes["http.response.body.size"] = metrics.responseBytesReceived
        let timings: [(String, Duration?)] = [
            ("pool_wait", metrics.poolWait), ("resolve", metrics.resolve), ("connect", metrics.connect),
            ("tls", metrics.tlsHandshake), ("first_byte", metrics.firstByte), ("total", metrics.total),
        ]
        for case (let name, let duration?) in timings {
            let (seconds, attoseconds) = duration.components
            attributes["wick.timing.\(name)_ns"] = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
        return attributes
    }
}
