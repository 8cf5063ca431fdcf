// Making uploads: Session.upload from Data, a file, a stream, or a multipart form.
public import FoundationEssentials

extension Session {
    /// Uploads `data` to `convertible` (default POST). See `UploadRequest`.
    /// - Parameter headers: as for `request`; `Content-Length` is set from the body.
    public func upload(
        _ data: Data, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: (any RequestInterceptor)? = nil, requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        upload(.data(data), to: convertible, method: method, headers: headers, interceptor: interceptor,
            requestModifier: requestModifier)
    }

    /// Uploads the file at `fileURL` (read in pieces; flat memory), sent with its size as
    /// `Content-Length`. A missing or unreadable file fails the request with
    /// `SessionTaskFailure.requestBodyFailed`, sending nothing.
    public func upload(
        _ fileURL: URL, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: (any RequestInterceptor)? = nil, requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        upload(.file(fileURL, shouldRemove: false), to: convertible, method: method, headers: headers,
            interceptor: interceptor, requestModifier: requestModifier)
    }

    /// Uploads the chunks of `stream` with `Transfer-Encoding: chunked` (its length is unknown).
    /// The stream is read once: a request that must send again fails (`Uploadable.stream`).
    public func upload<Chunks: AsyncSequence & Sendable>(
        stream: Chunks, to convertible: some URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
        interceptor: (any RequestInterceptor)? = nil, requestModifier: RequestModifier? = nil
    ) -> UploadRequest where Chunks.Element == Data {
        upload(.stream(UploadStream(stream)), to: convertible, method: method, headers: headers,
            interceptor: interceptor, requestModifier: requestModifier)
    }

    /// Uploads a multipart form (RFC 7578) built by `multipartFormData`, read part by part (files
    /// and streams never whole in memory, so Alamofire's `usingThreshold` is not needed) and sent
    /// with the form's `Content-Type` unless `headers` set one. A part that cannot be read (a
    /// missing file) fails the request with `multipartEncodingFailed`, sending nothing.
    public func upload(
        multipartFormData: MultipartFormData, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        var withType = headers ?? HTTPHeaders()
        if !withType.contains(name: "Content-Type") { withType.add(name: "Content-Type", value: multipartFormData.contentType) }
        return upload(.multipart(multipartFormData), to: convertible, method: method, headers: withType,
            interceptor: interceptor, requestModifier: requestModifier)
    }

    /// Uploads the multipart form that `multipartFormData` fills in (Alamofire's closure form).
    public func upload(
        multipartFormData: (MultipartFormData) -> Void, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        let form = MultipartFormData()
        multipartFormData(form)
        return upload(multipartFormData: form, to: convertible, method: method, headers: headers,
            interceptor: interceptor, requestModifier: requestModifier)
    }

    /// Uploads `uploadable` to `convertible`.
    public func upload(
        _ uploadable: Uploadable, to convertible: some URLConvertible, method: HTTPMethod = .post,
        headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
        requestModifier: RequestModifier? = nil
    ) -> UploadRequest {
        let built = Result { () throws(WickError) in
            var request = HTTPRequest(method: method, url: try convertible.asURL(), headers: headers ?? HTTPHeaders(), body: nil)
            request.carriesUpload = true
            return request
        }
        return makeRequest(built, requestModifier: requestModifier) { checked in
            UploadRequest(session: self, initialRequest: checked, uploadable: uploadable, interceptor: interceptor)
        }
    }
}
