// The one mapping from Wick's errors to curl's exit codes and curl-like messages.
public import Wick

extension CommandFailure {
    /// The failure curl reports for the same cause as `error`: its exit code, and Wick's own
    /// description of what happened as the message.
    public init(_ error: WickError) {
        self.init(Self.exitCode(for: error), error.description)
    }

    /// curl's exit code for the cause of `error`.
    static func exitCode(for error: WickError) -> CurlExitCode {
        switch error {
        case .invalidURL: .malformedURL
        case .sessionTaskFailed(let failure): exitCode(for: failure)
        case .explicitlyCancelled, .sessionInvalidated: .abortedByCallback
        case .responseSerializationFailed, .responseValidationFailed: .weirdServerReply
        case .serverTrustEvaluationFailed(let trust):
            switch trust.reason {
            case .publicKeyPinningFailed, .certificatePinningFailed: .pinnedPublicKeyMismatch
            default: .peerFailedVerification
            }
        case .bodyTooLarge: .fileSizeExceeded
        case .requestAdaptationFailed, .parameterEncodingFailed, .parameterEncoderFailed, .createURLRequestFailed,
            .urlRequestValidationFailed, .conversionFailed:
            .failedInitialization
        case .requestRetryFailed(_, let original): exitCode(for: original)
        case .invalidProxyConfiguration: .couldNotResolveProxy
        case .multipartEncodingFailed: .readError
        case .downloadFailed, .responseCacheUnavailable, .hstsFileFailed: .writeError
        }
    }

    /// curl's exit code for a transport failure.
    static func exitCode(for failure: SessionTaskFailure) -> CurlExitCode {
        switch failure {
        case .connectionFailed(let connection), .proxyConnectFailed(let connection): exitCode(for: connection)
        case .timedOut: .operationTimedOut
        case .connectionLost(let loss):
            switch loss.cause {
            case .closedBeforeResponse: .gotNothing
            case .closedDuringResponse: .partialFile
            case .writeFailed: .sendError
            case .invalidResponse, .unexpectedProtocolSwitch: .weirdServerReply
            case .invalidRequest: .failedInitialization
            default: .receiveError
            }
        case .tlsUnavailable: .badCACertificateFile
        case .contentDecodingFailed: .badContentEncoding
        case .requestBodyFailed: .readError
        case .tooManyRedirects: .tooManyRedirects
        case .invalidRedirect: .unsupportedProtocol
        case .proxyAuthenticationRequired: .receiveError
        case .socksProxyFailed: .proxyHandshakeFailed
        }
    }

    /// curl's exit code for a connection that could not be made.
    static func exitCode(for failure: ConnectionFailure) -> CurlExitCode {
        switch failure.kind {
        case .unknownHost, .resolutionFailed: .couldNotResolveHost
        case .timedOut, .proxyTimedOut: .operationTimedOut
        case .tlsHandshakeFailed: .sslConnectError
        case .serverTrustRefused: .peerFailedVerification
        case .tlsConfigurationInvalid: .badCACertificateFile
        // Mostly a bind's failure (`--interface` not this host's address, every `--local-port`
        // taken), which curl reports as 45; ephemeral ports running out looks the same, where
        // curl would say 7.
        case .addressUnavailable: .interfaceFailed
        case .proxyRefused, .proxyAuthenticationRequired, .proxyInvalidResponse, .proxyClosed: .receiveError
        default: .couldNotConnect
        }
    }
}
