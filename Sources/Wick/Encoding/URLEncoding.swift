// Encodes a Parameters dictionary as a URL-encoded query or form body, as Alamofire's URLEncoding.
import FoundationEssentials

/// A `ParameterEncoding` that writes `Parameters` as a URL-encoded form (`a=1&b%5Bc%5D=2`), into
/// the URL's query (after any query it has) or as the body, by `destination`. A body gets
/// `Content-Type: application/x-www-form-urlencoded; charset=utf-8` unless the request has a
/// `Content-Type`.
///
/// Values: a nested `[String: ...]` dictionary becomes `key[nested]` pairs, an array `key[]`
/// pairs (see `ArrayEncoding`), a `Bool` goes through `BoolEncoding`, `nil` leaves the pair out,
/// anything else is written as its `description`. Keys are sorted at every level (Alamofire
/// sorts only the top level, so its nested order varies from run to run). Keys and values are
/// escaped with `URLQueryCharacterSet.afURLQueryAllowed`.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded form goes (`ParameterDestination`, shared with `URLEncodedFormParameterEncoder`).
    public typealias Destination = ParameterDestination

    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=1&key[]=2` (the default).
        case brackets
        /// `key=1&key=2`.
        case noBrackets
        /// `key[0]=1&key[1]=2`, as jQuery and Node.js write them.
        case indexInBrackets
        /// The key of element `index` of the array under `key`, as the closure makes it.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        /// The key of element `index` of the array under `key`.
        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            case .custom(let encoding): encoding(key, index)
            }
        }
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        /// `value` as text.
        func encode(value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// A `.methodDependent` encoding.
    public static var `default`: URLEncoding { URLEncoding() }
    /// A `.queryString` encoding.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
    /// An `.httpBody` encoding.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where the form goes.
    public let destination: Destination
    /// How array elements are keyed.
    public let arrayEncoding: ArrayEncoding
    /// How `Bool` values are written.
    public let boolEncoding: BoolEncoding

    /// An encoding with the given settings; the defaults are Alamofire's.
    public init(
        destination: Destination = .methodDependent,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// `request` with `parameters` as a form: appended to the URL's query (left as it is when
    /// `parameters` is empty), or as the body (replacing any body, and setting the form
    /// `Content-Type` unless one is set). Unchanged when `parameters` is nil.
    /// - Throws: `WickError.parameterEncodingFailed(reason: .missingURL)` when the URL cannot be
    ///   rebuilt with the query.
    public func encode(_ request: HTTPRequest, with parameters: Parameters?) throws(WickError) -> HTTPRequest {
        guard let parameters else { return request }
        var request = request
        if destination.encodesParametersInURL(for: request.method) {
            let query = query(parameters)
            guard !query.isEmpty else { return request }
            guard let url = request.url(appendingPercentEncodedQuery: query) else {
                throw .parameterEncodingFailed(reason: .missingURL)
            }
            request.url = url
        } else {
            request.body = Data(query(parameters).utf8)
            request.setContentTypeIfAbsent("application/x-www-form-urlencoded; charset=utf-8")
        }
        return request
    }

    /// The escaped `(key, value)` pairs for `value` under `key`, recursing into dictionaries
    /// (keys sorted) and arrays; nil values give no pair.
    public func queryComponents(fromKey key: String, value: Any) -> [(String, String)] {
        guard let value = unwrappedParameterValue(value) else { return [] }
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.sorted { $0.key < $1.key }.flatMap { nestedKey, nestedValue in
                queryComponents(fromKey: "\(key)[\(nestedKey)]", value: nestedValue)
            }
        case let array as [Any]:
            return array.enumerated().flatMap { index, element in
                queryComponents(fromKey: arrayEncoding.encode(key: key, atIndex: index), value: element)
            }
        case let bool as Bool:
            return [(escape(key), escape(boolEncoding.encode(value: bool)))]
        default:
            return [(escape(key), escape("\(value)"))]
        }
    }

    /// `string` percent-escaped for a query key or value: everything but
    /// `URLQueryCharacterSet.afURLQueryAllowed` (a space is `%20`).
    public func escape(_ string: String) -> String {
        URLQueryCharacterSet.afURLQueryAllowed.escape(string)
    }

    /// The form for `parameters`, top-level keys sorted.
    private func query(_ parameters: Parameters) -> String {
        parameters.sorted { $0.key < $1.key }
            .flatMap { key, value in queryComponents(fromKey: key, value: value) }
            .map { "\($0)=\($1)" }
            .joined(separator: "&")
    }
}
