// responseJSON and serializingJSON: the body as a JSONValue.
public import Dispatch

extension DataRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the body parsed as
    /// JSON (see `JSONResponseSerializer`), and starts the request. Alamofire's `responseJSON`,
    /// with a `JSONValue` where it gives `Any`.
    @discardableResult
    public func responseJSON(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DataResponse<JSONValue, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            responseSerializer: JSONResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The body parsed as JSON, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameters:
    ///   - automaticallyCancelling: cancel the request when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty body before it is parsed.
    ///   - emptyResponseCodes: statuses whose empty body gives `.null` rather than an error.
    ///   - emptyRequestMethods: methods whose empty body gives `.null` rather than an error.
    public func serializingJSON(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods
    ) -> DataTask<JSONValue> {
        serializingResponse(
            using: JSONResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }
}
