// The one place where transport errors become public `WickError`s, and lower layers' errors
// become Wick's own failure values. Connect failures are sorted by `StreamChannelError`'s
// classification (WickTLS), not here.
import WickHTTP1
import WickHTTP2
import WickReactor
import WickTLS

extension WickError {
    /// The public form of a transport failure.
    init(_ error: TransportError) {
        switch error {
        case .connectFailed(let failure): self = Self.connectFailure(failure)
        case .poolWaitTimeout(let last):
            if let last, case .tls(.serverTrustFailed(let trust)) = last {
                self = .serverTrustEvaluationFailed(reason: trust)
            } else {
                self = .sessionTaskFailed(
                    error: .timedOut(
                        phase: .waitingForConnection, lastConnectionFailure: last.map { ConnectionFailure($0) }))
            }
        case .timedOut(let phase):
            let publicPhase: TimeoutPhase =
                switch phase {
                case .connect(.connecting): .connect
                case .connect(.proxyConnect): .proxyConnect
                case .connect(.tlsHandshake): .tlsHandshake
                case .sendingRequest: .sendingRequest
                case .waitingForResponse: .waitingForResponse
                case .receivingResponse: .receivingResponse
                case .idle: .idleTransfer
                }
            self = .sessionTaskFailed(error: .timedOut(phase: publicPhase, lastConnectionFailure: nil))
        case .cancelled: self = .explicitlyCancelled
        case .shutdown: self = .sessionInvalidated
        case .requestFailed(.undecodableBody(let failure), _):
            self = .sessionTaskFailed(error: .contentDecodingFailed(ContentDecodingFailure(failure)))
        case .requestFailed(let failure, let mayHaveBeenProcessed):
            self = .sessionTaskFailed(
                error: .connectionLost(ConnectionLoss(failure, requestMayHaveBeenProcessed: mayHaveBeenProcessed)))
        case .streamFailed(.undecodableBody(let failure), _):
            self = .sessionTaskFailed(error: .contentDecodingFailed(ContentDecodingFailure(failure)))
        case .streamFailed(let failure, let mayHaveBeenProcessed):
            self = .sessionTaskFailed(
                error: .connectionLost(ConnectionLoss(failure, requestMayHaveBeenProcessed: mayHaveBeenProcessed)))
        case .responseBodyTooLarge(let limit): self = .bodyTooLarge(limit: limit)
        case .tlsUnavailable(let failure): self = .sessionTaskFailed(error: .tlsUnavailable(failure))
        case .requestBodyFailed(let reason): self = .sessionTaskFailed(error: .requestBodyFailed(reason: reason))
        }
    }

    /// A failed connect. Trust refusals and 407s get cases of their own, which carry what the
    /// lower error knows (the evaluator's reason, the proxy and whether credentials were sent),
    /// and so do a SOCKS proxy's refusals (the step and the reason);
    /// a connect-phase timeout is `timedOut` naming its phase; a proxy's other failures are
    /// `proxyConnectFailed`; the rest `connectionFailed`.
    private static func connectFailure(_ failure: StreamChannelError) -> WickError {
        switch failure {
        case .tls(.serverTrustFailed(let trust)): return .serverTrustEvaluationFailed(reason: trust)
        case .proxy(.refused(let proxy, 407, _, let credentialsSent)):
            return .sessionTaskFailed(
                error: .proxyAuthenticationRequired(proxy: proxy, credentialsSent: credentialsSent))
        case .proxy(.socks(let proxy, let failure)):
            return .sessionTaskFailed(error: .socksProxyFailed(proxy: proxy, failure: failure))
        default: break
        }
        let classification = failure.classification
        let connection = ConnectionFailure(failure, classification)
        if let phase = classification.timeoutPhase {
            return .sessionTaskFailed(error: .timedOut(phase: TimeoutPhase(phase), lastConnectionFailure: connection))
        }
        if case .proxy = failure { return .sessionTaskFailed(error: .proxyConnectFailed(connection)) }
        return .sessionTaskFailed(error: .connectionFailed(connection))
    }
}

extension SessionTaskFailure {
    /// The runner's TLS context could not be built: `tlsUnavailable` with the reason.
    static func tlsUnavailable(_ error: TLSError) -> SessionTaskFailure {
        .tlsUnavailable(
            ConnectionFailure(kind: .tlsConfigurationInvalid, description: "\(error)", underlyingError: error))
    }
}

extension TimeoutPhase {
    /// The public name of a connect-phase timeout.
    init(_ phase: StreamChannelError.TimeoutPhase) {
        switch phase {
        case .connect: self = .connect
        case .tlsHandshake: self = .tlsHandshake
        case .trustEvaluation: self = .trustEvaluation
        }
    }
}

extension ConnectionFailure {
    /// `error` as a public failure: its kind from its classification, its description as it
    /// reads, the error itself underneath.
    package init(_ error: StreamChannelError) {
        self.init(error, error.classification)
    }

    /// `error`, already classified.
    init(_ error: StreamChannelError, _ classification: StreamChannelError.Classification) {
        self.init(kind: Kind(classification.kind), description: error.description, underlyingError: error)
    }
}

