// Turning a finished response into a value: the serializer protocols and the Data serializer.
public import FoundationEssentials

/// Turns the parts of a finished data request into a value (Alamofire's
/// `DataResponseSerializerProtocol`).
public protocol DataResponseSerializerProtocol<SerializedObject>: Sendable {
    /// What the serializer produces.
    associatedtype SerializedObject: Sendable

    /// The value for a response, or an error.
    /// - Parameter error: the transport's error, if the request failed; a serializer normally
    ///   rethrows it.
    /// - Throws: `error` when given, else a `WickError` (or any error, which the request reports
    ///   as `responseSerializationFailed(reason: .customSerializationFailed)`).
    func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?) throws
        -> SerializedObject
}

/// A serializer that knows when an empty body is acceptable (Alamofire's `ResponseSerializer`).
public protocol ResponseSerializer: DataResponseSerializerProtocol {
    /// Statuses whose empty body is not an error.
    var emptyResponseCodes: Set<Int> { get }
    /// Methods whose empty body is not an error.
    var emptyRequestMethods: Set<HTTPMethod> { get }
}

extension ResponseSerializer {
    /// `204 No Content` and `205 Reset Content`.
    public static var defaultEmptyResponseCodes: Set<Int> { [204, 205] }
    /// `HEAD`.
    public static var defaultEmptyRequestMethods: Set<HTTPMethod> { [.head] }

    /// Whether an empty body is fine for this request and response.
    public func emptyResponseAllowed(request: HTTPRequest?, response: HTTPResponse?) -> Bool {
        if let method = request?.method, emptyRequestMethods.contains(method) { return true }
        if let status = response?.statusCode, emptyResponseCodes.contains(status) { return true }
        return false
    }
}

/// Hands the body over as `Data`. An empty body is an error
/// (`responseSerializationFailed(reason: .inputDataNilOrZeroLength)`) unless the status or the
/// method allows it, as in Alamofire.
public struct DataResponseSerializer: ResponseSerializer {
    /// Statuses whose empty body is not an error.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose empty body is not an error.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// A serializer with the given exceptions for empty bodies.
    public init(
        emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods
    ) {
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The body, or an empty `Data` where allowed.
    /// - Throws: `error` when given; `responseSerializationFailed(.inputDataNilOrZeroLength)`.
    public func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?) throws(WickError)
        -> Data
    {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyResponseAllowed(request: request, response: response) else {
                throw .responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            return Data()
        }
        return data
    }
}
