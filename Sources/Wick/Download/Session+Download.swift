// Making downloads: Session.download's forms, and resuming from resume data.
public import FoundationEssentials

extension Session {
    /// Creates a download: the response body is written to a temporary file as it arrives
    /// (bounded memory), then moved to `destination`. It starts when its first handler is
    /// added (unless `startRequestsImmediately` is off), or on `resume()`. An invalid URL does
    /// not throw here: the request finishes with `WickError.invalidURL`.
    /// - Parameter convertible: the URL (any `URLConvertible`: a `String`, `URL`, `URLComponents`).
    /// - Parameter method: the request's method (GET by default).
    /// - Parameter headers: fields that replace the configuration's by name.
    /// - Parameter body: sent with `Content-Length`.
    /// - Parameter interceptor: this request's adapter and retrier, used with the session's.
    /// - Parameter shouldAutomaticallyResume: whether adding the first handler starts the
    ///   download (nil: the session's `startRequestsImmediately`).
    /// - Parameter requestModifier: changes the request as created.
    /// - Parameter destination: where the file goes; nil leaves it at its temporary URL
    ///   (`DownloadRequest.temporaryDirectory`/`<UUID>.download`), which the caller then owns.
    public func download(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil,
        to destination: DownloadRequest.Destination? = nil
    ) -> DownloadRequest {
        let built = Result { () throws(WickError) in
            HTTPRequest(method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: body)
        }
        return makeDownload(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: requestModifier, destination: destination)
    }

    /// Creates a download whose `Encodable` parameters `encoder` puts in the query or the body
    /// (see `request(_:method:parameters:encoder:...)`).
    public func download<Parameters: Encodable & Sendable>(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, parameters: Parameters?,
        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil,
        to destination: DownloadRequest.Destination? = nil
    ) -> DownloadRequest {
        let built = Result { () throws(WickError) in
            let plain = HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
            return try encoder.encode(parameters, into: try Self.modified(plain, by: requestModifier))
        }
        return makeDownload(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil,
            destination: destination)
    }

    /// Creates a download whose `Parameters` dictionary `encoding` puts in the query or the body
    /// (see `request(_:method:parameters:encoding:...)`).
    public func download(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, parameters: Wick.Parameters?,
        encoding: any ParameterEncoding = URLEncoding.default, headers: HTTPHeaders? = nil,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil,
        to destination: DownloadRequest.Destination? = nil
    ) -> DownloadRequest {
        let built = Result { () throws(WickError) in
            let plain = HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
            return try encoding.encode(try Self.modified(plain, by: requestModifier), with: parameters)
        }
        return makeDownload(
            built, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil,
            destination: destination)
    }

    /// Creates a download from a `URLRequestConvertible` (a router, or an `HTTPRequest`). A
    /// conversion that throws finishes the request with `invalidURL` (or the `WickError` thrown).
    public func download(
        _ convertible: some URLRequestConvertible, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        to destination: DownloadRequest.Destination? = nil
    ) -> DownloadRequest {
        return makeDownload(
            convertible.builtRequest, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
            requestModifier: nil, destination: destination)
    }

    /// Continues a download from its `resumeData` (`DownloadRequest.resumeData`): the request
    /// recorded there is sent again (adapters run again) with `Range: bytes=N-`, N the bytes in
    /// the partial file, and `If-Range` (the strong `ETag`, else `Last-Modified`), and
    /// `Accept-Encoding: identity`. Then:
    /// - `206` whose `Content-Range` starts at N: the body is appended to the file.
    /// - `206` starting elsewhere: fails with `downloadFailed(.unexpectedContentRange)`,
    ///   keeping the partial file (and producing resume data again).
    /// - `200` (the server ignores ranges, or `If-Range` did not match: the resource changed):
    ///   the file starts over from byte 0 with the new body.
    /// - `416` with `Content-Range: bytes */N`: the file was already complete; it is moved to
    ///   its destination as is (`validate()` takes this `416` as `206`).
    /// - `416` naming another length (or none): the attempt is sent once more without a range
    ///   (a retry, counted in `retryCount`), starting over; a second `416` is a plain response.
    /// - Any other status: its body replaces the file's, as for `200`.
    /// A partial file that is gone, or shorter than recorded, is started over without a range;
    /// a longer one is cut back to N. Data that is not Wick's resume data finishes the request
    /// with `downloadFailed(reason: .invalidResumeData)`, sending nothing.
    public func download(
        resumingWith data: Data, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        to destination: DownloadRequest.Destination? = nil
    ) -> DownloadRequest {
        let resume: DownloadResumeData
        let built: Result<HTTPRequest, WickError>
        do throws(DownloadFailureReason) {
            resume = try DownloadResumeData.decode(data)
            built = .success(try resume.request())
        } catch {
            return makeDownload(
                .failure(.downloadFailed(reason: error)), interceptor: interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume, requestModifier: nil,
                destination: destination)
        }
        return makeRequest(built, interceptor: interceptor, requestModifier: nil) { checked, interceptor in
            DownloadRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume, destination: destination,
                resume: resume)
        }
    }

    private func makeDownload(
        _ built: Result<HTTPRequest, WickError>, interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?,
        requestModifier: RequestModifier?, destination: DownloadRequest.Destination?
    ) -> DownloadRequest {
        makeRequest(built, interceptor: interceptor, requestModifier: requestModifier) { checked, interceptor in
            DownloadRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume, destination: destination, resume: nil)
        }
    }
}
