// Making requests: Session.request's forms, the headers merged in, and the URL checked.
public import FoundationEssentials
internal import WickHTTP1

extension Session {
    /// A closure that changes the request as created from the call's arguments, before its
    /// parameters are encoded, before the session's header fields are added under its own, and
    /// before the adapters (Alamofire's `RequestModifier`). A thrown `WickError` fails the request
    /// as it is; any other error as `createURLRequestFailed`, the error kept.
    public typealias RequestModifier = @Sendable (inout HTTPRequest) throws -> Void

    /// `request` changed by `modifier` (nil: as it is).
    /// - Throws: what `modifier` throws, as a `WickError` (`createURLRequestFailed` for others).
    static func modified(_ request: consuming HTTPRequest, by modifier: RequestModifier?) throws(WickError)
        -> HTTPRequest
    {
        guard let modifier else { return request }
        var modified = request
        do {
            try modifier(&modified)
        } catch {
            throw (error as? WickError) ?? .createURLRequestFailed(error: error)
        }
        return modified
    }

    /// Creates a request; it starts when its first response handler (`responseData`,
    /// `serializingData`) is added (unless `shouldAutomaticallyResume` or else
    /// `startRequestsImmediately` says otherwise), or on `resume()`.
    /// An invalid URL does not throw here: the request finishes with `WickError.invalidURL`.
    ///
    /// Besides `http` and `https`, the URL may name a Unix domain socket, in async-http-client's
    /// spellings: `http+unix://%2Frun%2Fapp.sock/path?query` (the authority is the
    /// percent-encoded socket path, the rest the target), `https+unix://...` (TLS over the
    /// socket, verified for `localhost`), or `unix:///run/app.sock` (target `/`). The `Host`
    /// field is then `localhost`.
    /// - Parameter convertible: the URL (any `URLConvertible`: a `String`, `URL`, `URLComponents`).
    /// - Parameter method: the request's method (GET by default).
    /// - Parameter headers: fields that replace the configuration's by name (every field is
    ///   kept, so a name may repeat).
    /// - Parameter body: sent with `Content-Length`.
    /// - Parameter interceptor: this request's adapter and retrier, used with the session's.
    /// - Parameter shouldAutomaticallyResume: whether adding the first handler starts the
    ///   request (nil: the session's `startRequestsImmediately`); every form of `request`,
    ///   `streamRequest`, `download` and `upload` takes it (see `Request.shouldAutomaticallyResume`).
    /// - Parameter requestModifier: changes the request as created.
    // A `String` URL, the common case, gets an entry point of its own that other modules call
    // (`exported`): through the generic one, the memo of the last URL string was reached by a
    // run-time cast of the URL to `String` on every request.
    @_specialize(exported:true,where Convertible == String)
    public func request<Convertible: URLConvertible>(
        _ convertible: Convertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> DataRequest {
        let built = Result { () throws(WickError) in
            HTTPRequest(method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: body)
        }
        return makeRequest(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Creates a request whose `Encodable` parameters `encoder` puts in the query or the body
    /// (Alamofire's `request(_:method:parameters:encoder:...)`). The default,
    /// `URLEncodedFormParameterEncoder.default`, puts them in the query for GET, HEAD and DELETE
    /// and in a form body otherwise; `JSONParameterEncoder.default` sends JSON. An encoding
    /// failure finishes the request with `parameterEncoderFailed` or `parameterEncodingFailed`,
    /// sending nothing.
    public func request<Parameters: Encodable & Sendable>(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, parameters: Parameters?,
        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> DataRequest {
        let built = Result { () throws(WickError) in
            let plain = HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
            return try encoder.encode(parameters, into: try Self.modified(plain, by: requestModifier))
        }
        return makeRequest(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil)
    }

    /// Creates a request whose `Parameters` dictionary `encoding` puts in the query or the body
    /// (Alamofire's older `request(_:method:parameters:encoding:...)`): `URLEncoding.default`
    /// (query for GET, HEAD and DELETE, form body otherwise) or `JSONEncoding.default`.
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, parameters: Wick.Parameters?,
        encoding: any ParameterEncoding = URLEncoding.default, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> DataRequest {
        let built = Result { () throws(WickError) in
            let plain = HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
            return try encoding.encode(try Self.modified(plain, by: requestModifier), with: parameters)
        }
        return makeRequest(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil)
    }

    /// Creates a request for an `http` or `https` URL sent over the Unix domain socket at
    /// `unixSocketPath` instead of a TCP connection to the URL's host and port, which then make
    /// only the `Host` field and, for https, the TLS server name trust is evaluated for. A bad
    /// path (empty, over 107 bytes, a NUL byte) finishes the request with `WickError.invalidURL`.
    /// - Parameter convertible: the URL (any `URLConvertible`: a `String`, `URL`, `URLComponents`).
    /// - Parameter method: the request's method (GET by default).
    /// - Parameter headers: fields that replace the configuration's by name.
    /// - Parameter body: sent with `Content-Length`.
    /// - Parameter unixSocketPath: the socket's file-system path, e.g. `/run/app.sock`.
    /// - Parameter interceptor: this request's adapter and retrier, used with the session's.
    /// - Parameter shouldAutomaticallyResume: whether adding the first handler starts the
    ///   request (nil: the session's `startRequestsImmediately`).
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil,
        unixSocketPath: String, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil
    ) -> DataRequest {
        let built = Result { () throws(WickError) in
            HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: body,
                unixSocketPath: unixSocketPath)
        }
        return makeRequest(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil)
    }

    /// The same as `request(_:method:headers:body:)` with the body as bytes.
    public func request(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: [UInt8],
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil
    ) -> DataRequest {
        request(
            convertible, method: method, headers: headers, body: Data(body), interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Creates a request from a `URLRequestConvertible` (a router, or an `HTTPRequest`); the
    /// session's header fields are added under the request's own. A conversion that throws
    /// finishes the request with `invalidURL` (or the `WickError` thrown).
    public func request(
        _ convertible: some URLRequestConvertible, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil
    ) -> DataRequest {
        return makeRequest(
            convertible.builtRequest, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: nil)
    }

    /// The request with the session's fields merged in and checked, modified, registered.
    func makeRequest(
        _ built: consuming Result<HTTPRequest, WickError>, interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?,
        requestModifier: RequestModifier?
    ) -> DataRequest {
        makeRequest(consume built, interceptor: interceptor, requestModifier: requestModifier) { checked, interceptor in
            DataRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume)
        }
    }

    /// A request of any kind (`make` builds it from the checked request and the request's own
    /// interceptor): `requestModifier` applied (forms with parameters apply it themselves, before
    /// encoding them), the URL checked, the request registered and announced to the monitors.
    /// The session's fields are not merged in here but when sending (`headersAsSent`).
    ///
    /// The interceptor is handed from the public call to the request consumed at every step (the
    /// public parameters are `consuming`, `make` takes it as an argument and passes it on with
    /// `consume`): an optional existential is copied and destroyed through the runtime's generic
    /// value witnesses, about a hundred instructions each, even when it is nil (most requests).
    func makeRequest<Made: Request>(
        _ built: consuming Result<HTTPRequest, WickError>, interceptor: consuming (any RequestInterceptor)?,
        requestModifier: RequestModifier?,
        make: (Result<HTTPRequest, WickError>, consuming (any RequestInterceptor)?) -> Made
    ) -> Made {
        let checked: Result<HTTPRequest, WickError>
        // Consumed, so that `merged` holds the request's only reference and changes it in place.
        switch consume built {
        case .failure(let error):
            checked = .failure(error)
        case .success(var merged):
            if let requestModifier {
                do throws(WickError) {
                    merged = try Self.modified(merged, by: requestModifier)
                } catch {
                    checked = .failure(error)
                    break
                }
            }
            // The reading of the URL the last request to it made, if this one goes there too.
            let keptDestination = recentURL.keepDestination(in: &merged)
            if let invalid = Self.validate(&merged) {
                checked = .failure(invalid)
            } else {
                if !keptDestination { recentURL.remember(destinationOf: merged) }
                checked = .success(merged)
            }
        }
        let request = make(checked, interceptor)
        register(request)
        switch checked {
        case .success(let initial):
            if eventMonitor.handles(.didCreateInitialRequest) {
                eventMonitor.request(request, didCreateInitialRequest: initial)
            }
        case .failure(let error): eventMonitor.request(request, didFailToCreateRequestWithError: error)
        }
        return request
    }

    /// `request` with the fields it is sent with before cookies: the configuration's, replaced
    /// by name by its own (see `mergedHeaders`). A request keeps only its own fields, as
    /// Alamofire's `URLRequest` does (URLSession adds its configuration's when sending): this
    /// is what the cache's `Vary` matching and the wire see.
    func withSessionHeaders(_ request: HTTPRequest) -> HTTPRequest {
        var sent = request
        sent.headers = mergedHeaders(request.headers)
        return sent
    }

    /// The configuration's fields, replaced by name by `own`, plus `Accept-Encoding` while
    /// bodies are decoded.
    func mergedHeaders(_ own: HTTPHeaders) -> HTTPHeaders {
        // The usual request brings no fields: it shares the session's list, built once.
        if own.isEmpty { return defaultRequestHeaders }
        var merged = configuration.headers
        for field in own { merged.remove(name: field.name) }
        for field in own { merged.add(field) }
        if configuration.automaticallyDecodesResponseBodies, !merged.contains(name: "Accept-Encoding") {
            merged.add(.defaultAcceptEncoding)
        }
        return merged
    }

    /// The fields of a request that brings none of its own (see `mergedHeaders`).
    static func defaultRequestHeaders(for configuration: Configuration) -> HTTPHeaders {
        var headers = configuration.headers
        if configuration.automaticallyDecodesResponseBodies, !headers.contains(name: "Accept-Encoding") {
            headers.add(.defaultAcceptEncoding)
        }
        // Checked once here rather than by the encoder for every request that sends them.
        return HTTPRequestEncoder.vetted(headers)
    }

    /// Why `request` cannot be sent, or nil: a GET with a body (Alamofire's validation), or what
    /// `TransportDestination`, the transport's one reading of a request URL, refuses.
    static func invalidity(of request: HTTPRequest) -> WickError? {
        var checked = request
        return validate(&checked)
    }

    /// `invalidity(of:)`, keeping the transport's reading of the URL in `request` when it is
    /// usable (`HTTPRequest.checkedDestination`), so that sending it does not read it again.
    static func validate(_ request: inout HTTPRequest) -> WickError? {
        if request.method == .get, let body = request.body {
            return .urlRequestValidationFailed(reason: .bodyDataInGETRequest(body))
        }
        // Read before and kept: the URL and socket path have not changed since (an adapter
        // that returns the request it was given, or changes only its fields).
        guard request.checkedDestination == nil else { return nil }
        do throws(TransportPreparationError) {
            request.keep(try TransportDestination(url: request.url, unixSocketPath: request.unixSocketPath))
            return nil
        } catch {
            return WickError(preparing: error)
        }
    }
}
