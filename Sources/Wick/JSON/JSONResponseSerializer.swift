// The body as a JSONValue: Alamofire's JSONResponseSerializer, on Wick's own strict parser.
public import FoundationEssentials

/// Parses the body, after `dataPreprocessor`, into a `JSONValue` with `JSONParser` (Alamofire's
/// `JSONResponseSerializer`, which uses `JSONSerialization`; FoundationEssentials has none, and
/// its `JSONDecoder` accepts trailing commas). An empty body gives `.null` where the status or
/// method allows it (Alamofire gives `NSNull()`), else
/// `responseSerializationFailed(reason: .inputDataNilOrZeroLength)`.
public struct JSONResponseSerializer: ResponseSerializer {
    /// What changes a non-empty body first.
    public let dataPreprocessor: any DataPreprocessor
    /// Statuses whose empty body is not an error.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose empty body is not an error.
    public let emptyRequestMethods: Set<HTTPMethod>
    /// How deeply arrays and objects may nest before the body is refused.
    public let maximumDepth: Int

    /// A serializer with these settings.
    public init(
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
        maximumDepth: Int = JSONParser.defaultMaximumDepth
    ) {
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
        self.maximumDepth = maximumDepth
    }

    /// The parsed body.
    /// - Throws: `error` when given; `responseSerializationFailed` with
    ///   `.inputDataNilOrZeroLength` or `.jsonSerializationFailed(error:)` naming the byte at
    ///   which the body stopped being JSON; the preprocessor's error.
    public func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?)
        throws(WickError) -> JSONValue
    {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyResponseAllowed(request: request, response: response) else {
                throw .responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            return .null
        }
        let body = try preprocessed(data)
        do {
            return try JSONParser.parse(body, maximumDepth: maximumDepth)
        } catch {
            throw .responseSerializationFailed(reason: .jsonSerializationFailed(error: error))
        }
    }
}

extension ResponseSerializer where Self == JSONResponseSerializer {
    /// A `JSONResponseSerializer`, for `response(responseSerializer: .json())`.
    public static func json(
        dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods
    ) -> JSONResponseSerializer {
        JSONResponseSerializer(
            dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
            emptyRequestMethods: emptyRequestMethods)
    }
}
