// Transforming a DownloadResponse's value or error, keeping its request, response, file and timings.
extension DownloadResponse {
    /// The same response with the success value transformed (a failure is kept as it is).
    public func map<NewSuccess: Sendable>(_ transform: (Success) -> NewSuccess) -> DownloadResponse<
        NewSuccess, Failure
    > {
        replacingResult(result.map(transform))
    }

    /// The same response with the success value transformed by a closure that may throw; what
    /// it throws becomes the failure (a failure is kept as it is).
    public func tryMap<NewSuccess: Sendable>(
        _ transform: (Success) throws -> NewSuccess
    ) -> DownloadResponse<NewSuccess, any Error> {
        replacingResult(result.tryMap(transform))
    }

    /// The same response with the failure transformed (a success is kept as it is).
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> DownloadResponse<
        Success, NewFailure
    > {
        replacingResult(result.mapError(transform))
    }

    /// The same response with the failure transformed by a closure that may throw; what it
    /// throws becomes the failure (a success is kept as it is).
    public func tryMapError<NewFailure: Error>(
        _ transform: (Failure) throws -> NewFailure
    ) -> DownloadResponse<Success, any Error> {
        replacingResult(result.tryMapError(transform))
    }

    private func replacingResult<NewSuccess, NewFailure>(
        _ result: Result<NewSuccess, NewFailure>
    ) -> DownloadResponse<NewSuccess, NewFailure> {
        DownloadResponse<NewSuccess, NewFailure>(
            request: request, response: response, fileURL: fileURL, resumeData: resumeData, metrics: metrics,
            serializationDuration: serializationDuration, result: result)
    }
}
