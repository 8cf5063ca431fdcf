// Transport failures sorted into kinds a retry policy can name (Wick's URLError.Code).
import WickReactor
import WickTLS

extension SessionTaskFailure {
    /// What sort of failure this is, in the terms of Alamofire's `URLError.Code` list, so that a
    /// `RetryPolicy` can name the ones worth retrying.
    public enum Kind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The connection failed during the exchange: closed, reset, or an invalid response
        /// (`networkConnectionLost`).
        case networkConnectionLost
        /// A deadline or a connect, TLS or trust-evaluation timeout passed (`timedOut`).
        case timedOut
        /// The connect failed at the peer: refused, reset, no route to the host, every address
        /// failed, a Unix socket with nobody listening (`cannotConnectToHost`).
        case cannotConnectToHost
        /// The resolver found no address for the host (`cannotFindHost`).
        case cannotFindHost
        /// Name resolution failed for another reason (`dnsLookupFailed`).
        case dnsLookupFailed
        /// The network is unreachable (`notConnectedToInternet`).
        case notConnectedToInternet
        /// The TLS handshake failed or the TLS stream broke (`secureConnectionFailed`).
        case secureConnectionFailed
        /// The server's certificate was refused (`serverCertificateUntrusted`).
        case serverTrustFailed
        /// This process or machine could not make the connection: out of file descriptors,
        /// ports or memory, a permission, an unusable address, the loop shutting down.
        case localFailure
        /// The TLS context could not be built from the configuration.
        case tlsUnavailable
        /// The response body could not be decoded (`cannotDecodeContentData`).
        case cannotDecodeContentData
        /// A redirect chain was too long (`httpTooManyRedirects`).
        case tooManyRedirects
        /// A redirect was refused (`redirectToNonExistentLocation`, insecure or unusable).
        case invalidRedirect
        /// The HTTP proxy wants credentials, or refused the ones sent (407).
        case proxyAuthenticationRequired
        /// The HTTP proxy refused or broke the CONNECT tunnel.
        case proxyFailed

        /// The case name.
        public var description: String {
            switch self {
            case .networkConnectionLost: "networkConnectionLost"
            case .timedOut: "timedOut"
            case .cannotConnectToHost: "cannotConnectToHost"
            case .cannotFindHost: "cannotFindHost"
            case .dnsLookupFailed: "dnsLookupFailed"
            case .notConnectedToInternet: "notConnectedToInternet"
            case .secureConnectionFailed: "secureConnectionFailed"
            case .serverTrustFailed: "serverTrustFailed"
            case .localFailure: "localFailure"
            case .tlsUnavailable: "tlsUnavailable"
            case .cannotDecodeContentData: "cannotDecodeContentData"
            case .tooManyRedirects: "tooManyRedirects"
            case .invalidRedirect: "invalidRedirect"
            case .proxyAuthenticationRequired: "proxyAuthenticationRequired"
            case .proxyFailed: "proxyFailed"
            }
        }
    }

    /// This failure's kind.
    public var kind: Kind {
        switch self {
        case .connectionFailed(let error): Self.kind(of: error)
        case .timedOut: .timedOut
        case .connectionLost: .networkConnectionLost
        case .tlsUnavailable: .tlsUnavailable
        case .contentDecodingFailed: .cannotDecodeContentData
        case .tooManyRedirects: .tooManyRedirects
        case .invalidRedirect: .invalidRedirect
        case .proxyAuthenticationRequired: .proxyAuthenticationRequired
        case .proxyConnectFailed: .proxyFailed
        case .requestBodyFailed: .localFailure
        }
    }

    /// Whether the server cannot have received the request, so that sending it again cannot
    /// repeat its effect, whatever the method: no connection was made, the request timed out
    /// before its exchange began, or the connection was lost before any request byte was
    /// written (`connectionLost(requestMayHaveBeenProcessed: false)`).
    public var requestWasNotSent: Bool {
        switch self {
        case .connectionFailed, .tlsUnavailable, .proxyAuthenticationRequired, .proxyConnectFailed: true
        case .timedOut(let phase, _):
            switch phase {
            case .waitingForConnection, .connect, .tlsHandshake, .trustEvaluation: true
            case .sendingRequest, .waitingForResponse, .receivingResponse, .idleTransfer: false
            }
        case .connectionLost(_, let mayHaveBeenProcessed): !mayHaveBeenProcessed
        case .contentDecodingFailed, .tooManyRedirects, .invalidRedirect, .requestBodyFailed: false
        }
    }

    /// The kind of a failed connect.
    private static func kind(of error: StreamChannelError) -> Kind {
        switch error {
        case .reactor(let reactor): kind(of: reactor)
        case .tls(.serverTrustFailed): .serverTrustFailed
        case .tls(.invalidConfiguration): .tlsUnavailable
        case .tls(.handshakeFailed), .tls(.protocolError), .tls(.truncated): .secureConnectionFailed
        case .tlsTimedOut: .timedOut
        case .proxy: .proxyFailed
        }
    }

    /// The kind of a socket failure during a connect.
    private static func kind(of error: ReactorError) -> Kind {
        switch error {
        case .connectionRefused, .connectionReset, .connectionAborted, .brokenPipe, .hostUnreachable, .timedOut,
            .connectFailed, .channelClosed, .outputClosed, .unixSocketUnavailable:
            .cannotConnectToHost
        case .connectTimedOut: .timedOut
        case .networkUnreachable: .notConnectedToInternet
        case .unknownHost: .cannotFindHost
        case .resolutionFailed: .dnsLookupFailed
        case .addressInUse, .addressNotAvailable, .addressFamilyNotSupported, .permissionDenied, .tooManyOpenFiles,
            .outOfResources, .invalidAddress, .writeBufferFull, .loopShutDown, .system:
            .localFailure
        }
    }
}
