// The expensive, shared half of client TLS: one SSL_CTX with its loaded trust store per configuration.
internal import CWickOpenSSL

/// A client TLS context: the configuration turned into an OpenSSL `SSL_CTX` with its trust
/// store loaded, its identity set and its session cache. Build it once per configuration and
/// share it: every `TLSEngine` made from it reuses the loaded store (loading the system CA
/// bundle takes tens of milliseconds; doing it per connection caps a client at a few dozen
/// handshakes per second).
public final class TLSContext: @unchecked Sendable {
    // @unchecked Sendable: `pointer` is configured completely in `init` and never changed after;
    // OpenSSL supports SSL_new and X509 verification against one SSL_CTX/X509_STORE from many
    // threads at once (they lock internally). The other properties are immutable and Sendable.

    /// The settings this context was built from.
    public let configuration: TLSConfiguration
    /// The `SSL_CTX`.
    let pointer: OpaquePointer
    /// The session cache, when `configuration.resumesSessions`.
    let sessionCache: TLSSessionCache?
    /// The trust anchors (the SSL_CTX's store), shared with every `ServerTrust`.
    public let trustStore: TrustStore
    /// Fetches OCSP responses and CRLs for revocation checks; nil limits them to stapled answers.
    public let revocationFetcher: (any RevocationFetching)?
    /// Revocation answers kept until their nextUpdate, shared by this context's connections.
    public let revocationCache: RevocationCache

    /// Builds the context: versions, ciphers, ALPN, trust store, identity, session cache,
    /// stapling and key log.
    /// - Parameter revocationFetcher: how `RevocationTrustEvaluator` fetches OCSP and CRLs.
    /// - Throws: `TLSError.invalidConfiguration` naming the setting OpenSSL refused.
    public init(
        configuration: TLSConfiguration = TLSConfiguration(), revocationFetcher: (any RevocationFetching)? = nil
    ) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .invalidConfiguration("SSL_CTX_new: \(OpenSSLErrorQueue.drain())")
        }
        self.pointer = context
        self.trustStore = TrustStore(retaining: SSL_CTX_get_cert_store(context))
        self.revocationFetcher = revocationFetcher
        self.revocationCache = RevocationCache()
        self.configuration = configuration
        self.sessionCache =
            configuration.resumesSessions
            ? TLSSessionCache(
                capacity: configuration.sessionCacheCapacity,
                file: configuration.sessionFile.map {
                    TLSSessionFile(path: $0, clientIdentity: configuration.clientIdentity)
                }) : nil
        // From here `deinit` frees the SSL_CTX on every path, a throwing one included.
        try OpenSSLContextSetup.versions(
            context, minimum: configuration.minimumVersion,
            maximum: configuration.maximumVersion)
        try OpenSSLContextSetup.ciphers(
            context, list: TLSCipherPolicy.cipherList(for: configuration), suites: configuration.cipherSuites)
        SSL_CTX_set_security_level(context, OpenSSLContextSetup.securityLevel)
        _ = SSL_CTX_set_options(context, cwick_SSL_OP_client_defaults())
        // Trust is decided after the handshake by the evaluators (ServerTrust), on the chain the
        // server presented; OpenSSL must not abort the handshake on its own.
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        try OpenSSLContextSetup.trustStore(
            context, roots: configuration.trustRoots,
            additional: configuration.additionalTrustRoots)
        if !configuration.applicationProtocols.isEmpty {
            let wire = configuration.alpnWireFormat
            // SAFETY: OpenSSL copies the protocol list.
            let failed = wire.withUnsafeBufferPointer {
                SSL_CTX_set_alpn_protos(context, $0.baseAddress, UInt32($0.count))
            }
            guard failed == 0 else {
                throw .invalidConfiguration(
                    "ALPN protocols \(configuration.applicationProtocols): \(OpenSSLErrorQueue.drain())")
            }
        }
        if let identity = configuration.clientIdentity {
            try OpenSSLContextSetup.identity(context, chain: identity.certificateChain, keyPEM: identity.privateKeyPEM)
        }
        if sessionCache != nil {
            _ = cwick_SSL_CTX_set_session_cache_mode(context, cwick_SSL_SESS_CACHE_client_external())
            SSL_CTX_sess_set_new_cb(context, TLSEngine.newSessionCallback)
        }
        if configuration.keyLog != nil {
            SSL_CTX_set_keylog_callback(context, TLSEngine.keyLogCallback)
        }
    }

    deinit {
        sessionCache?.flush()
        SSL_CTX_free(pointer)
    }
}

