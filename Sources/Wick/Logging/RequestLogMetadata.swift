// The structured metadata of a request's log lines, keyed by OpenTelemetry's HTTP client names.
import FoundationEssentials
import Logging

/// Builds the metadata of the log lines a request writes. Keys follow the OpenTelemetry HTTP
/// client semantic conventions where a name exists (`http.request.method`, `server.address`,
/// `http.response.status_code`, `http.request.resend_count`, `error.type`) and use `wick.` for the
/// rest. No query string, header or body is ever logged: they carry credentials.
///
/// Built only inside swift-log's autoclosures, so a logger whose level is off never runs it.
enum RequestLogMetadata {
    /// The request's identity: `wick.request.id`, the method, the server and the path.
    static func request(id: UUID, _ request: HTTPRequest) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "wick.request.id": .string(id.uuidString),
            "http.request.method": .string(request.method.rawValue),
            "url.path": .string(request.url.path),
        ]
        if let host = request.url.host { metadata["server.address"] = .string(host) }
        if let port = request.url.port { metadata["server.port"] = .stringConvertible(port) }
        if let socket = request.unixSocketPath { metadata["wick.unix_socket"] = .string(socket) }
        return metadata
    }

    /// One exchange's facts: status, connection reuse and replay, bytes, and the phase timings
    /// it has (`wick.timing.*`, in milliseconds).
    static func exchange(id: UUID, _ metrics: TransactionMetrics) -> Logger.Metadata {
        var metadata = request(id: id, metrics.request)
        metadata["http.response.status_code"] = .stringConvertible(metrics.statusCode)
        metadata["wick.connection.reused"] = .stringConvertible(metrics.isReused)
        if metrics.wasReplayed { metadata["wick.connection.replayed"] = .stringConvertible(true) }
        if let address = metrics.remoteAddress { metadata["network.peer.address"] = .string(address) }
        metadata["wick.bytes.sent"] = .stringConvertible(metrics.requestBytesSent)
        metadata["wick.bytes.received"] = .stringConvertible(metrics.responseBytesReceived)
        let timings: [(String, Duration?)] = [
            ("pool_wait", metrics.poolWait), ("resolve", metrics.resolve), ("connect", metrics.connect),
            ("tls", metrics.tlsHandshake), ("request_sent", metrics.requestSent),
            ("first_byte", metrics.firstByte), ("total", metrics.total),
        ]
        for case (let name, let duration?) in timings {
            metadata["wick.timing.\(name)"] = .string(milliseconds(duration))
        }
        return metadata
    }

    /// The request's end: its last exchange's facts (or the request alone when none was made),
    /// the exchange, retry and redirect counts, and the error's type and message on failure.
    static func finished(
        id: UUID, request: HTTPRequest?, metrics: RequestMetrics?, error: WickError?, retries: Int, redirects: Int
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata =
            if let last = metrics?.last { exchange(id: id, last) } else if let request { self.request(id: id, request) } else {
                ["wick.request.id": .string(id.uuidString)]
            }
        if let metrics { metadata["wick.exchanges"] = .stringConvertible(metrics.transactions.count) }
        metadata["http.request.resend_count"] = .stringConvertible(retries)
        metadata["wick.redirects"] = .stringConvertible(redirects)
        if let error {
            metadata["error.type"] = .string(error.typeName)
            metadata["error.message"] = .string(error.description)
        }
        return metadata
    }

    /// `duration` in milliseconds with three decimals (`12.345`).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
