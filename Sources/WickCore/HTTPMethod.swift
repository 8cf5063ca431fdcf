// The request method, as Alamofire spells it, with RFC 9110's safety and idempotency facts.

/// An HTTP request method (RFC 9110 §9). Any token is allowed; the common ones are constants.
///
/// Methods are case-sensitive: `HTTPMethod(rawValue: "get")` is a different method from `.get`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// `CONNECT`: establish a tunnel (RFC 9110 §9.3.6).
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `DELETE` (RFC 9110 §9.3.5).
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `GET` (RFC 9110 §9.3.1).
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like GET, but the response never has a body (RFC 9110 §9.3.2).
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS` (RFC 9110 §9.3.7).
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH` (RFC 5789).
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `POST` (RFC 9110 §9.3.3).
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT` (RFC 9110 §9.3.4).
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `QUERY`: a safe request with a body (draft-ietf-httpbis-safe-method-w-body).
    public static let query = HTTPMethod(rawValue: "QUERY")
    /// `TRACE` (RFC 9110 §9.3.8).
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// The method token exactly as it is sent on the wire.
    public let rawValue: String

    /// Creates a method from its token. The token is validated when the request is encoded.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal such as `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The token itself.
    public var description: String { rawValue }

    /// Whether the method is idempotent (RFC 9110 §9.2.2): repeating it has the same effect as
    /// sending it once, so a request that may or may not have reached the server can be replayed.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .trace, .put, .delete, .query: true
        default: false
        }
    }

    /// Whether the method is safe (RFC 9110 §9.2.1): read-only by contract.
    public var isSafe: Bool {
        switch self {
        case .get, .head, .options, .trace, .query: true
        default: false
        }
    }
}
