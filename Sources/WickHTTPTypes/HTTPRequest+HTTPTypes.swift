// Requests both ways: Wick's HTTPRequest and swift-http-types' HTTPRequest.
public import FoundationEssentials
public import HTTPTypes
public import Wick

extension HTTPTypes.HTTPRequest {
    /// `request` as a swift-http-types request: the method, the URL's scheme, authority
    /// (`host[:port]`) and path with its query (percent-encoding kept), and the fields. What
    /// swift-http-types has no place for is left behind: the body, the timeout, the Unix
    /// socket path, the cookie setting, and user information in the URL.
    /// - Throws: `WickError.conversionFailed` for a method or field name that is not a token.
    public init(_ request: Wick.HTTPRequest) throws(WickError) {
        guard let method = HTTPTypes.HTTPRequest.Method(request.method.rawValue) else {
            throw .conversionFailed(reason: .invalidMethod(request.method.rawValue))
        }
        let url = request.url
        var authority: String?
        if let host = url.host(percentEncoded: true) {
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            authority = url.port.map { "\(bracketed):\($0)" } ?? bracketed
        }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?\(query)" }
        self.init(
            method: method, scheme: url.scheme, authority: authority, path: path,
            headerFields: try HTTPFields(request.headers))
    }
}

extension Wick.HTTPRequest {
    /// `request` as a Wick request to `scheme://authority path`, with `body`.
    /// - Throws: `WickError.conversionFailed(.invalidRequestTarget)` when the request has no
    ///   http or https scheme or no authority, or its parts do not make a URL.
    public init(_ request: HTTPTypes.HTTPRequest, body: Data? = nil) throws(WickError) {
        let scheme = request.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let authority = request.authority, !authority.isEmpty,
            let url = URL(string: "\(scheme!)://\(authority)\(request.path ?? "/")")
        else {
            throw .conversionFailed(
                reason: .invalidRequestTarget(scheme: request.scheme, authority: request.authority, path: request.path))
        }
        self.init(
            method: HTTPMethod(rawValue: request.method.rawValue), url: url, headers: HTTPHeaders(request.headerFields),
            body: body)
    }
}
