// A DataResponse for people: its result, or (debugDescription) the whole exchange.
import FoundationEssentials

extension DataResponse: CustomStringConvertible, CustomDebugStringConvertible {
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
        let lines =
            ResponseDescription.describe(request: request)
            + ResponseDescription.describe(response: response, body: data, showsBody: true) + [
                ResponseDescription.networkDuration(metrics),
                "[Serialization Duration]: \(serializationDuration)",
                "[Result]: \(result)",
            ]
        return lines.joined(separator: "\n")
    }
}
