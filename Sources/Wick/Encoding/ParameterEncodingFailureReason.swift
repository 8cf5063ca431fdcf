// Why a `ParameterEncoding` (URLEncoding, JSONEncoding) or `JSONParameterEncoder` failed.

/// Why parameters could not be encoded into a request (`WickError.parameterEncodingFailed`).
public enum ParameterEncodingFailureReason: Sendable, CustomStringConvertible {
    /// The request's URL could not be rebuilt with the encoded query (`URLComponents` made none from it).
    case missingURL
    /// The parameters could not be written as JSON: `error` is a `JSONEncoding.Error` (a value JSON
    /// cannot represent, a NaN or infinite number) or the `JSONEncoder`'s `EncodingError`.
    case jsonEncodingFailed(error: any Error)
    /// A `ParameterEncoding` of your own failed with `error`.
    case customEncodingFailed(error: any Error)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .missingURL: "the request's URL could not be rebuilt with the encoded query"
        case .jsonEncodingFailed(let error): "the parameters could not be encoded as JSON: \(error)"
        case .customEncodingFailed(let error): "the custom parameter encoding failed: \(error)"
        }
    }
}
