// A server-side SSL_CTX for in-memory tests: Wick is a client, this plays the server opposite it.
internal import CWickOpenSSL

/// The server half of in-memory TLS tests: serves a certificate chain, optionally staples an
/// OCSP response and requires a client certificate. Not part of Wick's API (SPI for tests);
/// its security level is 0 so that tests can serve weak certificates and see the client refuse.
@_spi(WickTLSTesting)
public final class TLSServerContext: @unchecked Sendable {
    // @unchecked Sendable: configured completely in init, read-only afterwards (as TLSContext).

    let pointer: OpaquePointer
    /// The ALPN list the server accepts, in wire form, alive as long as the SSL_CTX.
    private let alpn: UnsafeMutableBufferPointer<UInt8>
    /// The DER OCSP response stapled to every handshake that asks, if any.
    let stapledOCSPResponse: [UInt8]?

    /// A server context.
    /// - Parameters:
    ///   - cipherList: the TLS 1.2 suites served, in OpenSSL's syntax; nil keeps OpenSSL's default.
    ///   - certificateChain: leaf first, then what the server sends after it.
    ///   - clientCertificateRoots: when set, a client certificate chaining to one of these is
    ///     required.
    /// - Throws: `TLSError.invalidConfiguration` if OpenSSL refuses a setting.
    public init(
        certificateChain: [Certificate], privateKeyPEM: String, clientCertificateRoots: [Certificate]? = nil,
        stapledOCSPResponse: [UInt8]? = nil, minimumVersion: TLSVersion = .v1_2, maximumVersion: TLSVersion? = nil,
        applicationProtocols: [String] = ["http/1.1"], cipherList: String? = nil
    ) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .invalidConfiguration("SSL_CTX_new: \(OpenSSLErrorQueue.drain())")
        }
        pointer = context
        var wire = TLSConfiguration()
        wire.applicationProtocols = applicationProtocols
        let bytes = wire.alpnWireFormat
        // SAFETY: allocated and initialised here, deallocated in deinit after the SSL_CTX.
        alpn = .allocate(capacity: bytes.count)
        _ = alpn.initialize(from: bytes)
        self.stapledOCSPResponse = stapledOCSPResponse
        SSL_CTX_set_security_level(context, 0)
        try OpenSSLContextSetup.versions(context, minimum: minimumVersion, maximum: maximumVersion)
        try OpenSSLContextSetup.ciphers(context, list: cipherList, suites: nil)
        try OpenSSLContextSetup.identity(context, chain: certificateChain, keyPEM: Array(privateKeyPEM.utf8))
        let sessionContext: [UInt8] = Array("wick-test-server".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        // SAFETY: unretained; callbacks run only during SSL calls on SSLs made from this context,
        // and engines keep the context alive.
        _ = cwick_SSL_CTX_set_app_data(context, Unmanaged.passUnretained(self).toOpaque())
        if let roots = clientCertificateRoots {
            try OpenSSLContextSetup.trustStore(context, roots: .certificates(roots), additional: [])
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        if stapledOCSPResponse != nil { _ = cwick_SSL_CTX_set_tlsext_status_cb(context, Self.statusCallback) }
        SSL_CTX_set_alpn_select_cb(context, Self.alpnCallback, nil)
    }

    deinit {
        SSL_CTX_free(pointer)
        alpn.deallocate()  // SAFETY: the SSL_CTX that pointed into it is already freed.
    }

    private static func context(_ ssl: OpaquePointer?) -> TLSServerContext? {
        // SAFETY: the SSL_CTX's app data is its unretained TLSServerContext (set in init).
        guard let ssl, let data = cwick_SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)) else { return nil }
        return Unmanaged<TLSServerContext>.fromOpaque(data).takeUnretainedValue()
    }

    /// Staples the response: OpenSSL frees the copy we hand it.
    private static let statusCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _ in
        guard let ssl, let context = TLSServerContext.context(ssl), let response = context.stapledOCSPResponse,
            let copy = cwick_OPENSSL_malloc(response.count)
        else { return SSL_TLSEXT_ERR_NOACK }
        // SAFETY: `copy` has room for the response; the SSL takes ownership of it.
        response.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        _ = cwick_SSL_set_tlsext_status_ocsp_resp(ssl, copy.assumingMemoryBound(to: UInt8.self), response.count)
        return SSL_TLSEXT_ERR_OK
    }

    /// Picks the first of the client's protocols the server accepts.
    private static let alpnCallback:
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
            UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
        ) -> Int32 = { ssl, out, outLength, clientList, clientLength, _ in
            guard let context = TLSServerContext.context(ssl), let out, let outLength else {
                return SSL_TLSEXT_ERR_NOACK
            }
            var selected: UnsafeMutablePointer<UInt8>?
            // SAFETY: both lists outlive the call; `selected` points into one of them, and the
            // server's list lives as long as the context.
            let result = SSL_select_next_proto(
                &selected, outLength, context.alpn.baseAddress, UInt32(context.alpn.count), clientList, clientLength)
            guard result == OPENSSL_NPN_NEGOTIATED, let selected else { return SSL_TLSEXT_ERR_NOACK }
            out.pointee = UnsafePointer(selected)
            return SSL_TLSEXT_ERR_OK
        }
}
