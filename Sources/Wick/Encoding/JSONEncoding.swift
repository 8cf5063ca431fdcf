// Encodes a Parameters dictionary (or an array) as a JSON body, as Alamofire's JSONEncoding.
import FoundationEssentials

/// A `ParameterEncoding` that writes `Parameters` as JSON for the request's body, and sets
/// `Content-Type: application/json` unless the request has a `Content-Type`.
///
/// Wick's stand-in for `JSONSerialization` (not in FoundationEssentials) writes strings, bools,
/// every integer and floating-point type, `Decimal`, nil (`null`), arrays and `[String: ...]`
/// dictionaries, with the same text as `JSONSerialization` and `JSONEncoder`: `/` escaped as
/// `\/` unless `.withoutEscapingSlashes`, integral floating-point values without `.0`.
public struct JSONEncoding: ParameterEncoding {
    /// Why a value cannot be written as JSON.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The value at `path` (`$.key[2]`) has a type JSON cannot represent (`type`, as Swift names it).
        case unsupportedValue(path: String, type: String)
        /// The floating-point value at `path` is NaN or infinite, which JSON cannot represent.
        case nonFiniteNumber(path: String)
        /// `encode(_:withJSONObject:)` was given something other than an array or a dictionary.
        case invalidTopLevelObject(type: String)

        /// What went wrong, for people.
        public var description: String {
            switch self {
            case .unsupportedValue(let path, let type): "the value at \(path) (\(type)) cannot be written as JSON"
            case .nonFiniteNumber(let path): "the number at \(path) is NaN or infinite, which JSON cannot represent"
            case .invalidTopLevelObject(let type): "a JSON body must be an array or an object, not \(type)"
            }
        }
    }

    /// How the JSON is written.
    public struct WritingOptions: OptionSet, Sendable {
        /// The options' bits.
        public let rawValue: Int

        /// An options value from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Indented two spaces per level, one member or element per line, `"key" : value`.
        public static let prettyPrinted = WritingOptions(rawValue: 1 << 0)
        /// Object keys in ascending order (otherwise in the dictionary's order, which varies
        /// from run to run).
        public static let sortedKeys = WritingOptions(rawValue: 1 << 1)
        /// `/` written as it is rather than `\/`.
        public static let withoutEscapingSlashes = WritingOptions(rawValue: 1 << 2)
    }

    /// Compact JSON.
    public static var `default`: JSONEncoding { JSONEncoding() }
    /// Pretty-printed JSON.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// How the JSON is written.
    public let options: WritingOptions

    /// An encoding writing with `options`.
    public init(options: WritingOptions = []) {
        self.options = options
    }

    /// `request` with the JSON of `parameters` as its body (replacing any body), and
    /// `Content-Type: application/json` unless it has a `Content-Type`; unchanged when
    /// `parameters` is nil.
    /// - Throws: `WickError.parameterEncodingFailed(reason: .jsonEncodingFailed(error:))` with a
    ///   `JSONEncoding.Error` naming the value JSON cannot represent.
    public func encode(_ request: HTTPRequest, with parameters: Parameters?) throws(WickError) -> HTTPRequest {
        guard let parameters else { return request }
        return try encode(request, writing: parameters)
    }

    /// `request` with the JSON of `jsonObject` (an array or a `[String: ...]` dictionary) as its
    /// body, as `encode(_:with:)`; unchanged when `jsonObject` is nil.
    /// - Throws: `WickError.parameterEncodingFailed(reason: .jsonEncodingFailed(error:))` with
    ///   `JSONEncoding.Error.invalidTopLevelObject` for any other top-level value, or naming a
    ///   value JSON cannot represent.
    public func encode(_ request: HTTPRequest, withJSONObject jsonObject: (any Sendable)? = nil) throws(WickError)
        -> HTTPRequest
    {
        guard let jsonObject, let object = unwrappedParameterValue(jsonObject) else { return request }
        guard object is [String: Any] || object is [Any] else {
            throw .parameterEncodingFailed(
                reason: .jsonEncodingFailed(error: Error.invalidTopLevelObject(type: "\(type(of: object))")))
        }
        return try encode(request, writing: object)
    }

    private func encode(_ request: HTTPRequest, writing object: Any) throws(WickError) -> HTTPRequest {
        var writer = JSONWriter(options: options)
        do {
            try writer.write(object, path: "$", depth: 0)
        } catch {
            throw .parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
        var request = request
        request.body = Data(writer.bytes)
        request.setContentTypeIfAbsent("application/json")
        return request
    }
}
