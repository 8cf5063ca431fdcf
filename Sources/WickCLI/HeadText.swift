// Request and response heads as text, the way curl shows them with `-i` and `-v`.
import Wick

/// The lines of HTTP heads, each ending in CRLF as on the wire.
enum HeadText {
    /// `HTTP/1.1 200 OK`, then each field, then the empty line.
    static func lines(of response: HTTPResponse) -> [String] {
        let phrase = response.status.reasonPhrase
        var lines = ["\(response.version) \(response.statusCode)" + (phrase.isEmpty ? "" : " \(phrase)")]
        for field in response.headers { lines.append("\(field.name): \(field.value)") }
        return lines + [""]
    }

    /// The request line, Host, the request's other fields and the body's Content-Length, then
    /// the empty line: what the transport writes for `request` (`HTTPRequestEncoder`'s order).
    static func lines(of request: HTTPRequest) -> [String] {
        let url = request.url
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var host = request.headers["Host"] ?? "localhost"
        if request.unixSocketPath == nil && !request.headers.contains(name: "Host") {
            host = url.host(percentEncoded: true) ?? ""
            if host.contains(":") { host = "[\(host)]" }
            let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
            if let port = url.port, port != defaultPort { host += ":\(port)" }
        }
        var lines = ["\(request.method.rawValue) \(target) HTTP/1.1", "Host: \(host)"]
        for field in request.headers where field.name.lowercased() != "host" {
            lines.append("\(field.name): \(field.value)")
        }
        if let body = request.body { lines.append("Content-Length: \(body.count)") }
        return lines + [""]
    }
}
