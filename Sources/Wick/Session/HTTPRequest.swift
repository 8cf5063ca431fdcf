// The request as Wick sent it: method, URL, headers (the session's defaults merged in) and body.
public import FoundationEssentials
import WickTransport

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
            storage.destination = nil
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
            storage.destination = nil
            yield &storage.unixSocketPath
        }
    }

    /// The local address and ports this request's connection is made from, in place of
    /// `Session.Configuration.sourceBinding`; nil uses the session's. Connections from different
    /// sources are never shared.
    public var sourceBinding: SourceBinding? {
        get { storage.sourceBinding }
        _modify {
            makeUnique()
            yield &storage.sourceBinding
        }
    }

    /// Whether this request is hedged: the session's `Configuration.hedging` (the default),
    /// `.disabled`, or `.policy(...)` of its own (see `RequestHedging`). A redirect keeps it.
    public var hedging: RequestHedging {
        get { storage.hedging }
        _modify {
            makeUnique()
            yield &storage.hedging
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

    /// This request's total deadline, from `resume` to the last body byte, in place of the
    /// session's (`Session.Configuration.requestTimeout`, or `streamAndDownloadTimeout` for
    /// streams and downloads); nil: the session's. Read when the request starts, so set it
    /// where the request is built (a `requestModifier`, a `URLRequestConvertible`); an adapter's
    /// change does not move a deadline already running. Past it the request fails with
    /// `SessionTaskFailure.timedOut`, naming the phase.
    public var timeout: Duration? {
        get { storage.timeout }
        _modify {
            makeUnique()
            yield &storage.timeout
        }
    }

    /// `timeout` in seconds, as Alamofire code sets `URLRequest.timeoutInterval`
    /// (`requestModifier: { $0.timeoutInterval = 5 }`); nil: the session's. A value that is not
    /// positive and finite times out at once, as URLSession does with such a value.
    public var timeoutInterval: TimeInterval? {
        get { timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 } }
        set { timeout = newValue.map { $0.isFinite && $0 > 0 ? .nanoseconds(Int64(($0 * 1e9).rounded(.up))) : .zero } }
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

    /// How the request uses the session's response cache (URLRequest's `cachePolicy`):
    /// `.useProtocolCachePolicy` (RFC 9111, the default), `.reloadIgnoringLocalCacheData`,
    /// `.returnCacheDataElseLoad`, `.returnCacheDataDontLoad`. Without a
    /// `Session.Configuration.responseCache` it changes nothing. A redirect keeps it.
    public var cachePolicy: RequestCachePolicy {
        get { storage.cachePolicy }
        _modify {
            makeUnique()
            yield &storage.cachePolicy
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

    /// The transport's reading of `url` and `unixSocketPath`, once `Session.validate(_:)`
    /// accepted them, so that the send does not read the URL again; nil before that, and again
    /// after either changes.
    var checkedDestination: TransportDestination? { storage.destination }

    /// Keeps `destination`, read from this value's `url` and `unixSocketPath`, when this value
    /// holds its box alone. A shared box may be read on other threads, so it is left as it is
    /// (the send then reads the URL itself).
    mutating func keep(_ destination: TransportDestination) {
        guard isKnownUniquelyReferenced(&storage) else { return }
        storage.destination = destination
    }

    private var storage: Storage

    /// A request value; nothing is sent. `HTTPRequest(url:)` is a GET without fields or body,
    /// as `URLRequest(url:)` is.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
        unixSocketPath: String? = nil
    ) {
        storage = Storage(
            method: method, url: url, unixSocketPath: unixSocketPath, headers: headers, body: body,
            carriesUpload: false,
            timeout: nil, httpShouldHandleCookies: true, cachePolicy: .useProtocolCachePolicy)
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
        @exclusivity(unchecked) var sourceBinding: SourceBinding?
        @exclusivity(unchecked) var hedging = RequestHedging.sessionPolicy
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var carriesUpload: Bool
        @exclusivity(unchecked) var timeout: Duration?
        @exclusivity(unchecked) var httpShouldHandleCookies: Bool
        @exclusivity(unchecked) var cachePolicy: RequestCachePolicy
        /// `checkedDestination`: a function of `url` and `unixSocketPath`, cleared with them.
        @exclusivity(unchecked) var destination: TransportDestination?

        init(
            method: HTTPMethod, url: URL, unixSocketPath: String?, headers: HTTPHeaders, body: Data?,
            carriesUpload: Bool, timeout: Duration?, httpShouldHandleCookies: Bool, cachePolicy: RequestCachePolicy
        ) {
            self.method = method
            self.url = url
            self.unixSocketPath = unixSocketPath
            self.headers = headers
            self.body = body
            self.carriesUpload = carriesUpload
            self.timeout = timeout
            self.httpShouldHandleCookies = httpShouldHandleCookies
            self.cachePolicy = cachePolicy
        }

        func copy() -> Storage {
            let copied = Storage(
                method: method, url: url, unixSocketPath: unixSocketPath, headers: headers, body: body,
                carriesUpload: carriesUpload, timeout: timeout, httpShouldHandleCookies: httpShouldHandleCookies,
                cachePolicy: cachePolicy)
            copied.sourceBinding = sourceBinding
            copied.hedging = hedging
            copied.destination = destination
            return copied
        }
    }
}

extension HTTPRequest: Equatable {
    /// Whether two requests would send the same thing: method, URL, Unix socket, source binding,
    /// header fields (in order), body, timeout, cookie, cache and hedging settings. Values sharing one box
    /// are equal at once.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.method == rhs.method && lhs.url == rhs.url && lhs.unixSocketPath == rhs.unixSocketPath
            && lhs.sourceBinding == rhs.sourceBinding
            && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.timeout == rhs.timeout
            && lhs.carriesUpload == rhs.carriesUpload && lhs.httpShouldHandleCookies == rhs.httpShouldHandleCookies
            && lhs.cachePolicy == rhs.cachePolicy && lhs.hedging == rhs.hedging
    }
}
