// Transport failures sorted into kinds a retry policy can name (Wick's URLError.Code).

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
        /// The proxy wants credentials, or refused the ones sent (an HTTP proxy's 407, a SOCKS5
        /// proxy's refusal of every method offered or of the user name and password).
        case proxyAuthenticationRequired
        /// The proxy refused or broke the tunnel (HTTP CONNECT or the SOCKS handshake).
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
        case .connectionFailed(let failure): failure.kind.sessionTaskFailureKind
        case .timedOut: .timedOut
        case .connectionLost: .networkConnectionLost
        case .tlsUnavailable: .tlsUnavailable
        case .contentDecodingFailed: .cannotDecodeContentData
        case .tooManyRedirects: .tooManyRedirects
        case .invalidRedirect: .invalidRedirect
        case .proxyAuthenticationRequired: .proxyAuthenticationRequired
        case .proxyConnectFailed: .proxyFailed
        case .socksProxyFailed(_, .noAcceptableMethod), .socksProxyFailed(_, .authenticationFailed):
            .proxyAuthenticationRequired
        case .socksProxyFailed: .proxyFailed
        case .requestBodyFailed: .localFailure
        }
    }

    /// Whether the server cannot have received the request, so that sending it again cannot
    /// repeat its effect, whatever the method: no connection was made, the request timed out
    /// before its exchange began, or the connection was lost before any request byte was
    /// written (`connectionLost` with `requestMayHaveBeenProcessed` false).
    public var requestWasNotSent: Bool {
        switch self {
        case .connectionFailed, .tlsUnavailable, .proxyAuthenticationRequired, .proxyConnectFailed, .socksProxyFailed:
            true
        case .timedOut(let phase, _):
            switch phase {
            case .waitingForConnection, .connect, .proxyConnect, .tlsHandshake, .trustEvaluation: true
            case .sendingRequest, .waitingForResponse, .receivingResponse, .idleTransfer: false
            }
        case .connectionLost(let loss): !loss.requestMayHaveBeenProcessed
        case .contentDecodingFailed, .tooManyRedirects, .invalidRedirect, .requestBodyFailed: false
        }
    }
}

extension ConnectionFailure.Kind {
    /// The `SessionTaskFailure.Kind` of a failed connect of this kind.
    var sessionTaskFailureKind: SessionTaskFailure.Kind {
        switch self {
        case .refused, .reset, .hostUnreachable: .cannotConnectToHost
        case .timedOut: .timedOut
        case .networkUnreachable: .notConnectedToInternet
        case .unknownHost: .cannotFindHost
        case .resolutionFailed: .dnsLookupFailed
        case .tlsHandshakeFailed: .secureConnectionFailed
        case .serverTrustRefused: .serverTrustFailed
        case .tlsConfigurationInvalid: .tlsUnavailable
        case .proxyAuthenticationRequired: .proxyAuthenticationRequired
        case .proxyRefused, .proxyInvalidResponse, .proxyClosed, .proxyTimedOut: .proxyFailed
        // addressUnavailable, invalidAddress, permissionDenied, outOfResources, other, and kinds
        // a later release adds until they are placed.
        default: .localFailure
        }
    }
}
