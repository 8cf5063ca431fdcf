// Awaiting a DownloadRequest: its response, result or value, with task cancellation passed on.
public import FoundationEssentials

/// A `DownloadRequest`'s serialized response, to await (`serializingDownloadedFileURL()`).
/// Every property can be awaited any number of times; they all see the same outcome.
public struct DownloadTask<Value: Sendable>: Sendable {
    private let request: DownloadRequest
    private let automaticallyCancelling: Bool
    private let serialize: @Sendable (Request.Outcome) -> DownloadResponse<Value, WickError>

    init(
        request: DownloadRequest, automaticallyCancelling: Bool,
        serialize: @escaping @Sendable (Request.Outcome) -> DownloadResponse<Value, WickError>
    ) {
        self.request = request
        self.automaticallyCancelling = automaticallyCancelling
        self.serialize = serialize
    }

    /// The whole response: request, head, file, resume data, metrics and result. If the
    /// awaiting task is cancelled and `automaticallyCancelling` was set, the download is
    /// cancelled (without resume data) and this returns its `explicitlyCancelled` failure.
    public var response: DownloadResponse<Value, WickError> {
        get async {
            let outcome = await request.awaitOutcome(cancellingWithTask: automaticallyCancelling)
            // Serializing may read the file: it happens in the awaiting task, never on a loop.
            let response = serialize(outcome)
            request.session.eventMonitor.request(request, didParseResponse: response)
            return response
        }
    }

    /// The result alone.
    public var result: Result<Value, WickError> {
        get async { await response.result }
    }

    /// The value.
    /// - Throws: the request's `WickError`.
    public var value: Value {
        get async throws(WickError) { try await result.get() }
    }

    /// The resume data the download left (see `DownloadRequest.resumeData`), once it finished.
    public var resumeData: Data? {
        get async { await response.resumeData }
    }

    /// Cancels the download (`Request.cancel()`); the partial file is removed.
    public func cancel() {
        request.cancel()
    }

    /// Cancels the download keeping its partial file; `resumeData` then holds what resumes it.
    public func cancel(producingResumeData: Bool) {
        request.cancel(producingResumeData: producingResumeData)
    }
}