extension ConnectionFailure.Kind {
    /// The public name of a classified connect failure's kind.
    init(_ kind: StreamChannelError.FailureKind) {
        self =
            switch kind {
            case .refused: .refused
            case .reset: .reset
            case .hostUnreachable: .hostUnreachable
            case .networkUnreachable: .networkUnreachable
            case .unknownHost: .unknownHost
            case .resolutionFailed: .resolutionFailed
            case .timedOut: .timedOut
            case .addressUnavailable: .addressUnavailable
            case .invalidAddress: .invalidAddress
            case .permissionDenied: .permissionDenied
            case .outOfResources: .outOfResources
            case .tlsHandshakeFailed: .tlsHandshakeFailed
            case .serverTrustRefused: .serverTrustRefused
            case .tlsConfigurationInvalid: .tlsConfigurationInvalid
            case .proxyRefused: .proxyRefused
            case .proxyAuthenticationRequired: .proxyAuthenticationRequired
            case .proxyInvalidResponse: .proxyInvalidResponse
            case .proxyClosed: .proxyClosed
            case .proxyTimedOut: .proxyTimedOut
            case .other: .other
            }
    }
}

extension ConnectionLoss {
    /// `error`, which ended an exchange, as a public loss: the reason is its text as it reads.
    init(_ error: HTTP1ConnectionError, requestMayHaveBeenProcessed: Bool) {
        var offset: Int? = nil
        let cause: Cause
        switch error {
        case .closedBeforeResponse, .connectionClosedBeforeRequest: cause = .closedBeforeResponse
        case .invalidResponse(let parse) where parse.kind == .unexpectedEOF:
            // The parser's EOF at 0 is a close before any response byte.
            cause = parse.offset == 0 ? .closedBeforeResponse : .closedDuringResponse
            offset = parse.offset == 0 ? nil : parse.offset
        case .invalidResponse(let parse):
            cause = .invalidResponse
            offset = parse.offset
        case .writeFailed: cause = .writeFailed
        case .connectionFailed(let lower): cause = Self.cause(of: lower)
        case .unexpectedProtocolSwitch: cause = .unexpectedProtocolSwitch
        case .requestHeadRefused, .requestTrailersRefused, .requestBodyTooLong, .requestBodyTooShort,
            .trailersNeedChunkedBody:
            cause = .invalidRequest
        case .undecodableBody, .cancelled, .timedOut: cause = .other
        }
        self.init(
            cause: cause, reason: "\(error)", requestMayHaveBeenProcessed: requestMayHaveBeenProcessed,
            responseOffset: offset, underlyingError: error)
    }

    /// `failure`, which ended an HTTP/2 stream, as a public loss.
    init(_ failure: HTTP2StreamFailure, requestMayHaveBeenProcessed: Bool) {
        let cause: Cause =
            switch failure {
            case .refused(.invalidFieldName), .refused(.invalidFieldValue), .refused(.headerListTooLarge):
                .invalidRequest
            case .refused, .goAway: .streamRefused
            case .reset(let code) where code == .refusedStream: .streamRefused
            case .reset: .streamReset
            case .protocolError: .http2ProtocolError
            case .connectionUnresponsive: .unresponsive
            case .connectionClosed(let error?): Self.cause(of: error)
            case .connectionClosed(nil): .other
            case .writeFailed: .writeFailed
            case .undecodableBody, .timedOut, .cancelled: .other
            }
        self.init(
            cause: cause, reason: "\(failure)", requestMayHaveBeenProcessed: requestMayHaveBeenProcessed,
            underlyingError: failure)
    }

    /// The cause of a channel failure under an exchange (the driver's error).
    private static func cause(of error: any Error) -> Cause {
        switch error as? StreamChannelError {
        case .reactor(.connectionReset), .reactor(.connectionAborted), .reactor(.brokenPipe), .reactor(.timedOut):
            .reset
        case .tls, .tlsTimedOut: .tlsFailed
        default: .other
        }
    }
}

extension ContentDecodingFailure {
    /// The decoder's error as a public failure: the reason is its text as it reads.
    init(_ error: ContentDecodingError) {
        let (kind, coding, offset) = Self.parts(of: error)
        self.init(
            kind: kind, reason: "\(error)", coding: coding.map { "\($0)" }, offset: offset, underlyingError: error)
    }

    /// The kind of a decoder's error, and the coding and offset where it failed if it has them.
    private static func parts(of error: ContentDecodingError) -> (Kind, ContentCoding?, Int?) {
        switch error {
        case .invalidHeader(let coding, let offset), .invalidData(let coding, let offset): (.corrupt, coding, offset)
        case .checksumMismatch(let coding, let offset): (.checksumMismatch, coding, offset)
        case .trailingGarbage(let coding, let offset): (.trailingBytes, coding, offset)
        case .truncated(let coding, let offset): (.truncated, coding, offset)
        case .tooManyCodings: (.tooManyCodings, nil, nil)
        case .expansionRatioLimitExceeded: (.expansionRatioExceeded, nil, nil)
        case .decodedSizeLimitExceeded: (.decodedSizeExceeded, nil, nil)
        case .outOfMemory: (.outOfMemory, nil, nil)
        }
    }
}
