// A download's responseJSON and serializingJSON: the file as a JSONValue.
public import Dispatch

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file parsed
    /// as JSON (see `JSONResponseSerializer`), and starts the request. Alamofire's
    /// `responseJSON`, with a `JSONValue` where it gives `Any`. The file is read whole, on `queue`.
    @discardableResult
    public func responseJSON(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DownloadResponse<JSONValue, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            downloadSerializer: JSONResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The file parsed as JSON, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameters:
    ///   - automaticallyCancelling: cancel the download when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty file before it is parsed.
    ///   - emptyResponseCodes: statuses whose empty file gives `.null` rather than an error.
    ///   - emptyRequestMethods: methods whose empty file gives `.null` rather than an error.
    public func serializingJSON(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods
    ) -> DownloadTask<JSONValue> {
        serializingDownload(
            downloadSerializer: JSONResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }
}
