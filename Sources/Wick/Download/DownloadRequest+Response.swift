// A download's handlers: the file URL (optional or required), the file's bytes, and async tasks.
public import Dispatch
public import FoundationEssentials

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response,
    /// whose value is the file's URL (nil when there is no file), and starts the request.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil, completionHandler: @escaping @Sendable (DownloadResponse<URL?, WickError>) -> Void
    ) -> Self {
        respond(queue: queue, serialize: Self.optionalURL, completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file's URL,
    /// and starts the request. Fails with the request's error.
    @discardableResult
    public func responseURL(
        queue: DispatchQueue? = nil, completionHandler: @escaping @Sendable (DownloadResponse<URL, WickError>) -> Void
    ) -> Self {
        respond(queue: queue, serialize: Self.requiredURL, completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file's bytes,
    /// read on `queue` (the whole file in memory: for small downloads), and starts the request.
    /// Fails with the request's error, `inputFileReadFailed` (the file went away), or, as
    /// `DataRequest.responseData` does, `inputDataNilOrZeroLength` for an empty file the status
    /// or method does not allow.
    @discardableResult
    public func responseData(
        queue: DispatchQueue? = nil,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DownloadResponse<Data, WickError>) -> Void
    ) -> Self {
        let serializer = DataResponseSerializer(
            emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
        return respond(queue: queue, serialize: { Self.data($0, serializer) }, completionHandler: completionHandler)
    }

    /// The file's URL, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameter automaticallyCancelling: cancel the download (removing its partial file)
    ///   when the awaiting task is cancelled. Default false, as for `serializingData()`.
    public func serializingDownloadedFileURL(automaticallyCancelling: Bool = false) -> DownloadTask<URL> {
        resume()
        return DownloadTask(
            request: self, automaticallyCancelling: automaticallyCancelling, serialize: Self.requiredURL)
    }

    /// The file's bytes, to await; starts the request. See `responseData` for the failures.
    public func serializingData(
        automaticallyCancelling: Bool = false,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) -> DownloadTask<Data> {
        let serializer = DataResponseSerializer(
            emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
        resume()
        return DownloadTask(request: self, automaticallyCancelling: automaticallyCancelling) {
            Self.data($0, serializer)
        }
    }

    /// Serializes the outcome on `queue` (it may arrive on a writer queue) and hands it over.
    private func respond<Value: Sendable>(
        queue: DispatchQueue?, serialize: @escaping @Sendable (Outcome) -> DownloadResponse<Value, WickError>,
        completionHandler: @escaping @Sendable (DownloadResponse<Value, WickError>) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        whenFinished { [self] outcome in
            queue.async { [self] in
                let response = serialize(outcome)
                session.eventMonitor.request(self, didParseResponse: response)
                completionHandler(response)
            }
        }
        return self
    }

    /// The response for an outcome with `result`.
    private static func response<Value>(_ outcome: Outcome, _ result: Result<Value, WickError>) -> DownloadResponse<
        Value, WickError
    > {
        DownloadResponse(
            request: outcome.request, response: outcome.response.map(HTTPResponse.init), fileURL: outcome.fileURL,
            resumeData: outcome.resumeData, metrics: outcome.metrics, result: result)
    }

    private static func optionalURL(_ outcome: Outcome) -> DownloadResponse<URL?, WickError> {
        response(outcome, outcome.error.map { .failure($0) } ?? .success(outcome.fileURL))
    }

    private static func requiredURL(_ outcome: Outcome) -> DownloadResponse<URL, WickError> {
        if let error = outcome.error { return response(outcome, .failure(error)) }
        return response(outcome, .success(fileURL(of: outcome)))
    }

    /// The file of a download that finished without error: `DownloadFinisher` always moves it
    /// there (or fails the request).
    private static func fileURL(of outcome: Outcome) -> URL {
        guard let url = outcome.fileURL else {
            preconditionFailure("DownloadRequest: finished without an error and without a file")
        }
        return url
    }

    private static func data(_ outcome: Outcome, _ serializer: DataResponseSerializer) -> DownloadResponse<
        Data, WickError
    > {
        if let error = outcome.error { return response(outcome, .failure(error)) }
        let url = fileURL(of: outcome)
        let contents: Data
        do {
            contents = try Data(contentsOf: url)
        } catch {
            return response(
                outcome, .failure(.responseSerializationFailed(reason: .inputFileReadFailed(path: url.path))))
        }
        let head = outcome.response.map(HTTPResponse.init)
        return response(
            outcome,
            Result { () throws(WickError) in
                try serializer.serialize(request: outcome.request, response: head, data: contents, error: nil)
            })
    }
}
