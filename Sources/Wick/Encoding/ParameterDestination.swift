// Where encoded parameters go: the query or the body, by method or always.

/// Where a form encoder puts its output (`URLEncodedFormParameterEncoder.Destination` and
/// `URLEncoding.Destination`, Alamofire's two enums of the same cases).
public enum ParameterDestination: Sendable {
    /// The query for `GET`, `HEAD` and `DELETE`; the body for every other method.
    case methodDependent
    /// The query, whatever the method.
    case queryString
    /// The body, whatever the method.
    case httpBody

    /// Whether the form goes in the URL for `method`.
    func encodesParametersInURL(for method: HTTPMethod) -> Bool {
        switch self {
        case .methodDependent: method.encodesParametersInURL
        case .queryString: true
        case .httpBody: false
        }
    }
}


extension HTTPMethod {
    /// Whether a method-dependent destination puts parameters in the query: `GET`, `HEAD` and
    /// `DELETE`, whose bodies have no defined meaning (RFC 9110 §9.3); every other method gets a body.
    var encodesParametersInURL: Bool {
        self == .get || self == .head || self == .delete
    }
}
