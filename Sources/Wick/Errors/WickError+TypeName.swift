// A short, bounded name for each failure: what logs, metrics and spans label an error with.

extension WickError {
    /// A name for this error drawn from a small fixed set, fit to label metrics and spans
    /// (OpenTelemetry's `error.type`): the case name, and for a transport failure its kind
    /// (`timedOut`, `cannotConnectToHost`, `networkConnectionLost`, ...). Never contains a URL, a
    /// host or a message, so its cardinality stays bounded whatever the traffic.
    public var typeName: String {
        switch self {
        case .invalidURL: "invalidURL"
        case .createURLRequestFailed: "createURLRequestFailed"
        case .urlRequestValidationFailed: "urlRequestValidationFailed"
        case .sessionTaskFailed(let failure): failure.kind.description
        case .explicitlyCancelled: "explicitlyCancelled"
        case .responseSerializationFailed: "responseSerializationFailed"
        case .serverTrustEvaluationFailed: "serverTrustEvaluationFailed"
        case .bodyTooLarge: "bodyTooLarge"
        case .sessionInvalidated: "sessionInvalidated"
        case .requestAdaptationFailed: "requestAdaptationFailed"
        case .requestRetryFailed(_, let originalError): originalError.typeName
        case .responseValidationFailed: "responseValidationFailed"
        case .parameterEncodingFailed: "parameterEncodingFailed"
        case .parameterEncoderFailed: "parameterEncoderFailed"
        case .invalidProxyConfiguration: "invalidProxyConfiguration"
        case .multipartEncodingFailed: "multipartEncodingFailed"
        case .downloadFailed: "downloadFailed"
        case .conversionFailed: "conversionFailed"
        case .responseCacheUnavailable: "responseCacheUnavailable"
        case .hstsFileFailed: "hstsFileFailed"
        }
    }
}
