// Prints what an exchange did: status, headers, body, per-phase timings, connection reuse.
import WickCore
import WickHTTP1

/// Human-readable output for `wick get` and the demo tour.
enum ExchangeReport {
    /// Prints one exchange; `showHeaders` lists every response field.
    static func print(
        _ result: ExchangeResult, target: Target, connection: LayerConnection, reused: Bool,
        showHeaders: Bool = true, bodyPreview: Int = 0
    ) {
        guard let head = result.head else { return }
        Swift.print("  \(head.version) \(head.status.rawValue) \(head.reasonPhrase)")
        for status in result.interimStatuses { Swift.print("  (interim \(status.rawValue) skipped)") }
        if showHeaders {
            for field in head.headers { Swift.print("    \(field.name): \(field.value)") }
        }
        let framing: String =
            switch head.framing {
            case .none: "no body"
            case .contentLength(let length): "Content-Length \(length)"
            case .chunked: "chunked"
            case .untilClose: "until close"
            }
        var body = "  body: \(result.decodedBody.count.grouped) bytes (\(framing)"
        if !result.decodedCodings.isEmpty {
            let codings = result.decodedCodings.map { "\($0)" }.joined(separator: ", ")
            body += ", \(result.wireBodyBytes.grouped) on the wire, decoded from \(codings)"
        }
        Swift.print(body + ")")
        if bodyPreview > 0, !result.decodedBody.isEmpty {
            let text = String(decoding: result.decodedBody.prefix(bodyPreview), as: UTF8.self)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(12) {
                Swift.print("    | \(line)")
            }
        }
        let start = result.started
        var phases: [String] = []
        if !reused { phases.append("connect \(connection.connectTime.milliseconds)") }
        if let firstByte = result.firstByte { phases.append("first byte \((firstByte - start).milliseconds)") }
        if let head = result.headParsed { phases.append("head parsed \((head - start).milliseconds)") }
        if let done = result.completed { phases.append("complete \((done - start).milliseconds)") }
        Swift.print("  timings: " + phases.joined(separator: " · "))
        var connectionLine = "  connection: \(reused ? "reused" : "new") (\(connection.channel.remoteAddress)), "
        connectionLine += result.connectionReusable ? "kept alive" : "closed by the response"
        if let tls = result.tls { connectionLine += "; \(tls)" }
        Swift.print(connectionLine)
    }
}

extension Duration {
    /// `0.123 ms`.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = micros / 1_000
        let fraction = micros % 1_000
        return "\(whole).\(String(repeating: "0", count: 3 - String(fraction).count))\(fraction) ms"
    }
}

extension Int {
    /// `1,048,576`.
    var grouped: String {
        let digits = Array(String(self))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
