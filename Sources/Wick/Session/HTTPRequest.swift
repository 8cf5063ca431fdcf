// The request as Wick sent it: method, URL, headers (the session's defaults merged in) and body.
public import FoundationEssentials

/// What a `Request` sends, with `Session.Configuration.headers` already merged under the
/// request's own headers. Carried by `DataResponse.request`.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL: `http`, `https`, or a Unix-socket URL (`http+unix`, `https+unix`, `unix`).
    public var url: URL
    /// The Unix domain socket the request goes to instead of the URL's host and port (which
    /// then make only the `Host` field and, for https, the TLS name); nil for TCP. Set by
    /// `Session.request(_:method:headers:body:unixSocketPath:)`; a Unix-socket URL carries its
    /// own path and leaves this nil.
    public var unixSocketPath: String?
    /// Every header field sent, except `Host` and the body's framing (`Content-Length`), which
    /// the transport adds.
    public var headers: HTTPHeaders
    /// The body, sent with `Content-Length`; nil sends none.
    public var body: Data?
    /// The request sends its `UploadRequest`'s body (`Uploadable`) rather than `body`. Cleared
    /// when a redirect turns the request into a GET.
    var carriesUpload = false

    /// A request value; nothing is sent.
    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Data?, unixSocketPath: String? = nil) {
        self.method = method
        self.url = url
        self.unixSocketPath = unixSocketPath
        self.headers = headers
        self.body = body
    }
}
