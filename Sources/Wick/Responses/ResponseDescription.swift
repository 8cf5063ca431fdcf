// The parts of a response's debugDescription that data and download responses share, laid out
// as in Alamofire.
import FoundationEssentials

/// Lines of a response's `debugDescription`: the request, the response head (and body), the
/// network duration.
enum ResponseDescription {
    /// Bodies up to this size, and valid UTF-8, are shown; larger or binary ones by their size
    /// (Alamofire's limit).
    static var printableBodyLimit: Int { 100 * 1024 }

    /// `[Request]: METHOD URL`, then its headers and body, indented.
    static func describe(request: HTTPRequest) -> [String] {
        ["[Request]: \(request.method.rawValue) \(request.url.absoluteString)"]
            + indented(describe(headers: request.headers) + describe(body: request.body))
    }

    /// `[Response]:` with the status, the headers and, for a data response, the body; or
    /// `[Response]: None`.
    static func describe(response: HTTPResponse?, body: Data?, showsBody: Bool) -> [String] {
        guard let response else { return ["[Response]: None"] }
        let parts = ["[Status Code]: \(response.statusCode)"] + describe(headers: response.headers)
        return ["[Response]:"] + indented(showsBody ? parts + describe(body: body) : parts)
    }

    /// `[Network Duration]:` every exchange's total, summed, or `None` without metrics.
    static func networkDuration(_ metrics: RequestMetrics?) -> String {
        let network = metrics.map { $0.transactions.compactMap(\.total).reduce(.zero, +) }
        return "[Network Duration]: \(network.map { "\($0)" } ?? "None")"
    }

    private static func indented(_ lines: [String]) -> [String] {
        lines.map { "    " + $0 }
    }

    private static func describe(headers: HTTPHeaders) -> [String] {
        guard !headers.isEmpty else { return ["[Headers]: None"] }
        return ["[Headers]:"] + headers.sorted().map { "    \($0.name): \($0.value)" }
    }

    private static func describe(body: Data?) -> [String] {
        guard let body, !body.isEmpty else { return ["[Body]: None"] }
        guard body.count <= printableBodyLimit, let text = String(validating: body, as: UTF8.self) else {
            return ["[Body]: \(body.count) bytes"]
        }
        return ["[Body]:"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
    }
}
