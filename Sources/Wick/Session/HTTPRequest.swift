// The request as Wick sent it: method, URL, headers (the session's defaults merged in) and body.
public import FoundationEssentials

/// What a `Request` sends, with `Session.Configuration.headers` already merged under the
/// request's own headers. Carried by `DataResponse.request`.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute `http` or `https` URL.
    public var url: URL
    /// Every header field sent, except `Host` and the body's framing (`Content-Length`), which
    /// the transport adds.
    public var headers: HTTPHeaders
    /// The body, sent with `Content-Length`; nil sends none.
    public var body: Data?

    /// A request value; nothing is sent.
    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Data?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
