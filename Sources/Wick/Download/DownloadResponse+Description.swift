// A DownloadResponse for people: its result, or (debugDescription) the whole exchange and file.
import FoundationEssentials

extension DownloadResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// `success(...)` or `failure(...)`.
    public var description: String { "\(result)" }

    /// The request (method, URL, headers, body), the response (status, headers), the file's
    /// path, the resume data's size, the network duration, the serialization duration and the
    /// result, laid out as in Alamofire:
    ///
    ///     [Request]: GET http://host/file
    ///         [Headers]: None
    ///         [Body]: None
    ///     [Response]:
    ///         [Status Code]: 200
    ///         ...
    ///     [File URL]: /tmp/file
    ///     [Resume Data]: None
    ///     [Network Duration]: 0.000512 seconds
    ///     [Serialization Duration]: 0.000004 seconds
    ///     [Result]: success(...)
    public var debugDescription: String {
        guard let request else { return "[Request]: None\n[Result]: \(result)" }
        let lines =
            ResponseDescription.describe(request: request)
            + ResponseDescription.describe(response: response, body: nil, showsBody: false) + [
                "[File URL]: \(fileURL?.path ?? "None")",
                "[Resume Data]: \(resumeData.map { "\($0.count) bytes" } ?? "None")",
                ResponseDescription.networkDuration(metrics),
                "[Serialization Duration]: \(serializationDuration)",
                "[Result]: \(result)",
            ]
        return lines.joined(separator: "\n")
    }
}
