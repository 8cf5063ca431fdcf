// The protocol of encoders that put an Encodable value into a request, as Alamofire's ParameterEncoder.

/// Puts `Encodable` parameters into an `HTTPRequest`: `URLEncodedFormParameterEncoder` (a query
/// or a form body) and `JSONParameterEncoder` (a JSON body), or your own.
public protocol ParameterEncoder: Sendable {
    /// `request` with `parameters` encoded into it; `request` unchanged when `parameters` is nil.
    /// - Throws: `WickError.parameterEncoderFailed` or `WickError.parameterEncodingFailed` naming
    ///   why (Wick's encoders throw nothing else).
    func encode<Parameters: Encodable & Sendable>(
        _ parameters: Parameters?, into request: HTTPRequest
    ) throws(WickError) -> HTTPRequest
}
