// A request whose whole response body is collected in memory, with Alamofire's handlers.
public import Dispatch
public import FoundationEssentials

/// A request whose response body is collected whole (`Session.request`). Read it with a
/// handler (`responseData`, `response(responseSerializer:)`) or with async/await
/// (`serializingData()`).
public final class DataRequest: Request, @unchecked Sendable {
    init(session: Session, request: HTTPRequest) {
        super.init(session: session, request: request, buildFailure: nil)
    }

    init(session: Session, failure: WickError) {
        super.init(session: session, request: nil, buildFailure: failure)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response
    /// serialized by `responseSerializer`, and starts the request.
    @discardableResult
    public func response<Serializer: DataResponseSerializerProtocol>(
        queue: DispatchQueue? = nil, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        whenFinished { outcome in
            let response = Self.serialize(outcome, with: responseSerializer)
            queue.async { completionHandler(response) }
        }
        return self
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the body as
    /// `Data`, and starts the request. The result fails with the request's `WickError`, or with
    /// `responseSerializationFailed` for an empty body the status or method does not allow.
    @discardableResult
    public func responseData(
        queue: DispatchQueue? = nil,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DataResponse<Data, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            responseSerializer: DataResponseSerializer(
                emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The response as `Data`, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameter automaticallyCancelling: cancel the request when the task awaiting it is
    ///   cancelled. Default true, unlike Alamofire's false: in a daemon, a request nobody waits
    ///   for any more is wasted work and a held connection.
    public func serializingData(
        automaticallyCancelling: Bool = true,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) -> DataTask<Data> {
        serializingResponse(
            using: DataResponseSerializer(
                emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }

    /// The response serialized by `serializer`, to await; starts the request.
    /// - Parameter automaticallyCancelling: cancel the request when the awaiting task is.
    public func serializingResponse<Serializer: DataResponseSerializerProtocol>(
        using serializer: Serializer, automaticallyCancelling: Bool = true
    ) -> DataTask<Serializer.SerializedObject> {
        resume()
        return DataTask(request: self, automaticallyCancelling: automaticallyCancelling) { outcome in
            Self.serialize(outcome, with: serializer)
        }
    }

    /// The `DataResponse` for an outcome.
    static func serialize<Serializer: DataResponseSerializerProtocol>(
        _ outcome: Outcome, with serializer: Serializer
    ) -> DataResponse<Serializer.SerializedObject, WickError> {
        let transport = try? outcome.result.get()
        let head = transport.map {
            HTTPResponse(status: $0.status, headers: $0.headers, version: $0.version, trailers: $0.trailers)
        }
        let data = transport.map { Data($0.body) }
        let failure: WickError? =
            if case .failure(let error) = outcome.result { error } else { nil }
        let result: Result<Serializer.SerializedObject, WickError>
        do {
            result = .success(
                try serializer.serialize(request: outcome.request, response: head, data: data, error: failure))
        } catch let error as WickError {
            result = .failure(error)
        } catch {
            result = .failure(.responseSerializationFailed(reason: .customSerializationFailed(error: error)))
        }
        return DataResponse(
            request: outcome.request, response: head, data: data, metrics: transport.map { RequestMetrics($0.metrics) },
            result: result)
    }
}
