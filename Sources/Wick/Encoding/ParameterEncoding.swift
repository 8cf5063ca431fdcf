// Alamofire's older parameter form: a `[String: any Sendable]` dictionary and the encodings of it.

/// Parameters as a dictionary: values are strings, numbers, bools, optionals, arrays and nested
/// `[String: ...]` dictionaries (what `URLEncoding` and `JSONEncoding` understand).
public typealias Parameters = [String: any Sendable]

/// Puts a `Parameters` dictionary into an `HTTPRequest`: `URLEncoding` (a query or a form body)
/// and `JSONEncoding` (a JSON body), or your own.
public protocol ParameterEncoding: Sendable {
    /// `request` with `parameters` encoded into it; `request` unchanged when `parameters` is nil.
    /// - Throws: `WickError.parameterEncodingFailed` naming why (a custom encoding should throw
    ///   `.customEncodingFailed(error:)`).
    func encode(_ request: HTTPRequest, with parameters: Parameters?) throws(WickError) -> HTTPRequest
}
