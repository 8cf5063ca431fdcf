// Alamofire's response handlers beyond Data: unserialized, String and Decodable, with async forms.
public import Dispatch
public import FoundationEssentials

extension DataRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response
    /// unserialized (Alamofire's `response(queue:completionHandler:)`): the body as received
    /// (nil when no response arrived; empty bodies are not an error), or the request's
    /// `WickError`. Starts the request.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil, completionHandler: @escaping @Sendable (DataResponse<Data?, WickError>) -> Void
    ) -> Self {
        response(queue: queue, responseSerializer: UnserializedResponse(), completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the body as text (see `StringResponseSerializer`
    /// for how the encoding is chosen), and starts the request.
    /// - Parameters:
    ///   - queue: where `completionHandler` runs; nil (the default) is `session.responseQueue`.
    ///   - dataPreprocessor: what changes a non-empty body before it is decoded.
    ///   - encoding: decode with this encoding, whatever the response's charset; nil (the
    ///     default) follows the charset.
    ///   - emptyResponseCodes: statuses whose empty body gives `""` rather than an error.
    ///   - emptyRequestMethods: methods whose empty body gives `""` rather than an error.
    ///   - completionHandler: receives the text, or the request's or the decoding's `WickError`.
    @discardableResult
    public func responseString(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DataResponse<String, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            responseSerializer: StringResponseSerializer(
                dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the body decoded
    /// into `type` by `decoder` (see `DecodableResponseSerializer`), and starts the request.
    @discardableResult
    public func responseDecodable<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DataResponse<Value, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            responseSerializer: DecodableResponseSerializer<Value>(
                dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The body as text, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameters:
    ///   - automaticallyCancelling: cancel the request when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty body before it is decoded.
    ///   - encoding: decode with this encoding, whatever the response's charset; nil (the
    ///     default) follows the charset.
    ///   - emptyResponseCodes: statuses whose empty body gives `""` rather than an error.
    ///   - emptyRequestMethods: methods whose empty body gives `""` rather than an error.
    public func serializingString(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods
    ) -> DataTask<String> {
        serializingResponse(
            using: StringResponseSerializer(
                dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }

    /// The body decoded into `type`, to await; starts the request.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - automaticallyCancelling: cancel the request when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty body before it is decoded.
    ///   - decoder: what decodes the body (a `JSONDecoder` by default).
    ///   - emptyResponseCodes: statuses whose empty body is not an error (see
    ///     `DecodableResponseSerializer` for the value it gives).
    ///   - emptyRequestMethods: methods whose empty body is not an error.
    public func serializingDecodable<Value: Decodable & Sendable>(
        _ type: Value.Type = Value.self,
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods
    ) -> DataTask<Value> {
        serializingResponse(
            using: DecodableResponseSerializer<Value>(
                dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }
}

/// The "serializer" of `response(queue:completionHandler:)`: the body as received, or the error.
struct UnserializedResponse: DataResponseSerializerProtocol {
    func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?) throws(WickError)
        -> Data?
    {
        if let error { throw error }
        return data
    }
}
