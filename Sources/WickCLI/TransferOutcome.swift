// What one transfer produced: its exchanges, final response, body size, timings, and failure.
import FoundationEssentials
import Wick

/// The facts a transfer leaves for its output and for `-w`.
struct TransferOutcome {
    /// The URL asked for (after `http://` and `-G` were applied, once they were).
    var url: String
    /// Every exchange, in order.
    var exchanges: [ExchangeRecorder.Exchange] = []
    /// The final response head.
    var response: HTTPResponse?
    /// The final response body's size, as delivered (decoded with `--compressed`).
    var bodyBytes = 0
    /// The session's metrics of the request.
    var metrics: RequestMetrics?
    /// The file the output went to (`-o`, `-O`).
    var outputPath: String?
    /// The wall-clock time of the whole transfer.
    var elapsed = Duration.zero
    /// Why the transfer failed, if it did.
    var failure: CommandFailure?
    /// The refusal, when it failed because a server was not trusted.
    var trustRefusal: ServerTrustError?
    /// Whether it failed before any output was written, in a way the session's retrier never
    /// saw (a failed connect the command stopped, a `-f` status): the command may send it again.
    var failedBeforeOutput = false
    /// The retries the session's retrier made.
    var retries = 0

    /// The outcome of a transfer of `url` so far: nothing, or `failure`.
    init(url: String, failure: CommandFailure? = nil) {
        self.url = url
        self.failure = failure
    }

    /// curl's `-w` variables for this transfer, by name.
    var writeOutVariables: [String: WriteOutValue] {
        let last = metrics?.last
        let namelookup = last?.resolve?.seconds ?? 0
        let connect = namelookup + (last?.connect?.seconds ?? 0)
        let appconnect = last?.tlsHandshake.map { connect + $0.seconds } ?? 0
        let total = elapsed.seconds
        let (remoteIP, remotePort) = Self.split(last?.remoteAddress)
        let (localIP, localPort) = Self.split(last?.localAddress)
        let finalRequest = exchanges.last?.request
        let redirects = exchanges.dropLast().filter { (300..<400).contains($0.response?.statusCode ?? 0) }.count
        let headerBytes = exchanges.compactMap(\.response).reduce(0) { sum, response in
            sum + HeadText.lines(of: response).reduce(0) { $0 + $1.utf8.count + 2 }
        }
        return [
            "content_type": .text(response?.headers["Content-Type"]),
            "errormsg": .text(failure?.message),
            "exitcode": .integer(Int(failure?.code.rawValue ?? 0)),
            "filename_effective": .text(outputPath),
            "http_code": .statusCode(response?.statusCode ?? 0),
            // curl's spelling: "1.1", and "2" (not "2.0") for HTTP/2.
            "http_version": .text(response.map { String($0.version.description.dropFirst("HTTP/".count)) } ?? "0"),
            "local_ip": .text(localIP),
            "local_port": .integer(localPort),
            "method": .text(finalRequest?.method.rawValue),
            "num_connects": .integer(metrics?.transactions.filter { !$0.isReused }.count ?? 0),
            "num_headers": .integer(response?.headers.count ?? 0),
            "num_redirects": .integer(redirects),
            "remote_ip": .text(remoteIP),
            "remote_port": .integer(remotePort),
            "response_code": .statusCode(response?.statusCode ?? 0),
            "scheme": .text(finalRequest?.url.scheme?.uppercased()),
            "size_download": .integer(downloadedBytes),
            "size_header": .integer(headerBytes),
            "size_request": .integer(metrics?.transactions.reduce(0) { $0 + $1.requestBytesSent } ?? 0),
            "size_upload": .integer(finalRequest?.body?.count ?? 0),
            "speed_download": .integer(total > 0 ? Int(Double(downloadedBytes) / total) : 0),
            "ssl_verify_result": .integer(sslVerifyResult),
            "time_appconnect": .seconds(appconnect),
            "time_connect": .seconds(connect),
            "time_namelookup": .seconds(namelookup),
            "time_pretransfer": .seconds(max(connect, appconnect)),
            "time_starttransfer": .seconds(last?.firstByte?.seconds ?? 0),
            "time_total": .seconds(total),
            "url": .text(url),
            "url_effective": .text(finalRequest?.url.absoluteString ?? url),
        ]
    }

    /// `%{ssl_verify_result}` as curl (with OpenSSL) gives it: the OpenSSL verification result of
    /// the last TLS connection (`ConnectionInfo.tlsVerifyResult`; 0 when none was made), or of
    /// the refused one. curl sets it to 1 (`!X509_V_OK`) before each TLS handshake and records
    /// OpenSSL's result only on a chain verification failure or after its own host name check
    /// passed: so a handshake failure (35), and a refusal for the host alone (the chain verified,
    /// `.untrusted` issues), leave 1.
    var sslVerifyResult: Int {
        if let trustRefusal {
            let result = trustRefusal.openSSLVerifyResult ?? 1
            if result == 0, case .untrusted = trustRefusal.reason { return 1 }
            return result
        }
        if failure?.code == .sslConnectError { return 1 }
        return metrics?.transactions.last { $0.connection?.tlsVerifyResult != nil }?.connection?.tlsVerifyResult ?? 0
    }

    /// The refusal in `error`, when a server was not trusted (after retries, the last cause's).
    static func trustRefusal(in error: WickError) -> ServerTrustError? {
        switch error {
        case .serverTrustEvaluationFailed(let refusal): refusal
        case .requestRetryFailed(_, let original): trustRefusal(in: original)
        default: nil
        }
    }

    /// The body's size on the wire, as curl counts `size_download`: a body that arrived
    /// decoded (`--compressed`) counts its Content-Length, the bytes before decoding.
    var downloadedBytes: Int {
        guard bodyBytes > 0, let response, response.headers["Content-Encoding"] != nil,
            let length = response.headers["Content-Length"].flatMap({ Int($0) })
        else { return bodyBytes }
        return length
    }

    /// `127.0.0.1:8080` as (`127.0.0.1`, 8080), `[::1]:443` as (`::1`, 443); a Unix socket's
    /// path or nothing as ("", 0).
    static func split(_ address: String?) -> (String, Int) {
        guard let address, !address.hasPrefix("/"), let colon = address.lastIndex(of: ":") else { return ("", 0) }
        let host = address[..<colon].filter { $0 != "[" && $0 != "]" }
        return (String(host), Int(address[address.index(after: colon)...]) ?? 0)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
