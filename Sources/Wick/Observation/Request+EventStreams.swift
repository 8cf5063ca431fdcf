// Alamofire's async sequences of a request's events: requests sent, final response heads and
// transfer progress, each ending when the request finishes.
public import Dispatch

extension Request {
    /// A stream fed by `install` (a handler added on a private serial queue), finished when the
    /// request finishes. Making it does not start the request.
    func eventStream<Element: Sendable>(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        install: (DispatchQueue, AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        // One queue for the handler and the end, so no element is yielded after the finish.
        let queue = DispatchQueue(label: "Wick.Request.eventStream", target: session.responseQueue)
        install(queue, continuation)
        onFinish { _ in queue.async { continuation.finish() } }
        return stream
    }

    /// Every request about to be sent, after adaptation (see `onURLRequestCreation`), as a
    /// sequence that ends when the request finishes (Alamofire's `urlRequests()`). Making it
    /// does not start the request; make it before the request starts.
    public func urlRequests(
        bufferingPolicy: AsyncStream<HTTPRequest>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<HTTPRequest> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            onURLRequestCreation(on: queue) { continuation.yield($0) }
        }
    }
}

extension DataRequest {
    /// The final response heads, as they arrive (Alamofire's `httpResponses()`): one per final
    /// response (see `onHTTPResponse`); the sequence ends when the request finishes. Making it
    /// does not start the request; make it before the request starts.
    public func httpResponses(
        bufferingPolicy: AsyncStream<HTTPResponse>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<HTTPResponse> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            onHTTPResponse(on: queue) { continuation.yield($0) }
        }
    }

    /// The final response's progress (see `downloadProgress(queue:closure:)`), as a sequence
    /// that ends when the request finishes (Alamofire's `downloadProgress()`). Making it does
    /// not start the request; make it before the request starts.
    public func downloadProgress(
        bufferingPolicy: AsyncStream<TransferProgress>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransferProgress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            downloadProgress(queue: queue) { continuation.yield($0) }
        }
    }
}

extension DownloadRequest {
    /// The download's progress (see `downloadProgress(queue:closure:)`), as a sequence that ends
    /// when the request finishes (Alamofire's `downloadProgress()`). Making it does not start
    /// the request; make it before the request starts.
    public func downloadProgress(
        bufferingPolicy: AsyncStream<TransferProgress>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransferProgress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            downloadProgress(queue: queue) { continuation.yield($0) }
        }
    }
}

extension UploadRequest {
    /// The upload's progress (see `uploadProgress(queue:closure:)`), as a sequence that ends
    /// when the request finishes (Alamofire's `uploadProgress()`). Making it does not start the
    /// request; make it before the request starts.
    public func uploadProgress(
        bufferingPolicy: AsyncStream<TransferProgress>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransferProgress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            uploadProgress(queue: queue) { continuation.yield($0) }
        }
    }
}