/// Steps shared by the client context and the test server's context.
enum OpenSSLContextSetup {
    /// OpenSSL security level 2: keys of at least 112 bits of security (RSA/DH ≥ 2048, EC ≥ 224),
    /// no SHA-1 signatures, for the handshake and for chain verification.
    static let securityLevel: Int32 = 2

    static func versions(_ context: OpaquePointer, minimum: TLSVersion, maximum: TLSVersion?) throws(TLSError) {
        if let maximum, maximum < minimum {
            throw .invalidConfiguration("maximum version \(maximum) is below minimum version \(minimum)")
        }
        guard cwick_SSL_CTX_set_min_proto_version(context, minimum.openSSLValue) == 1,
            cwick_SSL_CTX_set_max_proto_version(context, maximum?.openSSLValue ?? 0) == 1
        else { throw .invalidConfiguration("protocol versions: \(OpenSSLErrorQueue.drain())") }
    }

    static func ciphers(_ context: OpaquePointer, list: String?, suites: String?) throws(TLSError) {
        if let list, SSL_CTX_set_cipher_list(context, list) != 1 {
            throw .invalidConfiguration("TLS 1.2 cipher list \"\(list)\": \(OpenSSLErrorQueue.drain())")
        }
        if let suites, SSL_CTX_set_ciphersuites(context, suites) != 1 {
            throw .invalidConfiguration("TLS 1.3 cipher suites \"\(suites)\": \(OpenSSLErrorQueue.drain())")
        }
    }

    static func trustStore(_ context: OpaquePointer, roots: TrustRoots, additional: [Certificate]) throws(TLSError) {
        guard let store = SSL_CTX_get_cert_store(context) else {
            preconditionFailure("an SSL_CTX always has a certificate store")
        }
        var anchors = additional
        switch roots {
        case .system:
            // Honours SSL_CERT_FILE and SSL_CERT_DIR, like every OpenSSL client.
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw .invalidConfiguration("system trust store: \(OpenSSLErrorQueue.drain())")
            }
        case .certificates(let certificates):
            anchors = certificates + additional
        }
        TrustStore.add(anchors, to: store)
    }

    static func identity(_ context: OpaquePointer, chain: [Certificate], keyPEM: [UInt8]) throws(TLSError) {
        do {
            let key = try OpenSSLKeys.makePrivateKey(pem: keyPEM)
            defer { EVP_PKEY_free(key) }
            let leaf = chain[0].x509.pointer
            guard let extra = cwick_sk_X509_new_null() else { throw TLSError.invalidConfiguration("out of memory") }
            defer { cwick_sk_X509_pop_free(extra) }
            for certificate in chain.dropFirst() {
                // SAFETY: the stack owns the pushed reference and frees it in pop_free.
                _ = cwick_sk_X509_push(extra, certificate.x509.retainedPointer())
            }
            // SAFETY: SSL_CTX_use_cert_and_key takes its own references to all three.
            guard SSL_CTX_use_cert_and_key(context, leaf, key, extra, 1) == 1 else {
                throw TLSError.invalidConfiguration("identity \(chain[0].subject): \(OpenSSLErrorQueue.drain())")
            }
        } catch let error as TLSError {
            throw error
        } catch {
            throw .invalidConfiguration("identity: \(error)")
        }
    }
}
