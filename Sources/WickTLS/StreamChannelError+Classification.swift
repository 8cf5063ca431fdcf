// The one classification of a failed connect: its kind, whether another attempt could succeed,
// and the timeout phase it ended, decided together, one row per error.
import WickReactor

extension StreamChannelError {
    /// What sort of connect failure an error is. Wick's public `ConnectionFailure.Kind` names
    /// each of these; the pool and the public error read them from here, never from the error.
    package enum FailureKind: Hashable, Sendable, CaseIterable {
        /// The peer refused the connection, or a Unix socket has no listener (or a full backlog).
        case refused
        /// The peer reset, aborted or closed the connection while it was being made.
        case reset
        /// No route to the host, or the kernel gave up on its silence (`ETIMEDOUT`).
        case hostUnreachable
        /// The network is unreachable (no route for the address family, interface down).
        case networkUnreachable
        /// The resolver found no address for the host.
        case unknownHost
        /// Name resolution failed for another reason.
        case resolutionFailed
        /// The connect timeout, or the TLS handshake's, passed.
        case timedOut
        /// No local address or port could be had (in use, none free, family not supported).
        case addressUnavailable
        /// The address cannot be used (malformed, a Unix path too long).
        case invalidAddress
        /// The system did not permit the connection (`EACCES`, `EPERM`).
        case permissionDenied
        /// This process or machine ran out of descriptors, memory or buffer space.
        case outOfResources
        /// The TLS handshake failed (with the origin, or with an HTTPS proxy): an alert, no
        /// shared version or cipher, a protocol error, a close without `close_notify`.
        case tlsHandshakeFailed
        /// The trust evaluator refused the server's certificate chain, or an HTTPS proxy's
        /// (under the proxy's own trust).
        case serverTrustRefused
        /// The TLS configuration cannot be made into a context.
        case tlsConfigurationInvalid
        /// The HTTP proxy refused the CONNECT tunnel with a status other than 2xx and 407, or a
        /// SOCKS proxy refused the connect (its reply code).
        case proxyRefused
        /// The HTTP proxy answered CONNECT with 407, or a SOCKS5 proxy refused every method
        /// offered or the user name and password.
        case proxyAuthenticationRequired
        /// The HTTP proxy's answer to CONNECT was not valid HTTP/1.1, or bytes followed its 2xx;
        /// or a SOCKS proxy's reply broke its protocol, or bytes followed its success reply.
        case proxyInvalidResponse
        /// The proxy closed the connection before answering CONNECT or ending its SOCKS handshake.
        case proxyClosed
        /// The proxy did not answer CONNECT, end its SOCKS handshake, or finish an HTTPS proxy's
        /// TLS handshake, in time.
        case proxyTimedOut
        /// Anything else: the loop shutting down, an unexpected system call failure.
        case other
    }

    /// Where a connect ran out of time, for the errors that are timeouts of a connect phase.
    package enum TimeoutPhase: Hashable, Sendable, CaseIterable {
        /// Name resolution and the TCP connect (with Happy Eyeballs).
        case connect
        /// The TLS handshake's messages.
        case tlsHandshake
        /// The evaluation of the server's certificate chain.
        case trustEvaluation
    }

    /// The three facts about a failed connect that the layers above act on.
    package struct Classification: Hashable, Sendable {
        /// What sort of failure it is.
        package let kind: FailureKind
        /// Whether another attempt could succeed (the pool backs off and tries again), or would
        /// fail the same way (the pool fails every waiter at once).
        package let isRetryable: Bool
        /// The phase that ran out of time, when the failure is a connect-phase timeout. A proxy
        /// that does not answer CONNECT is a proxy failure, not a phase: it has none.
        package let timeoutPhase: TimeoutPhase?

        package init(_ kind: FailureKind, retryable: Bool, timeoutPhase: TimeoutPhase? = nil) {
            self.kind = kind
            self.isRetryable = retryable
            self.timeoutPhase = timeoutPhase
        }
    }

