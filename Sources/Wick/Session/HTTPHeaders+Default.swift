// The header fields every Session request carries unless overridden.
extension HTTPHeaders {
    /// `Accept-Language: en;q=1.0` and `User-Agent: Wick/0.1 (Linux)`. There is no
    /// `Accept-Encoding`: `Session` does not decode response bodies yet, so it does not ask for
    /// encoded ones (a request that sets `Accept-Encoding` itself gets the body as sent).
    public static var `default`: HTTPHeaders {
        [.defaultAcceptLanguage, .defaultUserAgent]
    }
}

extension HTTPHeader {
    /// `Accept-Language: en;q=1.0`. Linux daemons have no user locale to ask, so this is fixed.
    public static var defaultAcceptLanguage: HTTPHeader { HTTPHeader(name: "Accept-Language", value: "en;q=1.0") }
    /// `User-Agent: Wick/0.1 (Linux)`.
    public static var defaultUserAgent: HTTPHeader { HTTPHeader(name: "User-Agent", value: "Wick/0.1 (Linux)") }
}
