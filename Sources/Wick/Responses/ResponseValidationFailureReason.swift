// Why a validation refused a response (WickError.responseValidationFailed), as in Alamofire.
/// Why a validation refused a response (`WickError.responseValidationFailed`).
public enum ResponseValidationFailureReason: Sendable, CustomStringConvertible {
    /// The response has no `Content-Type` while the request accepts only `acceptableContentTypes`.
    case missingContentType(acceptableContentTypes: [String])
    /// The response's `Content-Type` is not one of `acceptableContentTypes`.
    case unacceptableContentType(acceptableContentTypes: [String], responseContentType: String)
    /// The status code is not an acceptable one.
    case unacceptableStatusCode(code: Int)
    /// A custom validation closure failed with `error`.
    case customValidationFailed(error: any Error)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .missingContentType(let acceptable):
            "the response has no Content-Type; acceptable: \(acceptable.joined(separator: ", "))"
        case .unacceptableContentType(let acceptable, let actual):
            "the Content-Type \(actual) is not acceptable; acceptable: \(acceptable.joined(separator: ", "))"
        case .unacceptableStatusCode(let code): "the status code \(code) is not acceptable"
        case .customValidationFailed(let error): "a validation failed: \(error)"
        }
    }
}
