// What a stream handler receives: an event (a value or the end) and a token to cancel the stream.

extension DataStreamRequest {
    /// One event of a stream and the token that cancels it (Alamofire's
    /// `DataStreamRequest.Stream`).
    public struct Stream<Success: Sendable, Failure: Error>: Sendable {
        /// A value (or a failure to make one) from the body, or the end of the stream.
        public let event: Event<Success, Failure>
        /// Cancels the stream, also from inside the handler.
        public let token: CancellationToken

        /// Cancels the stream (`token.cancel()`).
        public func cancel() {
            token.cancel()
        }

        /// The result of a `.stream` event; nil for `.complete`.
        public var result: Result<Success, Failure>? {
            guard case .stream(let result) = event else { return nil }
            return result
        }

        /// The value of a successful `.stream` event.
        public var value: Success? {
            guard case .success(let value) = result else { return nil }
            return value
        }

        /// The failure of a `.stream` event (a line that did not decode).
        public var error: Failure? {
            guard case .failure(let error) = result else { return nil }
            return error
        }

        /// The end of the stream, for a `.complete` event.
        public var completion: Completion? {
            guard case .complete(let completion) = event else { return nil }
            return completion
        }
    }

    /// What a stream handler is called with: values as the body arrives, then its end, once.
    public enum Event<Success: Sendable, Failure: Error>: Sendable {
        /// A value made from the body (a chunk, text, a decoded line), or why one could not be.
        case stream(Result<Success, Failure>)
        /// The stream ended: completely, cancelled, or failed. Always the last event, after
        /// every `.stream` event of every chunk received.
        case complete(Completion)
    }

    /// How a stream ended (Alamofire's `DataStreamRequest.Completion`).
    public struct Completion: Sendable {
        /// The last request sent; nil if it could not be built.
        public let request: HTTPRequest?
        /// The final response head; nil if none arrived.
        public let response: HTTPResponse?
        /// The metrics of every exchange; nil when the last one did not complete (cancelled,
        /// failed).
        public let metrics: RequestMetrics?
        /// Why the stream ended early; nil when the body was read to its end.
        public let error: WickError?
    }

    /// Cancels a stream from wherever it is held, a handler included (Alamofire's
    /// `DataStreamRequest.CancellationToken`). It does not keep the request alive.
    public struct CancellationToken: Sendable {
        private weak var request: DataStreamRequest?

        init(_ request: DataStreamRequest) {
            self.request = request
        }

        /// Cancels the request: its connection is closed, no more `.stream` events are
        /// delivered, and `.complete` follows with `WickError.explicitlyCancelled`.
        public func cancel() {
            request?.cancel()
        }
    }
}
