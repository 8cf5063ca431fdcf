// A resumed download's own adapter and retrier: the range to ask for, and the one restart after a 416.
/// Added to a download made from resume data: adapts each attempt last (`Request.finalAdapter`,
/// after the request's and the session's adapters) so that it asks for the bytes
/// the file lacks (`DownloadSink.adaptForResume`), and is asked first when an attempt fails, to
/// restart once without a range after a 416 that named another length than the file's.
struct DownloadResumeInterceptor: RequestInterceptor {
    let sink: DownloadSink

    /// The request with `Range`/`If-Range` for the bytes on disk, or without them.
    func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        completion(.success(sink.adaptForResume(request)))
    }

    /// `.retry` once after a 416 for another length; `.doNotRetry` otherwise (the request's and
    /// the session's retriers are asked next).
    func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        completion(sink.takeRestart() ? .retry : .doNotRetry)
    }
}
