// Awaiting a DataRequest: its response, result or value, with task cancellation passed on.
/// A `DataRequest`'s serialized response, to await (`DataRequest.serializingData()`).
/// Every property can be awaited any number of times; they all see the same outcome.
public struct DataTask<Value: Sendable>: Sendable {
    // Usable from inlinable code: `response`, `result` and `value` are inlinable, so that a
    // caller's `DataTask<Data>` is specialized and looks up no generic metadata per request
    // (`DataResponse<Value, WickError>` and `Result<Value, WickError>` cost about 330
    // instructions each to find, and the response was destroyed through its value witnesses).
    @usableFromInline let request: DataRequest
    @usableFromInline let automaticallyCancelling: Bool
    @usableFromInline let serialize: @Sendable (Request.Outcome) -> DataResponse<Value, WickError>

    init(
        request: DataRequest, automaticallyCancelling: Bool,
        serialize: @escaping @Sendable (Request.Outcome) -> DataResponse<Value, WickError>
    ) {
        self.request = request
        self.automaticallyCancelling = automaticallyCancelling
        self.serialize = serialize
    }

    /// The whole response: request, head, data, metrics and result. If the awaiting task is
    /// cancelled and `automaticallyCancelling` was set, the request is cancelled and this
    /// returns its `explicitlyCancelled` failure.
    @inlinable public var response: DataResponse<Value, WickError> {
        get async {
            // The outcome may arrive on an event loop: the awaiting task serializes it.
            let outcome = await request.awaitOutcome(cancellingWithTask: automaticallyCancelling)
            let response = serialize(outcome)
            // Checked here: the generic call would look up the response type's metadata first.
            let monitor = request.session.eventMonitor
            if monitor.handledEvents.contains(.didParseResponse) {
                monitor.request(request, didParseResponse: response)
            }
            return response
        }
    }

    /// The result alone.
    @inlinable public var result: Result<Value, WickError> {
        get async { await response.result }
    }

    /// The value.
    /// - Throws: the request's `WickError`.
    @inlinable public var value: Value {
        get async throws(WickError) { try await response.result.get() }
    }

    /// Cancels the request (`Request.cancel()`).
    public func cancel() {
        request.cancel()
    }
}
