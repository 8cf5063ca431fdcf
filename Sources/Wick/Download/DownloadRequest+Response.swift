// A download's handlers: unserialized, through any download serializer, the file URL and the
// file's bytes, with async forms.
public import Dispatch
public import FoundationEssentials

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response,
    /// whose value is the file's URL (nil when there is no file), and starts the request.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil, completionHandler: @escaping @Sendable (DownloadResponse<URL?, WickError>) -> Void
    ) -> Self {
        response(queue: queue, downloadSerializer: UnserializedDownload(), completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the download
    /// serialized by `responseSerializer` (Alamofire's `response(queue:responseSerializer:)`),
    /// and starts the request. The serializer runs on the session's `serializationQueue`, or on
    /// `queue` when it has none.
    @discardableResult
    public func response<Serializer: DownloadResponseSerializerProtocol>(
        queue: DispatchQueue? = nil, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DownloadResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        response(queue: queue, downloadSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file's URL,
    /// and starts the request. Fails with the request's error.
    @discardableResult
    public func responseURL(
        queue: DispatchQueue? = nil, completionHandler: @escaping @Sendable (DownloadResponse<URL, WickError>) -> Void
    ) -> Self {
        response(queue: queue, downloadSerializer: URLResponseSerializer(), completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file's bytes,
    /// read on `queue` (the whole file in memory: for small downloads), and starts the request.
    /// Fails with the request's error, `inputFileReadFailed` (the file went away), or, as
    /// `DataRequest.responseData` does, `inputDataNilOrZeroLength` for an empty file the status
    /// or method does not allow.
    @discardableResult
    public func responseData(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DownloadResponse<Data, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            downloadSerializer: DataResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The file's URL, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameter automaticallyCancelling: cancel the download (removing its partial file)
    ///   when the awaiting task is cancelled. Default false, as for `serializingData()`.
    public func serializingDownloadedFileURL(automaticallyCancelling: Bool = false) -> DownloadTask<URL> {
        serializingDownload(
            downloadSerializer: URLResponseSerializer(), automaticallyCancelling: automaticallyCancelling)
    }

    /// The file's bytes, to await; starts the request. See `responseData` for the failures.
    public func serializingData(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) -> DownloadTask<Data> {
        serializingDownload(
            downloadSerializer: DataResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }

    /// The download serialized by `serializer`, to await (Alamofire's `serializingDownload`);
    /// starts the request. The serializer runs in the awaiting task.
    /// - Parameters:
    ///   - serializer: what turns the finished download into the value.
    ///   - automaticallyCancelling: cancel the download when the awaiting task is.
    public func serializingDownload<Serializer: DownloadResponseSerializerProtocol>(
        using serializer: Serializer, automaticallyCancelling: Bool = false
    ) -> DownloadTask<Serializer.SerializedObject> {
        serializingDownload(downloadSerializer: serializer, automaticallyCancelling: automaticallyCancelling)
    }

    /// `response(queue:responseSerializer:completionHandler:)`, under a name that its public
    /// overloads call. Serializes on the session's serialization queue, else on `queue` (one
    /// block, one hop): the outcome may arrive on a writer queue.
    func response<Serializer: DownloadResponseSerializerProtocol>(
        queue: DispatchQueue?, downloadSerializer serializer: Serializer,
        completionHandler: @escaping @Sendable (DownloadResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        whenFinished { [self] outcome in
            guard let serializationQueue = session.serializationQueue else {
                return queue.async { [self] in completionHandler(parsedResponse(outcome, with: serializer)) }
            }
            serializationQueue.async { [self] in
                let response = parsedResponse(outcome, with: serializer)
                queue.async { completionHandler(response) }
            }
        }
        return self
    }

    /// `outcome` serialized by `serializer`, told to the event monitors.
    private func parsedResponse<Serializer: DownloadResponseSerializerProtocol>(
        _ outcome: Outcome, with serializer: Serializer
    ) -> DownloadResponse<Serializer.SerializedObject, WickError> {
        let response = Self.serialize(outcome, with: serializer)
        session.eventMonitor.request(self, didParseResponse: response)
        return response
    }

    /// `serializingDownload(using:automaticallyCancelling:)`, under a name that its public
    /// overloads call.
    func serializingDownload<Serializer: DownloadResponseSerializerProtocol>(
        downloadSerializer serializer: Serializer, automaticallyCancelling: Bool
    ) -> DownloadTask<Serializer.SerializedObject> {
        resumeIfAutomatic()
        return DownloadTask(request: self, automaticallyCancelling: automaticallyCancelling) { outcome in
            Self.serialize(outcome, with: serializer)
        }
    }

    /// The `DownloadResponse` for an outcome, with the time the serializer took.
    static func serialize<Serializer: DownloadResponseSerializerProtocol>(
        _ outcome: Outcome, with serializer: Serializer
    ) -> DownloadResponse<Serializer.SerializedObject, WickError> {
        let head = outcome.responseHead
        let run = SerializerRun {
            try serializer.serializeDownload(
                request: outcome.request, response: head, fileURL: outcome.fileURL, error: outcome.error)
        }
        return DownloadResponse(
            request: outcome.request, response: head, fileURL: outcome.fileURL, resumeData: outcome.resumeData,
            metrics: outcome.metrics, serializationDuration: run.duration, result: run.result)
    }
}

/// The "serializer" of `response(queue:completionHandler:)`: the file's URL, nil when there is
/// none, or the error.
struct UnserializedDownload: DownloadResponseSerializerProtocol {
    func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?)
        throws(WickError) -> URL?
    {
        if let error { throw error }
        return fileURL
    }
}
