// Making data stream requests: Session.streamRequest's forms.
public import FoundationEssentials

extension Session {
    /// Creates a request whose response body is read as it arrives (see `DataStreamRequest`);
    /// it starts when its first reader (`responseStream`, `streamingData`...) is added, unless
    /// `shouldAutomaticallyResume` or else `startRequestsImmediately` is off, or on `resume()`. An invalid URL does not throw here:
    /// the request finishes with `WickError.invalidURL`.
    /// - Parameters:
    ///   - convertible: the URL (any `URLConvertible`: a `String`, `URL`, `URLComponents`).
    ///   - method: the request's method (GET by default).
    ///   - headers: fields that replace the configuration's by name.
    ///   - body: sent with `Content-Length`.
    ///   - automaticallyCancelOnStreamError: end the request when a reader fails to turn a
    ///     chunk into a value (a line of JSON that does not decode).
    ///   - interceptor: this request's adapter and retrier, used with the session's.
    ///   - shouldAutomaticallyResume: whether adding the first reader starts the request (nil:
    ///     the session's `startRequestsImmediately`).
    ///   - requestModifier: changes the request as created.
    public func streamRequest(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, headers: HTTPHeaders? = nil, body: Data? = nil,
        automaticallyCancelOnStreamError: Bool = false, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> DataStreamRequest {
        let built = Result { () throws(WickError) in
            HTTPRequest(method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: body)
        }
        return makeRequest(built, interceptor: interceptor, requestModifier: requestModifier) { checked, interceptor in
            DataStreamRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume,
                automaticallyCancelOnStreamError: automaticallyCancelOnStreamError)
        }
    }

    /// Creates a stream request whose `Encodable` parameters `encoder` puts in the query or the
    /// body (see `request(_:method:parameters:encoder:headers:interceptor:requestModifier:)`);
    /// an encoding failure finishes it with `parameterEncoderFailed` or
    /// `parameterEncodingFailed`, sending nothing. See
    /// `streamRequest(_:method:headers:body:automaticallyCancelOnStreamError:interceptor:requestModifier:)`.
    public func streamRequest<Parameters: Encodable & Sendable>(
        _ convertible: some URLConvertible, method: HTTPMethod = .get, parameters: Parameters?,
        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default, headers: HTTPHeaders? = nil,
        automaticallyCancelOnStreamError: Bool = false, interceptor: consuming (any RequestInterceptor)? = nil,
        shouldAutomaticallyResume: Bool? = nil,
        requestModifier: RequestModifier? = nil
    ) -> DataStreamRequest {
        let built = Result { () throws(WickError) in
            let plain = HTTPRequest(
                method: method, url: try url(from: convertible), headers: headers ?? HTTPHeaders(), body: nil)
            return try encoder.encode(parameters, into: try Self.modified(plain, by: requestModifier))
        }
        return makeRequest(built, interceptor: interceptor, requestModifier: nil) { checked, interceptor in
            DataStreamRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume,
                automaticallyCancelOnStreamError: automaticallyCancelOnStreamError)
        }
    }

    /// Creates a stream request from a `URLRequestConvertible` (a router, or an `HTTPRequest`);
    /// the session's header fields are added under the request's own. A conversion that throws
    /// finishes the request with `invalidURL` (or the `WickError` thrown). See
    /// `streamRequest(_:method:headers:body:automaticallyCancelOnStreamError:interceptor:requestModifier:)`.
    public func streamRequest(
        _ convertible: some URLRequestConvertible, automaticallyCancelOnStreamError: Bool = false,
        interceptor: consuming (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil
    ) -> DataStreamRequest {
        return makeRequest(convertible.builtRequest, interceptor: interceptor, requestModifier: nil) {
            checked, interceptor in
            DataStreamRequest(
                session: self, initialRequest: checked, interceptor: consume interceptor,
                shouldAutomaticallyResume: shouldAutomaticallyResume,
                automaticallyCancelOnStreamError: automaticallyCancelOnStreamError)
        }
    }
}
