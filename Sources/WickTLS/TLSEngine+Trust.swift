// Trust evaluation on a client engine: after the handshake, before any application byte.

extension TLSEngine {
    /// The server's trust for evaluation: the host, the presented chain, the stapled OCSP
    /// response and the context's anchors, fetcher and cache.
    /// - Precondition: a client engine whose handshake completed.
    public var serverTrust: ServerTrust {
        guard let context = trustContext else { preconditionFailure("TLSEngine: serverTrust on a server engine") }
        return ServerTrust(
            host: HostAddress.unbracketed(serverHostname) ?? serverHostname,
            presentedChain: peerCertificateChain,
            stapledOCSPResponse: stapledOCSPResponse,
            trustStore: context.trustStore,
            revocationFetcher: context.revocationFetcher,
            revocationCache: context.revocationCache,
            openSSLVerifyResult: openSSLVerifyResult)
    }

    /// Evaluates the server with `evaluator` (nil: `DefaultTrustEvaluator()`), then opens the
    /// connection for application data. On failure the connection is dead: a `close_notify` is
    /// queued and every later call throws the same error.
    /// - Throws: `TLSError.serverTrustFailed` naming the host, the evaluator and the reason, with
    ///   OpenSSL's verify result (`ServerTrustError.openSSLVerifyResult`).
    public func evaluateTrust(using evaluator: (any ServerTrustEvaluating)?) throws(TLSError) {
        let evaluator = evaluator ?? DefaultTrustEvaluator()
        let trust = serverTrust
        do {
            try evaluator.evaluate(trust, forHost: trust.host)
        } catch {
            var trustError =
                error as? ServerTrustError
                ?? ServerTrustError(host: trust.host, evaluator: "\(type(of: evaluator))", reason: .custom("\(error)"))
            trustError.openSSLVerifyResult = trust.openSSLVerifyResult
            trustRefused(.serverTrustFailed(trustError))
            throw .serverTrustFailed(trustError)
        }
        trustEstablished()
    }
}
