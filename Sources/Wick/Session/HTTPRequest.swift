// The request as Wick sent it: method, URL, headers (the session's defaults merged in) and body.
public import FoundationEssentials

/// What a `Request` sends, with `Session.Configuration.headers` already merged under the
/// request's own headers. Carried by `DataResponse.request`.
///
/// A value type whose fields live in one shared box, copied on the first change (as `Array`
/// does): a request is handed from the session to its runner, its metrics, its responses and
/// its retries, and each hand-over costs one retain instead of one per field.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod {
        get { storage.method }
        _modify {
            makeUnique()
            yield &storage.method
        }
    }

    /// The absolute URL: `http`, `https`, or a Unix-socket URL (`http+unix`, `https+unix`, `unix`).
    public var url: URL {
        get { storage.url }
        _modify {
            makeUnique()
            yield &storage.url
        }
    }

    /// The Unix domain socket the request goes to instead of the URL's host and port (which
    /// then make only the `Host` field and, for https, the TLS name); nil for TCP. Set by
    /// `Session.request(_:method:headers:body:unixSocketPath:)`; a Unix-socket URL carries its
    /// own path and leaves this nil.
    public var unixSocketPath: String? {
        get { storage.unixSocketPath }
        _modify {
            makeUnique()
            yield &storage.unixSocketPath
        }
    }

    /// Every header field sent, except `Host` and the body's framing (`Content-Length`), which
    /// the transport adds.
    public var headers: HTTPHeaders {
        get { storage.headers }
        _modify {
            makeUnique()
            yield &storage.headers
        }
    }

    /// The body, sent with `Content-Length`; nil sends none.
    public var body: Data? {
        get { storage.body }
        _modify {
            makeUnique()
            yield &storage.body
        }
    }

    /// Whether the session's cookie storage takes part (URLRequest's `httpShouldHandleCookies`):
    /// when true (the default) a request with no `Cookie` field of its own is sent with the
    /// cookies stored for its URL, and the `Set-Cookie` fields of its responses, redirects'
    /// included, are stored. When false the storage is neither read nor written for it. A
    /// redirect keeps the setting; an adapter may change it.
    public var httpShouldHandleCookies: Bool {
        get { storage.httpShouldHandleCookies }
        _modify {
            makeUnique()
            yield &storage.httpShouldHandleCookies
        }
    }

    /// The request sends its `UploadRequest`'s body (`Uploadable`) rather than `body`. Cleared
    /// when a redirect turns the request into a GET.
    var carriesUpload: Bool {
        get { storage.carriesUpload }
        _modify {
            makeUnique()
            yield &storage.carriesUpload
        }
    }

    private var storage: Storage

    /// A request value; nothing is sent.
    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Data?, unixSocketPath: String? = nil) {
        storage = Storage(
            method: method, url: url, unixSocketPath: unixSocketPath, headers: headers, body: body, carriesUpload: false,
            httpShouldHandleCookies: true)
    }

    /// Gives this value a box of its own before a change, when another value shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The fields. Changed only through a value that holds the only reference (`makeUnique`),
    /// so a box that two values share is only ever read: safe to share across threads.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var method: HTTPMethod
        @exclusivity(unchecked) var url: URL
        @exclusivity(unchecked) var unixSocketPath: String?
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var carriesUpload: Bool
        @exclusivity(unchecked) var httpShouldHandleCookies: Bool

        init(
            method: HTTPMethod, url: URL, unixSocketPath: String?, headers: HTTPHeaders, body: Data?,
            carriesUpload: Bool, httpShouldHandleCookies: Bool
        ) {
            self.method = method
            self.url = url
            self.unixSocketPath = unixSocketPath
            self.headers = headers
            self.body = body
            self.carriesUpload = carriesUpload
            self.httpShouldHandleCookies = httpShouldHandleCookies
        }

        func copy() -> Storage {
            Storage(
                method: method, url: url, unixSocketPath: unixSocketPath, headers: headers, body: body,
                carriesUpload: carriesUpload, httpShouldHandleCookies: httpShouldHandleCookies)
        }
    }
}
