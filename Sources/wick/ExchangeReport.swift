// Prints what a request did: status, headers, body, per-phase timings, connection reuse.
import FoundationEssentials
import Wick

/// Human-readable output for `wick get` and the demo tour.
enum ExchangeReport {
    /// Prints one response; `showHeaders` lists every response field, `bodyPreview` shows up to
    /// that many bytes of the body as text, `hexPreview` that many as hex.
    static func print(
        _ response: DataResponse<Data, WickError>, showHeaders: Bool = true, bodyPreview: Int = 0, hexPreview: Int = 0
    ) {
        if let head = response.response {
            Swift.print("  \(head.version) \(head.statusCode)")
            if showHeaders {
                for field in head.headers { Swift.print("    \(field.name): \(field.value)") }
            }
        }
        if let data = response.data {
            var line = "  body: \(data.count.grouped) bytes"
            if let head = response.response, let coding = head.headers["Content-Encoding"] {
                // `wick`'s sessions decode (the default): gzip, deflate, br and zstd arrive decoded,
                // others as sent.
                let codings = coding.split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
                if codings.allSatisfy({ ["gzip", "x-gzip", "deflate", "br", "zstd", "identity"].contains($0) }) {
                    let wire = head.headers["Content-Length"].map { ", \(Int($0)?.grouped ?? $0) bytes on the wire" } ?? ""
                    line += " decoded (Content-Encoding: \(coding)\(wire))"
                } else {
                    line += " (Content-Encoding: \(coding): delivered as sent, Wick decodes gzip, deflate, br and zstd)"
                }
            }
            Swift.print(line)
            if hexPreview > 0, !data.isEmpty {
                Swift.print("    | " + data.prefix(hexPreview).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ") + " ...")
            }
            if bodyPreview > 0, !data.isEmpty {
                let text = String(decoding: data.prefix(bodyPreview), as: UTF8.self)
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(12) {
                    Swift.print("    | \(line)")
                }
            }
        }
        if let metrics = response.metrics {
            var phases: [String] = []
            if let resolve = metrics.resolve { phases.append("resolve \(resolve.milliseconds)") }
            if let connect = metrics.connect { phases.append("connect \(connect.milliseconds)") }
            if let tls = metrics.tlsHandshake { phases.append("TLS handshake + trust \(tls.milliseconds)") }
            if let firstByte = metrics.firstByte { phases.append("first byte \(firstByte.milliseconds)") }
            if let total = metrics.total { phases.append("complete \(total.milliseconds)") }
            Swift.print("  timings: " + phases.joined(separator: " · "))
            var connection = "  connection: " + (metrics.isReused ? "reused from the pool" : "new")
            if metrics.wasReplayed { connection += " (replayed after a reused connection failed)" }
            Swift.print(connection)
        }
        if let error = response.error {
            Swift.print("  failed: \(error)")
        }
    }
}

extension Duration {
    /// `0.123 ms`.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return "\(micros / 1_000).\(String(micros % 1_000).leftPadded(to: 3, with: "0")) ms"
    }
}

extension String {
    /// The string with `pad` in front up to `width` characters.
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        String(repeating: pad, count: Swift.max(0, width - count)) + self
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
