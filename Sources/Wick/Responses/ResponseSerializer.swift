// Turning a finished response into a value: the serializer protocols and the Data serializer.
public import FoundationEssentials

/// Turns the parts of a finished data request into a value (Alamofire's
/// `DataResponseSerializerProtocol`).
public protocol DataResponseSerializerProtocol<SerializedObject>: Sendable {
    /// What the serializer produces.
    associatedtype SerializedObject: Sendable

    /// The value for a response, or an error.
    /// - Parameters:
    ///   - request: the last request sent; nil when it could not be built.
    ///   - response: the response's head; nil when none arrived.
    ///   - data: the body; nil when no response arrived or its body was empty.
    ///   - error: the transport's error, if the request failed; a serializer normally rethrows it.
    /// - Throws: `error` when given, else a `WickError` (or any error, which the request reports
    ///   as `responseSerializationFailed(reason: .customSerializationFailed)`).
    func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?) throws
        -> SerializedObject
}

/// A serializer that knows when an empty body is acceptable and preprocesses a non-empty one
/// (Alamofire's `ResponseSerializer`). It serializes data requests and, reading the file,
/// downloads (`DownloadResponseSerializerProtocol`'s `serializeDownload`).
public protocol ResponseSerializer<SerializedObject>: DataResponseSerializerProtocol
        & DownloadResponseSerializerProtocol
{
    /// What changes a non-empty body before it is serialized.
    var dataPreprocessor: any DataPreprocessor { get }
    /// Statuses whose empty body is not an error.
    var emptyResponseCodes: Set<Int> { get }
    /// Methods whose empty body is not an error.
    var emptyRequestMethods: Set<HTTPMethod> { get }
}

extension ResponseSerializer {
    /// `PassthroughPreprocessor`.
    public static var defaultDataPreprocessor: any DataPreprocessor { PassthroughPreprocessor() }
    /// `204 No Content` and `205 Reset Content`.
    public static var defaultEmptyResponseCodes: Set<Int> { EmptyBodyDefaults.responseCodes }
    /// `HEAD`.
    public static var defaultEmptyRequestMethods: Set<HTTPMethod> { EmptyBodyDefaults.requestMethods }

    /// Whether an empty body is fine for this request and response.
    public func emptyResponseAllowed(request: HTTPRequest?, response: HTTPResponse?) -> Bool {
        if let method = request?.method, emptyRequestMethods.contains(method) { return true }
        if let status = response?.statusCode, emptyResponseCodes.contains(status) { return true }
        return false
    }

    /// `Self.defaultDataPreprocessor`, for serializers that do not store one.
    public var dataPreprocessor: any DataPreprocessor { Self.defaultDataPreprocessor }
    /// `Self.defaultEmptyResponseCodes`, for serializers that do not store them.
    public var emptyResponseCodes: Set<Int> { Self.defaultEmptyResponseCodes }
    /// `Self.defaultEmptyRequestMethods`, for serializers that do not store them.
    public var emptyRequestMethods: Set<HTTPMethod> { Self.defaultEmptyRequestMethods }

    /// `data` after `dataPreprocessor`.
    /// - Throws: the preprocessor's `WickError` as it is, any other error as
    ///   `responseSerializationFailed(reason: .customSerializationFailed(error:))`.
    public func preprocessed(_ data: Data) throws(WickError) -> Data {
        do {
            return try dataPreprocessor.preprocess(data)
        } catch let error as WickError {
            throw error
        } catch {
            throw .responseSerializationFailed(reason: .customSerializationFailed(error: error))
        }
    }
}

/// Hands the body over as `Data`, after `dataPreprocessor`. An empty body is an error
/// (`responseSerializationFailed(reason: .inputDataNilOrZeroLength)`) unless the status or the
/// method allows it, as in Alamofire.
public struct DataResponseSerializer: ResponseSerializer {
    /// What changes a non-empty body first.
    public let dataPreprocessor: any DataPreprocessor
    /// Statuses whose empty body is not an error.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose empty body is not an error.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// A serializer with the given exceptions for empty bodies.
    public init(
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) {
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The preprocessed body, or an empty `Data` where allowed.
    /// - Throws: `error` when given; `responseSerializationFailed(.inputDataNilOrZeroLength)`;
    ///   the preprocessor's error (see `preprocessed(_:)`).
    public func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?)
        throws(WickError)
        -> Data
    {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyResponseAllowed(request: request, response: response) else {
                throw .responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            return Data()
        }
        return try preprocessed(data)
    }
}

extension ResponseSerializer where Self == DataResponseSerializer {
    /// `DataResponseSerializer()`, for `response(responseSerializer: .data)`.
    public static var data: DataResponseSerializer { DataResponseSerializer() }

    /// A `DataResponseSerializer` with these settings.
    public static func data(
        dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) -> DataResponseSerializer {
        DataResponseSerializer(
            dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
            emptyRequestMethods: emptyRequestMethods)
    }
}

/// The default empty-body sets, built once (a set literal in a computed property allocated a
/// new set for every serializer made with the defaults).
extension DataResponseSerializer {
    /// The serializer `serializingData()` uses with every default: shared, so a task made with
    /// the defaults captures none.
    static let passthrough = DataResponseSerializer()

    /// Whether these are the default exceptions for empty bodies: the same sets, found by their
    /// storage first (the defaults are shared constants), so the usual call compares no element.
    static func hasDefaultEmptyBodyRules(emptyResponseCodes: Set<Int>, emptyRequestMethods: Set<HTTPMethod>) -> Bool {
        emptyResponseCodes == EmptyBodyDefaults.responseCodes && emptyRequestMethods == EmptyBodyDefaults.requestMethods
    }
}

private enum EmptyBodyDefaults {
    static let responseCodes: Set<Int> = [204, 205]
    static let requestMethods: Set<HTTPMethod> = [.head]
}
