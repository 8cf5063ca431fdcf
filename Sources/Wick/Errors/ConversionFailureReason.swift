// Why a value could not be converted between Wick's HTTP vocabulary and another library's.

/// Why a request, response or field could not be converted between Wick's types and
/// swift-http-types' (`WickError.conversionFailed`). Each names the offending part so it can
/// be fixed at its source.
public enum ConversionFailureReason: Sendable, Equatable, CustomStringConvertible {
    /// A field name is not an RFC 9110 token, which swift-http-types' `HTTPField.Name` requires.
    case invalidFieldName(String)
    /// A method is not an RFC 9110 token.
    case invalidMethod(String)
    /// A request lacks a part a Wick request needs for its URL (`scheme`, `authority`), or its
    /// parts do not make a URL.
    case invalidRequestTarget(scheme: String?, authority: String?, path: String?)
    /// A status outside 000–999, which swift-http-types cannot hold.
    case invalidStatus(Int)
    /// A request body handed over as a stream (an OpenAPI `HTTPBody`) is longer than the limit
    /// the transport collects it up to.
    case requestBodyTooLarge(limit: Int)

    /// What was wrong, for people.
    public var description: String {
        switch self {
        case .invalidFieldName(let name): "the field name \"\(name)\" is not a token"
        case .invalidMethod(let method): "the method \"\(method)\" is not a token"
        case .invalidRequestTarget(let scheme, let authority, let path):
            "scheme \(scheme ?? "(none)"), authority \(authority ?? "(none)") and path \(path ?? "(none)") do not make an http or https URL"
        case .invalidStatus(let status): "the status \(status) is not a three-digit code"
        case .requestBodyTooLarge(let limit): "the request body is longer than the limit of \(limit) bytes"
        }
    }
}
