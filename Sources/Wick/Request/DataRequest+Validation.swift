// Alamofire's built-in validations: acceptable status codes and content types.
extension DataRequest {
    /// Fails the request with `responseValidationFailed(reason: .unacceptableStatusCode(code:))`
    /// unless the final response's status is in `acceptableStatusCodes`.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        appendValidation { _, response in
            Self.validate(statusCode: response.status.rawValue, acceptable: acceptableStatusCodes)
        }
        return self
    }

    /// Fails the request unless the final response's `Content-Type` matches one of
    /// `acceptableContentTypes` (evaluated for each response), which may use the wildcards
    /// `type/*`, `*/subtype` and `*/*`; parameters (`; charset=...`) are ignored and the match is
    /// case-insensitive. As in Alamofire, a response with an empty body passes, and one without a
    /// (parsable) `Content-Type` passes only if `*/*` is acceptable.
    /// The failures are `responseValidationFailed` with `.missingContentType` or
    /// `.unacceptableContentType` (the acceptable types sorted; the response's type without its
    /// parameters, lowercased).
    @discardableResult
    public func validate(contentType acceptableContentTypes: @autoclosure @escaping @Sendable () -> [String]) -> Self {
        appendValidation { _, response in
            guard !response.body.isEmpty else { return .success(()) }
            return Self.validate(
                contentType: response.headers.value(for: "Content-Type"), acceptable: acceptableContentTypes())
        }
        return self
    }

    /// Validates the status (`200..<300`) and the `Content-Type` against the request's `Accept`
    /// field (`*/*` when it has none), as `validate(statusCode:)` and `validate(contentType:)`.
    @discardableResult
    public func validate() -> Self {
        appendValidation { _, response in
            Self.validate(statusCode: response.status.rawValue, acceptable: 200..<300)
        }
        appendValidation { request, response in
            guard !response.body.isEmpty else { return .success(()) }
            return Self.validate(
                contentType: response.headers.value(for: "Content-Type"), acceptable: Self.acceptedTypes(of: request))
        }
        return self
    }

    /// The media types `request`'s `Accept` field lists (`*/*` when it has none), for
    /// `validate()`.
    static func acceptedTypes(of request: HTTPRequest?) -> [String] {
        let accept = request?.headers.value(for: "Accept").map { field in
            field.split(separator: ",").map { String($0.drop { $0 == " " }) }
        }
        return accept ?? ["*/*"]
    }

    /// The status-code check.
    static func validate(statusCode: Int, acceptable: some Sequence<Int>) -> Result<Void, WickError> {
        acceptable.contains(statusCode)
            ? .success(()) : .failure(.responseValidationFailed(reason: .unacceptableStatusCode(code: statusCode)))
    }

    /// The content-type check, for a response with a body.
    static func validate(contentType: String?, acceptable: [String]) -> Result<Void, WickError> {
        let acceptableTypes = acceptable.compactMap { MIMEType($0) }
        guard let contentType, let actual = MIMEType(contentType) else {
            if acceptableTypes.contains(where: \.isWildcard) { return .success(()) }
            return .failure(
                .responseValidationFailed(reason: .missingContentType(acceptableContentTypes: acceptable.sorted())))
        }
        if acceptableTypes.contains(where: { $0.matches(actual) }) { return .success(()) }
        return .failure(
            .responseValidationFailed(
                reason: .unacceptableContentType(
                    acceptableContentTypes: acceptable.sorted(), responseContentType: "\(actual.type)/\(actual.subtype)"
                )))
    }
}
