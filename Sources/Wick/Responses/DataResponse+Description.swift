// A DataResponse for people: its result, or (debugDescription) the whole exchange.
import FoundationEssentials

extension DataResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// Bodies up to this size, and valid UTF-8, are shown in `debugDescription`; larger or
    /// binary ones by their size (Alamofire's limit).
    static var printableBodyLimit: Int { 100 * 1024 }

    /// `success(...)` or `failure(...)`.
    public var description: String { "\(result)" }

    /// The request (method, URL, headers, body), the response (status, headers, body), the
    /// network duration (every exchange's total, summed), the serialization duration and the
    /// result, laid out as in Alamofire:
    ///
    ///     [Request]: GET http://host/path
    ///         [Headers]:
    ///             Accept-Language: en;q=1.0
    ///         [Body]: None
    ///     [Response]:
    ///         [Status Code]: 200
    ///         ...
    ///     [Network Duration]: 0.000512 seconds
    ///     [Serialization Duration]: 0.000004 seconds
    ///     [Result]: success(...)
    ///
    /// Headers are sorted by name; bodies over 100 KiB or not UTF-8 show their size.
    public var debugDescription: String {
        guard let request else { return "[Request]: None\n[Result]: \(result)" }
        var lines = ["[Request]: \(request.method.rawValue) \(request.url.absoluteString)"]
        lines += Self.describe(headers: request.headers).map { "    " + $0 }
        lines += Self.describe(body: request.body).map { "    " + $0 }
        if let response {
            lines.append("[Response]:")
            lines.append("    [Status Code]: \(response.statusCode)")
            lines += Self.describe(headers: response.headers).map { "    " + $0 }
            lines += Self.describe(body: data).map { "    " + $0 }
        } else {
            lines.append("[Response]: None")
        }
        let network = metrics.map { $0.transactions.compactMap(\.total).reduce(.zero, +) }
        lines.append("[Network Duration]: \(network.map { "\($0)" } ?? "None")")
        lines.append("[Serialization Duration]: \(serializationDuration)")
        lines.append("[Result]: \(result)")
        return lines.joined(separator: "\n")
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
