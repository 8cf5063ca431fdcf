// The value an allowed empty body decodes to: Alamofire's Empty and EmptyResponse.
/// A type with a value for an empty body, which `DecodableResponseSerializer` returns when the
/// status or method allows an empty body (Alamofire's `EmptyResponse`).
public protocol EmptyResponse {
    /// The value that stands for an empty body.
    static func emptyValue() -> Self
}

/// A response without content: decode into `Empty` when a body is not expected (a `204`, a
/// `HEAD`), as in Alamofire. Encodes and decodes as `{}`.
public struct Empty: Codable, Sendable, Equatable, EmptyResponse {
    /// The one value.
    public static let value = Empty()

    /// `Empty.value`.
    public static func emptyValue() -> Empty { value }
}
