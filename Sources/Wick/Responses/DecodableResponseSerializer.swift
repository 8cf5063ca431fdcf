// The body decoded into a Decodable type (JSON by default), with Alamofire's empty-body rules.
public import FoundationEssentials

/// Decodes the body, after `dataPreprocessor`, into `T` with `decoder` (a `JSONDecoder` by
/// default) (Alamofire's `DecodableResponseSerializer`). An empty body is an error
/// (`.inputDataNilOrZeroLength`) unless the status or method allows it; then the value is
/// `T.emptyValue()` when `T` is an `EmptyResponse` (such as `Empty`), else the failure is
/// `.invalidEmptyResponse(type:)`.
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ResponseSerializer {
    /// What changes a non-empty body first.
    public let dataPreprocessor: any DataPreprocessor
    /// What decodes the body.
    public let decoder: any DataDecoder
    /// Statuses whose empty body is not an error.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose empty body is not an error.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// A serializer with these settings.
    public init(
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer.defaultEmptyRequestMethods
    ) {
        self.dataPreprocessor = dataPreprocessor
        self.decoder = decoder
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The decoded value.
    /// - Throws: `error` when given; `responseSerializationFailed` with
    ///   `.inputDataNilOrZeroLength`, `.invalidEmptyResponse(type:)`, or
    ///   `.decodingFailed(error:)` with the decoder's error; the preprocessor's error.
    public func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?)
        throws(WickError)
        -> T
    {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyResponseAllowed(request: request, response: response) else {
                throw .responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            guard let emptyType = T.self as? any EmptyResponse.Type, let empty = emptyType.emptyValue() as? T else {
                throw .responseSerializationFailed(reason: .invalidEmptyResponse(type: "\(T.self)"))
            }
            return empty
        }
        let body = try preprocessed(data)
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw .responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

extension ResponseSerializer {
    /// A `DecodableResponseSerializer` for `type`, for
    /// `response(responseSerializer: .decodable(of: User.self))`.
    public static func decodable<T: Decodable & Sendable>(
        of type: T.Type,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods
    ) -> DecodableResponseSerializer<T> where Self == DecodableResponseSerializer<T> {
        DecodableResponseSerializer(
            dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
            emptyRequestMethods: emptyRequestMethods)
    }
}
