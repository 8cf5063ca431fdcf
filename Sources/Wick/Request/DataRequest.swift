// A request whose whole response body is collected in memory, with Alamofire's handlers.
public import Dispatch
public import FoundationEssentials

/// A request whose response body is collected whole (`Session.request`). Read it with a
/// handler (`responseData`, `response(responseSerializer:)`) or with async/await
/// (`serializingData()`).
public class DataRequest: Request, @unchecked Sendable {
    /// A closure that checks a response before the request finishes (Alamofire's
    /// `DataRequest.Validation`): `.failure` fails the request with
    /// `responseValidationFailed(reason: .customValidationFailed)`, unless the error is a
    /// `WickError`, which fails it as it is.
    public typealias Validation = @Sendable (HTTPRequest?, HTTPResponse, Data?) -> Result<Void, any Error>

    /// What shows the final response to `onHTTPResponse` and `downloadProgress` handlers; nil
    /// (no cost) until the first such handler is added.
    let observerSlot = RequestStateLock<ResponseObserver?>(nil)

    init(
        session: Session, initialRequest: Result<HTTPRequest, WickError>,
        interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?
    ) {
        super.init(
            session: session, initialRequest: initialRequest, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// The observer, when a handler installed one: the exchange collects the body and shows it.
    override var exchangeSink: (any TransportBodySink)? { observerSlot.withLock { $0 } }

    /// Holds the end while an `onHTTPResponse` handler has not decided (see `ResponseObserver`).
    override func completeOutcome(_ outcome: Outcome, then record: @escaping @Sendable (Outcome) -> Void) {
        guard let observer = observerSlot.withLock({ $0 }) else { return record(outcome) }
        observer.end(outcome, then: record)
    }

    /// Adds a validation: it runs on every response (after redirects, before retriers are
    /// asked), and a failure fails the attempt, which the retriers may retry. Add validations
    /// before the first response handler, which starts the request.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        appendValidation { request, response in
            switch validation(request, HTTPResponse(response, url: request?.url), response.body) {
            case .success: .success(())
            case .failure(let error as WickError): .failure(error)
            case .failure(let error): .failure(.responseValidationFailed(reason: .customValidationFailed(error: error)))
            }
        }
        return self
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response
    /// serialized by `responseSerializer` (on the session's `serializationQueue`, or on `queue`
    /// when it has none), and starts the request.
    @discardableResult
    public func response<Serializer: DataResponseSerializerProtocol>(
        queue: DispatchQueue? = nil, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        response(queue: queue, dataSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// `response(queue:responseSerializer:completionHandler:)`, under a name that both its public
    /// overloads (this protocol's and `ResponseSerializer`'s) call.
    func response<Serializer: DataResponseSerializerProtocol>(
        queue: DispatchQueue?, dataSerializer responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        let delivery = ResponseDelivery(
            request: self, queue: queue ?? session.responseQueue, serializer: responseSerializer,
            completionHandler: completionHandler)
        whenFinished { outcome in delivery.deliver(outcome) }
        return self
    }

    /// `outcome` serialized by `serializer`, told to the event monitors.
    fileprivate func parsedResponse<Serializer: DataResponseSerializerProtocol>(
        _ outcome: Outcome, with serializer: Serializer
    ) -> DataResponse<Serializer.SerializedObject, WickError> {
        let response = Self.serialize(outcome, with: serializer)
        if session.eventMonitor.handles(.didParseResponse) {
            session.eventMonitor.request(self, didParseResponse: response)
        }
        return response
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the body as
    /// `Data`, and starts the request. The result fails with the request's `WickError`, or with
    /// `responseSerializationFailed` for an empty body the status or method does not allow.
    @discardableResult
    public func responseData(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DataResponse<Data, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            responseSerializer: DataResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The response as `Data`, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameters:
    ///   - automaticallyCancelling: cancel the request when the task awaiting it is cancelled,
    ///     which then returns its `explicitlyCancelled` failure. Default false, as Alamofire's:
    ///     the task's cancellation is ignored and the request runs to its end. Pass true when a
    ///     request nobody waits for is wasted work and a held connection.
    ///   - dataPreprocessor: what changes a non-empty body before it is returned.
    ///   - emptyResponseCodes: statuses whose empty body gives empty `Data` rather than an error.
    ///   - emptyRequestMethods: methods whose empty body gives empty `Data` rather than an error.
    public func serializingData(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) -> DataTask<Data> {
        // With the defaults (the usual call) the task's serializing closure captures nothing, so
        // it has no context to allocate: the serializer is the shared default one. The
        // preprocessor's type is compared, not cast (`is` ran the runtime's dynamic cast, about
        // 250 instructions): the same test for a struct.
        if type(of: dataPreprocessor) == PassthroughPreprocessor.self,
            DataResponseSerializer.hasDefaultEmptyBodyRules(
                emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
        {
            resumeIfAutomatic()
            return DataTask(request: self, automaticallyCancelling: automaticallyCancelling) { outcome in
                DataRequest.serialize(outcome, with: DataResponseSerializer.passthrough)
            }
        }
        return serializingResponse(
            using: DataResponseSerializer(
                dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }

    /// The response serialized by `serializer`, to await; starts the request.
    /// - Parameters:
    ///   - serializer: what turns the finished response into the value.
    ///   - automaticallyCancelling: cancel the request when the awaiting task is.
    public func serializingResponse<Serializer: DataResponseSerializerProtocol>(
        using serializer: Serializer, automaticallyCancelling: Bool = false
    ) -> DataTask<Serializer.SerializedObject> {
        serializingResponse(dataSerializer: serializer, automaticallyCancelling: automaticallyCancelling)
    }

    /// `serializingResponse(using:automaticallyCancelling:)`, under a name that both its public
    /// overloads (this protocol's and `ResponseSerializer`'s) call.
    func serializingResponse<Serializer: DataResponseSerializerProtocol>(
        dataSerializer serializer: Serializer, automaticallyCancelling: Bool
    ) -> DataTask<Serializer.SerializedObject> {
        resumeIfAutomatic()
        return DataTask(request: self, automaticallyCancelling: automaticallyCancelling) { outcome in
            Self.serialize(outcome, with: serializer)
        }
    }

    /// The `DataResponse` for an outcome, with the time the serializer took.
    static func serialize<Serializer: DataResponseSerializerProtocol>(
        _ outcome: Outcome, with serializer: Serializer
    ) -> DataResponse<Serializer.SerializedObject, WickError> {
        // Read field by field where the outcome keeps them: `outcome.response` copied the whole
        // transport response out, twice.
        let head = outcome.responseHead
        let data = outcome.responseData
        let run = SerializerRun {
            try serializer.serialize(request: outcome.request, response: head, data: data, error: outcome.error)
        }
        return DataResponse(
            request: outcome.request, response: head, data: data, metrics: outcome.metrics,
            serializationDuration: run.duration, result: run.result)
    }
}

/// What one response handler needs once its request's outcome is known, in one object: the
/// closures that hand it over and then to the handler's queue each capture this object alone,
/// which then serves as their context, where closures capturing the request, the queue, the
/// serializer and the handler needed a context of their own at each step (one allocation a
/// request). `@unchecked Sendable`: `outcome` is written once, before the object is handed to a
/// queue, which orders that write before the read.
private final class ResponseDelivery<Serializer: DataResponseSerializerProtocol>: @unchecked Sendable {
    private let request: DataRequest
    private let queue: DispatchQueue
    private let serializer: Serializer
    private let completionHandler: @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    private var outcome: Request.Outcome?

    init(
        request: DataRequest, queue: DispatchQueue, serializer: Serializer,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    ) {
        self.request = request
        self.queue = queue
        self.serializer = serializer
        self.completionHandler = completionHandler
    }

    /// Serializes `outcome` and calls the handler on its queue. The outcome may arrive on an
    /// event loop: serializing happens on a queue instead, the session's serialization queue if
    /// it has one, else the handler's (one block, one hop).
    func deliver(_ outcome: Request.Outcome) {
        self.outcome = outcome
        guard let serializationQueue = request.session.serializationQueue else {
            return queue.async { self.serializeAndCall() }
        }
        serializationQueue.async {
            let response = self.serialized()
            self.queue.async { self.completionHandler(response) }
        }
    }

    private func serializeAndCall() {
        completionHandler(serialized())
    }

    private func serialized() -> DataResponse<Serializer.SerializedObject, WickError> {
        guard let outcome else { preconditionFailure("ResponseDelivery: serialized before its outcome was set") }
        return request.parsedResponse(outcome, with: serializer)
    }
}
