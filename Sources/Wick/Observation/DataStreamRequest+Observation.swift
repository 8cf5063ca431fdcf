// A data stream's final response as it arrives: onHTTPResponse (with or without a decision),
// downloadProgress and httpResponses(), as in Alamofire 5.7.
public import Dispatch

extension DataStreamRequest {
    /// Calls `handler` on `queue` (nil: `session.responseQueue`) with the final response's head
    /// as soon as it arrives, before its body is handed to the readers (Alamofire's
    /// `onHTTPResponse(on:perform:)`): once per final response, so again for a retried
    /// attempt. Add it before the first reader, which starts the request.
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue? = nil, perform handler: @escaping @Sendable (HTTPResponse) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        streamState.withLock { $0.events.headHandlers.append((queue, handler)) }
        return self
    }

    /// Calls `handler` on `queue` (nil: `session.responseQueue`) with the final response's head
    /// once the validations passed, and waits for its answer: `.allow` hands the body to the
    /// readers, `.cancel` cancels the request. Until every such handler has answered, the body
    /// is held (reading paused) as it is for a validation, so a handler must call its
    /// completion exactly once. Add it before the first reader.
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue? = nil,
        perform handler: @escaping @Sendable (
            _ response: HTTPResponse, _ completionHandler: @escaping @Sendable (ResponseDisposition) -> Void
        ) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        streamState.withLock { $0.events.decidingHandlers.append((queue, handler)) }
        return self
    }

    /// Calls `closure` on `queue` (nil: `session.responseQueue`) with the final response's
    /// progress as its body arrives, once per batch of socket reads (see
    /// `DataRequest.downloadProgress(queue:closure:)`). Add it before the first reader.
    @discardableResult
    public func downloadProgress(
        queue: DispatchQueue? = nil, closure: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        streamState.withLock { $0.events.progressHandlers.append((queue, closure)) }
        return self
    }

    /// The final response heads, as they arrive (Alamofire's `httpResponses()`); the sequence
    /// ends when the request finishes. Making it does not start the request.
    public func httpResponses(
        bufferingPolicy: AsyncStream<HTTPResponse>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<HTTPResponse> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            onHTTPResponse(on: queue) { continuation.yield($0) }
        }
    }

    /// The final response's progress, as a sequence that ends when the request finishes
    /// (Alamofire's `downloadProgress()`). Making it does not start the request.
    public func downloadProgress(
        bufferingPolicy: AsyncStream<TransferProgress>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransferProgress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, continuation in
            downloadProgress(queue: queue) { continuation.yield($0) }
        }
    }
}
