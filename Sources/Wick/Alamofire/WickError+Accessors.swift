// AFError's accessors on WickError: the `is…Error` family and the values code reads off a failure.
public import FoundationEssentials

extension WickError {
    // MARK: - Which kind of failure (Alamofire's `is…Error`)

    /// The request's URL was unusable (`invalidURL`).
    public var isInvalidURLError: Bool {
        if case .invalidURL = self { return true }
        return false
    }

    /// The request failed on its way to the server or back (`sessionTaskFailed`).
    public var isSessionTaskError: Bool {
        if case .sessionTaskFailed = self { return true }
        return false
    }

    /// Building the request threw (`createURLRequestFailed`).
    public var isCreateURLRequestError: Bool {
        if case .createURLRequestFailed = self { return true }
        return false
    }

    /// The request was refused before sending (`urlRequestValidationFailed`).
    public var isURLRequestValidationError: Bool {
        if case .urlRequestValidationFailed = self { return true }
        return false
    }

    /// The request was cancelled (`explicitlyCancelled`).
    public var isExplicitlyCancelledError: Bool {
        if case .explicitlyCancelled = self { return true }
        return false
    }

    /// A serializer refused the response (`responseSerializationFailed`).
    public var isResponseSerializationError: Bool {
        if case .responseSerializationFailed = self { return true }
        return false
    }

    /// A validation refused the response (`responseValidationFailed`).
    public var isResponseValidationError: Bool {
        if case .responseValidationFailed = self { return true }
        return false
    }

    /// The server's certificate chain was refused (`serverTrustEvaluationFailed`).
    public var isServerTrustEvaluationError: Bool {
        if case .serverTrustEvaluationFailed = self { return true }
        return false
    }

    /// The session was shut down (`sessionInvalidated`).
    public var isSessionInvalidatedError: Bool {
        if case .sessionInvalidated = self { return true }
        return false
    }

    /// A request adapter failed (`requestAdaptationFailed`).
    public var isRequestAdaptationError: Bool {
        if case .requestAdaptationFailed = self { return true }
        return false
    }

    /// A retrier ended the request with its own error (`requestRetryFailed`).
    public var isRequestRetryError: Bool {
        if case .requestRetryFailed = self { return true }
        return false
    }

    /// A `ParameterEncoding` failed (`parameterEncodingFailed`).
    public var isParameterEncodingError: Bool {
        if case .parameterEncodingFailed = self { return true }
        return false
    }

    /// A `ParameterEncoder` failed (`parameterEncoderFailed`).
    public var isParameterEncoderError: Bool {
        if case .parameterEncoderFailed = self { return true }
        return false
    }

    /// A multipart body could not be encoded (`multipartEncodingFailed`).
    public var isMultipartEncodingError: Bool {
        if case .multipartEncodingFailed = self { return true }
        return false
    }

    /// A download could not put its body in its file (`downloadFailed`), Alamofire's
    /// `isDownloadedFileMoveError` and more.
    public var isDownloadError: Bool {
        if case .downloadFailed = self { return true }
        return false
    }

    /// The download's file could not be moved to its destination (`downloadFailed` with
    /// `cannotMoveFile` or `destinationExists`).
    public var isDownloadedFileMoveError: Bool {
        switch self {
        case .downloadFailed(.cannotMoveFile), .downloadFailed(.destinationExists): true
        default: false
        }
    }

    /// The request timed out (a `sessionTaskFailed(.timedOut)`), in whichever phase.
    public var isTimeoutError: Bool {
        if case .sessionTaskFailed(.timedOut) = self { return true }
        return false
    }

    // MARK: - What the failure carries

    /// The URL that was refused (`invalidURL`), as Alamofire's `urlConvertible`.
    public var urlConvertible: (any URLConvertible)? {
        if case .invalidURL(let url, _) = self { return url }
        return nil
    }

    /// The URL that was refused (`invalidURL`), when it parses at all.
    public var url: URL? {
        if case .invalidURL(let url, _) = self { return URL(string: url) }
        return nil
    }

    /// The error underneath: the adapter's, the retrier's, a custom serializer's or
    /// validation's, a decoder's, the JSON parser's, a parameter encoder's, the trust
    /// evaluation's, or the connection failure's cause. Nil when the failure is Wick's own.
    public var underlyingError: (any Error)? {
        switch self {
        case .requestAdaptationFailed(let error), .createURLRequestFailed(let error): error
        case .requestRetryFailed(let retryError, _): retryError
        case .responseSerializationFailed(let reason): reason.underlyingError
        case .responseValidationFailed(.customValidationFailed(let error)): error
        case .parameterEncodingFailed(.jsonEncodingFailed(let error)),
            .parameterEncodingFailed(.customEncodingFailed(let error)),
            .parameterEncoderFailed(.encoderFailed(let error)):
            error
        case .multipartEncodingFailed(.bodyPartFileSizeQueryFailedWithError(_, let error)): error
        case .serverTrustEvaluationFailed(let reason): reason
        case .sessionTaskFailed(let failure): failure.underlyingError
        case .downloadFailed(let reason): reason
        case .invalidProxyConfiguration(let error): error
        default: nil
        }
    }

    /// The status code a validation refused (`unacceptableStatusCode`).
    public var responseCode: Int? {
        if case .responseValidationFailed(.unacceptableStatusCode(let code)) = self { return code }
        return nil
    }

    /// The content types the validation accepted, when it refused the response's (or its
    /// missing) `Content-Type`.
    public var acceptableContentTypes: [String]? {
        switch self {
        case .responseValidationFailed(.missingContentType(let acceptable)),
            .responseValidationFailed(.unacceptableContentType(let acceptable, _)):
            acceptable
        default: nil
        }
    }

    /// The response's `Content-Type` that the validation refused.
    public var responseContentType: String? {
        if case .responseValidationFailed(.unacceptableContentType(_, let type)) = self { return type }
        return nil
    }

    /// The text encoding the body was not valid in (`stringSerializationFailed`).
    public var failedStringEncoding: String.Encoding? {
        if case .responseSerializationFailed(.stringSerializationFailed(let encoding)) = self { return encoding }
        return nil
    }

    /// The timeout's phase, when the request timed out.
    public var timeoutPhase: TimeoutPhase? {
        if case .sessionTaskFailed(.timedOut(let phase, _)) = self { return phase }
        return nil
    }
}

extension ResponseSerializationFailureReason {
    /// The error of the decoder, parser or custom serializer, if one failed.
    var underlyingError: (any Error)? {
        switch self {
        case .customSerializationFailed(let error), .decodingFailed(let error), .lineDecodingFailed(_, let error): error
        case .jsonSerializationFailed(let error): error
        case .inputDataNilOrZeroLength, .stringSerializationFailed, .invalidEmptyResponse, .inputFileReadFailed,
            .inputFileNil, .lineTooLong:
            nil
        }
    }
}

extension SessionTaskFailure {
    /// The system or TLS error beneath a connection failure, if one is known.
    var underlyingError: (any Error)? {
        switch self {
        case .connectionFailed(let failure), .tlsUnavailable(let failure), .proxyConnectFailed(let failure):
            failure.underlyingError ?? failure
        case .timedOut(_, let last): last
        case .connectionLost(let loss): loss
        case .contentDecodingFailed(let failure): failure
        case .requestBodyFailed, .tooManyRedirects, .invalidRedirect, .proxyAuthenticationRequired,
            .socksProxyFailed:
            nil
        }
    }
}
