// The one place where transport errors become public `WickError`s.
import WickHTTP1
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
                self = .sessionTaskFailed(error: .timedOut(phase: .waitingForConnection, lastConnectionFailure: last))
            }
        case .timedOut(let phase):
            let publicPhase: TimeoutPhase =
                switch phase {
                case .sendingRequest: .sendingRequest
                case .waitingForResponse: .waitingForResponse
                case .receivingResponse: .receivingResponse
                case .idle: .idleTransfer
                }
            self = .sessionTaskFailed(error: .timedOut(phase: publicPhase, lastConnectionFailure: nil))
        case .cancelled: self = .explicitlyCancelled
        case .shutdown: self = .sessionInvalidated
        case .requestFailed(.undecodableBody(let failure), _):
            self = .sessionTaskFailed(error: .contentDecodingFailed(reason: "\(failure)"))
        case .requestFailed(let failure, let mayHaveBeenProcessed):
            self = .sessionTaskFailed(
                error: .connectionLost(reason: "\(failure)", requestMayHaveBeenProcessed: mayHaveBeenProcessed))
        case .responseBodyTooLarge(let limit): self = .bodyTooLarge(limit: limit)
        case .tlsUnavailable(let failure): self = .sessionTaskFailed(error: .tlsUnavailable(failure))
        case .requestBodyFailed(let reason): self = .sessionTaskFailed(error: .requestBodyFailed(reason: reason))
        }
    }

    /// A failed connect: trust refusals, proxy refusals and timeouts get their own cases.
    private static func connectFailure(_ failure: StreamChannelError) -> WickError {
        switch failure {
        case .tls(.serverTrustFailed(let trust)): .serverTrustEvaluationFailed(reason: trust)
        case .tlsTimedOut(_, .handshake, _):
            .sessionTaskFailed(error: .timedOut(phase: .tlsHandshake, lastConnectionFailure: failure))
        case .tlsTimedOut(_, .trustEvaluation, _):
            .sessionTaskFailed(error: .timedOut(phase: .trustEvaluation, lastConnectionFailure: failure))
        case .proxy(.refused(let proxy, 407, _, let credentialsSent)):
            .sessionTaskFailed(error: .proxyAuthenticationRequired(proxy: proxy, credentialsSent: credentialsSent))
        case .proxy(let tunnel): .sessionTaskFailed(error: .proxyConnectFailed(tunnel))
        case .reactor(.connectTimedOut):
            .sessionTaskFailed(error: .timedOut(phase: .connect, lastConnectionFailure: failure))
        default: .sessionTaskFailed(error: .connectionFailed(failure))
        }
    }
}
