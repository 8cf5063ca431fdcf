// What a response handler receives: request, response head, data, metrics and the result.
public import FoundationEssentials

/// The outcome of a `DataRequest`, handed to `responseData` handlers and `DataTask.response`.
public struct DataResponse<Success: Sendable, Failure: Error>: Sendable {
    /// The request as sent; nil if it could not be built (an invalid URL).
    public let request: HTTPRequest?
    /// The response head; nil if no response arrived.
    public let response: HTTPResponse?
    /// The body as received; nil if no response arrived.
    public let data: Data?
    /// Timings and connection facts; nil if no response arrived.
    public let metrics: RequestMetrics?
    /// How long the serializer took (zero for a response that was not serialized).
    public let serializationDuration: Duration
    /// The serialized value or the error.
    public let result: Result<Success, Failure>

    /// A response value.
    public init(
        request: HTTPRequest?, response: HTTPResponse?, data: Data?, metrics: RequestMetrics?,
        serializationDuration: Duration = .zero, result: Result<Success, Failure>
    ) {
        self.request = request
        self.response = response
        self.data = data
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
