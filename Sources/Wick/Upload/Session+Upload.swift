// Making uploads: Session.upload from Data, a file, a stream, or a multipart form, to a URL or
// with a whole request (URLRequestConvertible).
public import FoundationEssentials

extension Session {
    /// Uploads `data` to `convertible` (default POST). See `UploadRequest`.
    /// - Parameters:
    ///   - data: the body, sent whole.
    ///   - convertible: the URL (any `URLConvertible`: a `String`, `URL`, `URLComponents`).
    ///   - method: the request's method (POST by default).
    ///   - headers: as for `request`; `Content-Length` is set from the body.
    ///   - interceptor: this request's adapter and retrier, used with the session's.
    ///   - shouldAutomaticallyResume: whether adding the first handler starts the upload (nil:
    ///     the session's `startRequestsImmediately`).
    ///   - requestModifier: changes the request as created.
    public func upload(
        _ data: Data, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        upload(
            .data(data), to: convertible, method: method, headers: headers, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Uploads the file at `fileURL` (read in pieces; flat memory), sent with its size as
    /// `Content-Length`. A missing or unreadable file fails the request with
    /// `SessionTaskFailure.requestBodyFailed`, sending nothing.
    public func upload(
        _ fileURL: URL, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        upload(
            .file(fileURL, shouldRemove: false), to: convertible, method: method, headers: headers,
            interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Uploads the chunks of `stream` with `Transfer-Encoding: chunked` (its length is unknown).
    /// The stream is read once: a request that must send again fails (`Uploadable.stream`).
    public func upload<Chunks: AsyncSequence & Sendable>(
        stream: Chunks, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest where Chunks.Element == Data {
        upload(
            .stream(UploadStream(stream)), to: convertible, method: method, headers: headers,
            interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Uploads a multipart form (RFC 7578) built by `multipartFormData`, read part by part (files
    /// and streams never whole in memory, so Alamofire's `usingThreshold` is not needed) and sent
    /// with the form's `Content-Type` unless `headers` set one. A part that cannot be read (a
    /// missing file) fails the request with `multipartEncodingFailed`, sending nothing.
    public func upload(
        multipartFormData: MultipartFormData, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        upload(
            .multipart(multipartFormData), to: convertible, method: method, headers: headers,
            interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Uploads the multipart form that `multipartFormData` fills in (Alamofire's closure form).
    public func upload(
        multipartFormData: (MultipartFormData) -> Void, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        let form = MultipartFormData()
        multipartFormData(form)
        return upload(
            multipartFormData: form, to: convertible, method: method, headers: headers,
            interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    /// Uploads `uploadable` to `convertible`. A multipart form is sent with its `Content-Type`
    /// unless `headers` set one.
    public func upload(
        _ uploadable: Uploadable, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        let built = Result { () throws(WickError) in
            HTTPRequest(method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
        }
        return makeUpload(
            uploadable, built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier)
    }

    // MARK: - With a whole request

    /// Uploads `data` with the request `convertible` builds (a router, or an `HTTPRequest`):
    /// its method, URL and headers; its own body, if any, is replaced by `data`. A conversion
    /// that throws finishes the request with `invalidURL` (or the `WickError` thrown).
    public func upload(
        _ data: Data, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest {
        upload(
            .data(data), with: convertible, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Uploads the file at `fileURL` (read in pieces) with the request `convertible` builds (see
    /// `upload(_:with:interceptor:)` for `Data`).
    public func upload(
        _ fileURL: URL, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest {
        upload(
            .file(fileURL, shouldRemove: false), with: convertible, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Uploads the chunks of `stream` (`Transfer-Encoding: chunked`, read once) with the request
    /// `convertible` builds (see `upload(stream:to:)`).
    public func upload<Chunks: AsyncSequence & Sendable>(
        stream: Chunks, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest where Chunks.Element == Data {
        upload(
            .stream(UploadStream(stream)), with: convertible, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Uploads a multipart form with the request `convertible` builds, sent with the form's
    /// `Content-Type` unless the request has one (see `upload(multipartFormData:to:)`).
    public func upload(
        multipartFormData: MultipartFormData, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest {
        upload(
            .multipart(multipartFormData), with: convertible, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Uploads the multipart form that `multipartFormData` fills in, with the request
    /// `convertible` builds (Alamofire's closure form).
    public func upload(
        multipartFormData: (MultipartFormData) -> Void, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest {
        let form = MultipartFormData()
        multipartFormData(form)
        return upload(
            multipartFormData: form, with: convertible, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Uploads `uploadable` with the request `convertible` builds.
    public func upload(
        _ uploadable: Uploadable, with convertible: some URLRequestConvertible,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil
    ) -> UploadRequest {
        makeUpload(
            uploadable, convertible.builtRequest, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil)
    }

    /// The upload of `uploadable` with `built` (its body dropped; a form's `Content-Type` added
    /// where it has none), made as every request is.
    private func makeUpload(
        _ uploadable: Uploadable, _ built: Result<HTTPRequest, WickError>,
        interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?,
        requestModifier: RequestModifier?
    ) -> UploadRequest {
        let carrying = built.map { request in
            var carrying = request
            carrying.body = nil
            carrying.carriesUpload = true
            if case .multipart(let form) = uploadable, !carrying.headers.contains(name: "Content-Type") {
                carrying.headers.add(name: "Content-Type", value: form.contentType)
            }
            return carrying
        }
        return makeRequest(carrying, interceptor: interceptor, requestModifier: requestModifier) {
            checked, interceptor in
            UploadRequest(
                session: self, initialRequest: checked, uploadable: uploadable, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume)
        }
    }
}
