// What a download's handler receives: request, response head, file, resume data, metrics, result.
public import FoundationEssentials

/// The outcome of a `DownloadRequest`, handed to its handlers and `DownloadTask.response`.
public struct DownloadResponse<Success: Sendable, Failure: Error>: Sendable {
    /// The request as sent; nil if it could not be built (an invalid URL or resume data).
    public let request: HTTPRequest?
    /// The response head; nil if no response arrived.
    public let response: HTTPResponse?
    /// Where the downloaded file is (its destination); nil when there is none.
    public let fileURL: URL?
    /// What resumes the download (`Session.download(resumingWith:)`), after a failed or
    /// cancelled transfer that allows it.
    public let resumeData: Data?
    /// Timings and connection facts; nil if no response arrived.
    public let metrics: RequestMetrics?
    /// How long the serializer took (zero for a response that was not serialized).
    public let serializationDuration: Duration
    /// The serialized value or the error.
    public let result: Result<Success, Failure>

    /// A response value.
    public init(
        request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, resumeData: Data?, metrics: RequestMetrics?,
        serializationDuration: Duration = .zero, result: Result<Success, Failure>
    ) {
        self.request = request
        self.response = response
        self.fileURL = fileURL
        self.resumeData = resumeData
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    /// The value on success, else nil.
    public var value: Success? { try? result.get() }
    /// The error on failure, else nil.
    public var error: Failure? {
        if case .failure(let error) = result { error } else { nil }
    }
}
