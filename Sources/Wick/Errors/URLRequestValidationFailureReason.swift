// Why a request that was built is not sent: Alamofire's URLRequest validation.
public import FoundationEssentials

/// Why `WickError.urlRequestValidationFailed` refused a request before sending it, as
/// Alamofire's `AFError.URLRequestValidationFailureReason`.
public enum URLRequestValidationFailureReason: Sendable, CustomStringConvertible {
    /// A GET request carries a body (these bytes): RFC 9110 §9.3.1 gives such content no
    /// meaning, and servers and proxies may reject or drop it, so neither URLSession nor Wick
    /// sends one.
    case bodyDataInGETRequest(Data)

    /// What was refused, for people.
    public var description: String {
        switch self {
        case .bodyDataInGETRequest(let body): "a GET request must not carry a body (\(body.count) bytes)"
        }
    }
}