    /// This error's kind, retryability and timeout phase.
    ///
    /// Rules: what the peer or the network did (refused, reset, unreachable, timed out) can
    /// change, so it is retryable; so can local shortages (ports, descriptors, memory). A name
    /// that does not resolve, a TLS failure, a trust refusal, a proxy that refuses or breaks the
    /// tunnel, an unusable address, a permission, the loop shutting down fail the same way
    /// again. A timeout of ours (connect, TLS, CONNECT) is retryable.
    package var classification: Classification {
        switch self {
        case .reactor(let error): Self.classification(of: error)
        case .tls(.invalidConfiguration): Classification(.tlsConfigurationInvalid, retryable: false)
        case .tls(.handshakeFailed), .tls(.protocolError), .tls(.truncated):
            Classification(.tlsHandshakeFailed, retryable: false)
        case .tls(.serverTrustFailed): Classification(.serverTrustRefused, retryable: false)
        case .tls(.applicationProtocolNotSelected): Classification(.tlsHandshakeFailed, retryable: false)
        case .tlsTimedOut(_, .handshake, _): Classification(.timedOut, retryable: true, timeoutPhase: .tlsHandshake)
        case .tlsTimedOut(_, .trustEvaluation, _):
            Classification(.timedOut, retryable: true, timeoutPhase: .trustEvaluation)
        case .proxy(.refused(_, 407, _, _)): Classification(.proxyAuthenticationRequired, retryable: false)
        case .proxy(.refused): Classification(.proxyRefused, retryable: false)
        case .proxy(.invalidResponse), .proxy(.unexpectedBytes): Classification(.proxyInvalidResponse, retryable: false)
        case .proxy(.closedBeforeResponse): Classification(.proxyClosed, retryable: false)
        case .proxy(.timedOut): Classification(.proxyTimedOut, retryable: true)
        case .proxy(.socks(_, .noAcceptableMethod)), .proxy(.socks(_, .authenticationFailed)):
            Classification(.proxyAuthenticationRequired, retryable: false)
        case .proxy(.socks(_, .connectRefused)): Classification(.proxyRefused, retryable: false)
        case .proxy(.socks(_, .invalidReply)), .proxy(.socks(_, .unexpectedBytes)):
            Classification(.proxyInvalidResponse, retryable: false)
        case .proxy(.socks(_, .closed)): Classification(.proxyClosed, retryable: false)
        case .proxy(.tlsFailed(_, .serverTrustFailed)): Classification(.serverTrustRefused, retryable: false)
        case .proxy(.tlsFailed(_, .invalidConfiguration)): Classification(.tlsConfigurationInvalid, retryable: false)
        case .proxy(.tlsFailed): Classification(.tlsHandshakeFailed, retryable: false)
        case .proxy(.tlsTimedOut): Classification(.proxyTimedOut, retryable: true)
        }
    }

    /// Whether another connect attempt could succeed (`classification.isRetryable`).
    package var isRetryable: Bool { classification.isRetryable }

    /// A socket failure during a connect.
    private static func classification(of error: ReactorError) -> Classification {
        switch error {
        case .connectionRefused, .unixSocketUnavailable: Classification(.refused, retryable: true)
        case .connectionReset, .connectionAborted, .brokenPipe, .channelClosed, .outputClosed:
            Classification(.reset, retryable: true)
        case .hostUnreachable, .timedOut: Classification(.hostUnreachable, retryable: true)
        case .networkUnreachable: Classification(.networkUnreachable, retryable: true)
        // Retryable unless every attempt failed in a way that cannot heal (a source address of
        // the wrong family for each address, say).
        case .connectFailed(_, let attempts):
            Classification(
                kind(ofAttempts: attempts),
                retryable: attempts.isEmpty || attempts.contains { classification(of: $0.error).isRetryable })
        case .connectTimedOut, .resolutionTimedOut: Classification(.timedOut, retryable: true, timeoutPhase: .connect)
        case .unknownHost: Classification(.unknownHost, retryable: false)
        case .resolutionFailed: Classification(.resolutionFailed, retryable: false)
        case .addressInUse, .addressNotAvailable: Classification(.addressUnavailable, retryable: true)
        case .addressFamilyNotSupported: Classification(.addressUnavailable, retryable: false)
        case .invalidAddress: Classification(.invalidAddress, retryable: false)
        case .permissionDenied: Classification(.permissionDenied, retryable: false)
        case .tooManyOpenFiles, .outOfResources, .writeBufferFull: Classification(.outOfResources, retryable: true)
        case .loopShutDown: Classification(.other, retryable: false)
        case .system: Classification(.other, retryable: true)
        }
    }

    /// The kind of "every attempt failed": the attempt that got furthest says most (an answer
    /// from the host beats silence, which beats a network with no route), so an IPv6 attempt
    /// that found no route does not hide an IPv4 one that was refused. No attempts: unreachable.
    private static func kind(ofAttempts attempts: [ConnectAttemptFailure]) -> FailureKind {
        let kinds = attempts.map { classification(of: $0.error).kind }
        for furthest: FailureKind in [.refused, .reset, .hostUnreachable] where kinds.contains(furthest) {
            return furthest
        }
        return kinds.last ?? .hostUnreachable
    }
}
