// Validating a download's response before its file is moved: a closure, acceptable status codes or content types.
extension DownloadRequest {
    /// Adds a validation: it runs on every final response (after redirects, before retriers are
    /// asked), once every byte is in the temporary file, whose URL it is given. A failure fails
    /// the attempt, which the retriers may retry. Add validations before the first handler.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        let sink = sink
        let temporaryURL = temporaryURL
        appendValidation { request, response in
            sink.waitForWrites()
            switch validation(request, HTTPResponse(response, url: request?.url), temporaryURL) {
            case .success: return .success(())
            case .failure(let error as WickError): return .failure(error)
            case .failure(let error):
                return .failure(.responseValidationFailed(reason: .customValidationFailed(error: error)))
            }
        }
        return self
    }

    /// Fails the request with `responseValidationFailed(reason: .unacceptableStatusCode)` unless
    /// the status is in `acceptableStatusCodes`. A resumed download's `416` whose
    /// `Content-Range: bytes */N` says the file is already complete counts as `206`.
    @discardableResult
    public func validate<Codes: Sequence & Sendable>(statusCode acceptableStatusCodes: Codes) -> Self
    where Codes.Element == Int {
        let sink = sink
        appendValidation { _, response in
            var code = response.status.rawValue
            if code == 416, sink.state.withLock({ $0.isConfirmedComplete }) { code = 206 }
            return acceptableStatusCodes.contains(code)
                ? .success(()) : .failure(.responseValidationFailed(reason: .unacceptableStatusCode(code: code)))
        }
        return self
    }

    /// Fails the request with `responseValidationFailed(reason: .unacceptableContentType)` (or
    /// `.missingContentType`) unless the response's `Content-Type` matches one of
    /// `acceptableContentTypes` (`*/*` and `type/*` wildcards allowed). An empty file passes,
    /// as in Alamofire.
    @discardableResult
    public func validate(contentType acceptableContentTypes: @autoclosure @escaping @Sendable () -> [String]) -> Self {
        let sink = sink
        appendValidation { _, response in
            sink.waitForWrites()
            guard sink.state.withLock({ $0.fileLength }) > 0 else { return .success(()) }
            return DataRequest.validate(
                contentType: response.headers.value(for: "Content-Type"), acceptable: acceptableContentTypes())
        }
        return self
    }

    /// Fails the request unless the status is 2xx (see `validate(statusCode:)`) and the
    /// `Content-Type` matches the request's `Accept` (`*/*` when it has none), as Alamofire's.
    @discardableResult
    public func validate() -> Self {
        let sink = sink
        validate(statusCode: 200..<300)
        appendValidation { request, response in
            sink.waitForWrites()
            guard sink.state.withLock({ $0.fileLength }) > 0 else { return .success(()) }
            return DataRequest.validate(
                contentType: response.headers.value(for: "Content-Type"),
                acceptable: DataRequest.acceptedTypes(of: request))
        }
        return self
    }
}
