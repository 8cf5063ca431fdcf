// A data request's final response as it arrives: onHTTPResponse (with or without a decision,
// with a closure or an async one) and downloadProgress, as in Alamofire 5.7.
public import Dispatch

extension DataRequest {
    /// Calls `handler` on `queue` (nil: `session.responseQueue`) with the final response's
    /// head as soon as it arrives, before its body (Alamofire's `onHTTPResponse(on:perform:)`):
    /// once per final response, so again for a retried attempt. Redirects the request follows
    /// and challenges it answers are not shown. Add it before the request starts.
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue? = nil, perform handler: @escaping @Sendable (HTTPResponse) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        observer().state.withLock { $0.events.headHandlers.append((queue, handler)) }
        return self
    }

    /// Calls `handler` on `queue` (nil: `session.responseQueue`) with the final response's head
    /// as soon as it arrives, and waits for its answer: `.allow` goes on, `.cancel` cancels the
    /// request (Alamofire's `onHTTPResponse` with a completion handler). Until every such
    /// handler has answered, reading the body pauses and the request does not finish, so a
    /// handler must call its completion exactly once. Add it before the request starts.
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue? = nil,
        perform handler: @escaping @Sendable (
            _ response: HTTPResponse, _ completionHandler: @escaping @Sendable (ResponseDisposition) -> Void
        ) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        observer().state.withLock { $0.events.decidingHandlers.append((queue, handler)) }
        return self
    }

    /// Calls `handler` in a new task with the final response's head as soon as it arrives, and
    /// goes on as it answers, `.allow` or `.cancel` (Alamofire's async form; see the form with a
    /// completion handler, which this is built on). Add it before the request starts.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(
        perform handler: @escaping @Sendable (_ response: HTTPResponse) async -> ResponseDisposition
    ) -> Self {
        onHTTPResponse(on: nil) { response, completionHandler in
            Task { completionHandler(await handler(response)) }
        }
    }

    /// Calls `handler` in a new task with the final response's head as soon as it arrives; the
    /// body waits until it returns (Alamofire's async form). Add it before the request starts.
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (_ response: HTTPResponse) async -> Void) -> Self {
        onHTTPResponse { (response: HTTPResponse) async -> ResponseDisposition in
            await handler(response)
            return .allow
        }
    }

    /// Calls `closure` on `queue` (nil: `session.responseQueue`) with the final response's
    /// progress as its body arrives, once per batch of socket reads: bytes so far (decoded, if
    /// the body has a `Content-Encoding`) and the `Content-Length` when it is the body's length.
    /// A retried attempt starts again from 0. Add it before the request starts.
    @discardableResult
    public func downloadProgress(
        queue: DispatchQueue? = nil, closure: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        observer().state.withLock { $0.events.progressHandlers.append((queue, closure)) }
        return self
    }

    /// The request's observer, made by the first handler that needs it.
    private func observer() -> ResponseObserver {
        observerSlot.withLock { slot in
            if let slot { return slot }
            let made = ResponseObserver(request: self)
            slot = made
            return made
        }
    }
}
