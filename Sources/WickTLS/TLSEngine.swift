// A TLS session without a socket: ciphertext in and out as bytes, plaintext in and out as bytes.
internal import CWickOpenSSL

/// One TLS connection's protocol engine, sans I/O. The driver (the reactor's TLS channel, or a
/// test) moves bytes; the engine never touches a socket:
///
/// 1. Call `handshake()`. Whenever `hasPendingOutput`, send `takePendingOutput()` to the peer.
///    `.needsInput` means: feed the next bytes read from the socket with
///    `receivedFromNetwork(_:)` (or `receivedEndOfStream()` on EOF) and call `handshake()` again.
/// 2. On `.complete`, a client evaluates the server's trust with `evaluateTrust(using:)` before
///    writing anything (the engine traps on a write before that).
/// 3. `write(_:)` encrypts application bytes into the pending output; `read(into:)` decrypts
///    what has been fed, returning `.needsInput` when a whole record has not arrived yet.
/// 4. `close()` queues `close_notify`. A peer that ends the stream without it makes `read`
///    throw `TLSError.truncated`.
///
/// Call `close()` before dropping an engine whose handshake completed: OpenSSL treats a
/// session whose connection ended without `close_notify` as bad and will not resume it.
///
/// The engine is not thread-safe: one thread (the connection's event loop) drives it.
/// `WANT_WRITE` cannot happen: the output buffer takes everything OpenSSL writes, and the
/// driver is expected to flush it before handing over more plaintext.
public final class TLSEngine {
    /// Where the handshake stands after a call to `handshake()`.
    public enum HandshakeProgress: Sendable, Equatable {
        /// More bytes from the peer are needed (send any pending output first).
        case needsInput
        /// The handshake is done.
        case complete
    }

    /// What a call to `read(into:)` produced.
    public enum ReadResult: Sendable, Equatable {
        /// This many plaintext bytes were appended to the buffer.
        case bytes(Int)
        /// No whole record is buffered: feed more bytes from the network.
        case needsInput
        /// The peer sent `close_notify`: the stream ended cleanly.
        case closed
    }

    private enum State {
        /// Made; `handshake()` not called yet.
        case idle
        case handshaking
        /// Client only: the handshake is done, and no application byte may move until trust is
        /// settled.
        case awaitingTrust
        case open
        /// `close_notify` sent, or received and answered.
        case closed
        /// A fatal error; every later call throws it again.
        case failed(TLSError)
    }

    /// Which side this engine plays.
    enum Role {
        case client
        case server
    }

    let role: Role
    /// The `SSL`, owned; freed in deinit.
    private let ssl: OpaquePointer
    private let buffers = TLSByteBuffers()
    /// Keeps the SSL_CTX's owner (and so the callbacks' context) alive.
    private let owner: AnyObject
    private let sessionCache: TLSSessionCache?
    private let keyLog: TLSKeyLog?
    /// Whether `releaseRecordBuffers` frees OpenSSL's record buffers
    /// (`TLSConfiguration.releasesBuffersWhenIdle`).
    let releasesRecordBuffers: Bool
    /// How long a connection stays idle before its record buffers are freed
    /// (`TLSConfiguration.idleBufferReleaseDelay`).
    let recordBufferReleaseDelay: Duration
    /// How many times `releaseRecordBuffers` freed them.
    @_spi(WickTLSTesting) public private(set) var recordBufferReleases = 0
    /// A session that arrived before trust was established; stored once it is.
    private var pendingSession: SessionHandle?
    /// The cached session offered for resumption, with the chain its server presented then.
    private var offeredSession: TLSSessionCache.Stored?
    private var state = State.idle

    /// The host the client connects to (a name or an IP literal), as given.
    public let serverHostname: String
    /// The server's port, part of the session cache key.
    public let port: Int
    /// The trust context for evaluation (client only).
    let trustContext: TLSContext?
    /// The peer's certificate chain as presented (leaf first), after the handshake.
    public private(set) var peerCertificateChain: [Certificate] = []
    /// The OCSP response the server stapled, if it sent one.
    public private(set) var stapledOCSPResponse: [UInt8]?

    /// A client engine for `serverHostname:port`. SNI is sent for names, never for IP literals.
    /// A cached session for the same host and port is offered for resumption.
    /// - Throws: `TLSError.invalidConfiguration` if OpenSSL cannot make the session.
    public init(context: TLSContext, serverHostname: String, port: Int) throws(TLSError) {
        guard let ssl = SSL_new(context.pointer) else {
            throw .invalidConfiguration("SSL_new: \(OpenSSLErrorQueue.drain())")
        }
        self.ssl = ssl
        self.role = .client
        self.owner = context
        self.trustContext = context
        self.sessionCache = context.sessionCache
        self.keyLog = context.configuration.keyLog
        self.releasesRecordBuffers = context.configuration.releasesBuffersWhenIdle
        self.recordBufferReleaseDelay = context.configuration.idleBufferReleaseDelay
        self.serverHostname = serverHostname
        self.port = port
        attach()
        SSL_set_connect_state(ssl)
        if !HostAddress.isIPLiteral(serverHostname), cwick_SSL_set_tlsext_host_name(ssl, serverHostname) != 1 {
            throw .invalidConfiguration("server name \"\(serverHostname)\": \(OpenSSLErrorQueue.drain())")
        }
        if context.configuration.requestsOCSPStapling { _ = cwick_SSL_set_tlsext_status_type_ocsp(ssl) }
        if let stored = sessionCache?.session(for: sessionKey) {
            // SAFETY: SSL_set_session takes its own reference to the session.
            _ = SSL_set_session(ssl, stored.session.pointer)
            offeredSession = stored
        }
    }

    /// A server engine (tests only: Wick is a client).
    @_spi(WickTLSTesting)
    public init(serverContext: TLSServerContext) throws(TLSError) {
        guard let ssl = SSL_new(serverContext.pointer) else {
            throw .invalidConfiguration("SSL_new: \(OpenSSLErrorQueue.drain())")
        }
        self.ssl = ssl
        self.role = .server
        self.owner = serverContext
        self.trustContext = nil
        self.sessionCache = nil
        self.keyLog = nil
        self.releasesRecordBuffers = false
        self.recordBufferReleaseDelay = .zero
        self.serverHostname = ""
        self.port = 0
        attach()
        SSL_set_accept_state(ssl)
    }

    /// Gives the SSL its BIO and a way back to this engine for callbacks.
    private func attach() {
        // SAFETY: SSL_set_bio takes over the BIO's only reference (rbio == wbio counts once).
        let bio = EngineBIO.make(over: buffers)
        SSL_set_bio(ssl, bio, bio)
        // SAFETY: unretained; the SSL lives exactly as long as this engine (freed in deinit).
        _ = cwick_SSL_set_app_data(ssl, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        SSL_free(ssl)
    }

    /// `host:port`, the session cache key.
    var sessionKey: String { "\(serverHostname):\(port)" }

    // MARK: The network side

    /// Hands the engine bytes read from the network.
    public func receivedFromNetwork(_ bytes: some Collection<UInt8>) {
        buffers.append(bytes)
    }

    /// Tells the engine the network stream ended (the peer's FIN). Once the fed bytes are used
    /// up, a read reports `.closed` if `close_notify` came first and throws `.truncated` if not.
    public func receivedEndOfStream() {
        buffers.endOfStream = true
    }

    /// Whether ciphertext is waiting to be sent.
    public var hasPendingOutput: Bool { buffers.outboundCount > 0 }

    /// The ciphertext waiting to be sent, in order; the engine forgets it (and reuses its
    /// storage for later output once the caller has let go of the array).
    public func takePendingOutput() -> [UInt8] {
        buffers.takeOutbound()
    }

    /// Hands the pending ciphertext to `send` (e.g. a `write(2)` on a non-blocking socket),
    /// which returns how many bytes it sent; those are dropped and the rest stay pending, in
    /// order. No copy is made.
    /// - Throws: what `send` throws (nothing is dropped then).
    public func sendPendingOutput(_ send: (UnsafeRawBufferPointer) throws -> Int) rethrows {
        try buffers.sendOutbound(send)
    }

    /// Frees the engine's byte buffers while nothing is buffered (a drained read batch).
    public func releaseBuffersIfIdle() {
        buffers.releaseIfEmpty()
    }

    /// Frees OpenSSL's record buffers, with `releasesBuffersWhenIdle`, once the connection has
    /// had no exchange in flight for `recordBufferReleaseDelay` (`TLSChannel` times it from
    /// `StreamChannel.streamBecameIdle`); OpenSSL allocates them again on the next read or
    /// write. Freeing them only then, rather than after every record
    /// (`SSL_MODE_RELEASE_BUFFERS`), spares a download or a busy HTTP/2 connection two
    /// allocations per record. A buffer holding part of a record is kept (`SSL_free_buffers`
    /// refuses), so nothing is lost.
    public func releaseRecordBuffers() {
        guard releasesRecordBuffers else { return }
        // SAFETY: `ssl` is owned and alive (OpenSSL 3.0.14+ fixed CVE-2024-4741 in this call).
        if SSL_free_buffers(ssl) == 1 { recordBufferReleases += 1 }
    }

    // MARK: The handshake

    /// Advances the handshake with the bytes fed so far.
    /// - Throws: `TLSError.handshakeFailed` with OpenSSL's reason (an alert from the peer, no
    ///   shared version or cipher, a malformed message, the peer closing mid-handshake).
    public func handshake() throws(TLSError) -> HandshakeProgress {
        switch state {
        case .idle: state = .handshaking
        case .handshaking: break
        case .awaitingTrust, .open: return .complete
        case .failed(let error): throw error
        case .closed: preconditionFailure("TLSEngine: handshake() in state closed")
        }
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            handshakeCompleted()
            return .complete
        }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ { return .needsInput }
        throw fail(code, duringHandshake: true)
    }

    private func handshakeCompleted() {
        // SAFETY: the stack and its certificates belong to the SSL's session; we copy them out.
        if let chain = SSL_get_peer_cert_chain(ssl) {
            peerCertificateChain = (0..<cwick_sk_X509_num(chain)).compactMap { index in
                cwick_sk_X509_value(chain, index).map(X509Parsing.certificate(from:))
            }
        }
        // A resumed handshake carries no certificates, and a session read back from a file has
        // kept only the leaf: the chain is the one presented when the session was made.
        if role == .client, peerCertificateChain.count <= 1, SSL_session_reused(ssl) == 1, let offeredSession {
            peerCertificateChain = offeredSession.chain
        }
        if role == .server, let leaf = SSL_get1_peer_certificate(ssl) {
            // A server's peer chain omits the client's leaf: put it first, as on a client.
            peerCertificateChain.insert(X509Parsing.certificate(from: leaf), at: 0)
            X509_free(leaf)
        }
        var response: UnsafePointer<UInt8>?
        let length = cwick_SSL_get_tlsext_status_ocsp_resp(ssl, &response)
        if let response, length > 0 {
            // SAFETY: the bytes belong to the SSL; we copy them.
            stapledOCSPResponse = Array(UnsafeBufferPointer(start: response, count: length))
        }
        state = role == .client ? .awaitingTrust : .open
    }

    /// Records that the server is trusted: application data may flow, and sessions from this
    /// server may be cached.
    func trustEstablished() {
        guard case .awaitingTrust = state else {
            preconditionFailure("TLSEngine: trust established in state \(state)")
        }
        state = .open
        if let pendingSession {
            sessionCache?.store(pendingSession, chain: peerCertificateChain, for: sessionKey)
            self.pendingSession = nil
        }
    }

    /// Records that trust evaluation failed: the connection is dead; an alert is queued.
    func trustRefused(_ error: TLSError) {
        guard case .awaitingTrust = state else {
            preconditionFailure("TLSEngine: trust refused in state \(state)")
        }
        // A fatal-looking close: the peer learns we hung up; nothing more will be read or written.
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        pendingSession = nil
        state = .failed(error)
    }

    /// OpenSSL's own verification of the server's chain in the handshake, against the context's
    /// trust roots and without a host check: `X509_V_OK` (0) or the first `X509_V_ERR_*` code
    /// (`SSL_get_verify_result`; a resumed session's is the one recorded when it was made).
    /// OpenSSL computes it whatever the verify mode; Wick never acts on it (see `ServerTrust`).
    var openSSLVerifyResult: Int { Int(SSL_get_verify_result(ssl)) }

    /// The negotiated protocol version, after the handshake.
    public var negotiatedVersion: TLSVersion? { TLSVersion(openSSLValue: SSL_version(ssl)) }

    /// The cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`,
    /// `ECDHE-RSA-AES128-GCM-SHA256`), or nil before the handshake.
    public var negotiatedCipherSuite: String? {
        // SAFETY: the cipher is a static OpenSSL table entry and its name a static NUL-terminated
        // string; the name is copied at once.
        SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
    }

    /// The protocol ALPN selected (`http/1.1`), or nil when the server selected none.
    public var negotiatedApplicationProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        // SAFETY: the bytes belong to the SSL; copied at once.
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The server name (SNI) the client sent, seen from a server engine (tests only).
    @_spi(WickTLSTesting)
    public var requestedServerName: String? {
        // SAFETY: the name belongs to the SSL; copied at once.
        SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
    }

    /// Whether the handshake resumed a cached session instead of a full exchange.
    public var isSessionReused: Bool { SSL_session_reused(ssl) == 1 }

    // MARK: Application data

    /// Encrypts `plaintext` into the pending output.
    /// - Throws: the error that already ended the connection, if any.
    /// - Precondition: the handshake is complete and, for a client, trust is established.
    public func write(_ plaintext: some Collection<UInt8>) throws(TLSError) {
        switch state {
        case .open: break
        case .failed(let error): throw error
        case .idle, .handshaking, .awaitingTrust, .closed:
            preconditionFailure("TLSEngine: write in state \(state) (before trust, or after close)")
        }
        guard !plaintext.isEmpty else { return }
        // The caller's bytes as they lie (an array slice is contiguous): a copy only for a
        // collection that is not, which no caller in Wick passes.
        // SAFETY: either buffer (the collection's own contiguous storage, or the fallback array's) is
        // valid only inside its closure, and sslWrite hands it to SSL_write_ex, which reads it during
        // the call and keeps nothing; the engine's BIO copies what it must send.
        let (result, written) =
            plaintext.withContiguousStorageIfAvailable { sslWrite(UnsafeRawBufferPointer($0)) }
            ?? Array(plaintext).withUnsafeBytes { sslWrite($0) }
        guard result == 1 else { throw fail(SSL_get_error(ssl, result), duringHandshake: false) }
        precondition(
            written == plaintext.count, "SSL_write_ex wrote \(written) of \(plaintext.count) bytes without partial mode"
        )
    }

    /// One `SSL_write_ex` of `bytes`: its result and the count written.
    private func sslWrite(_ bytes: UnsafeRawBufferPointer) -> (result: Int32, written: Int) {
        var written = 0
        // SAFETY: SSL_write_ex reads `bytes.count` bytes of the caller's buffer during the call.
        let result = SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &written)
        return (result, written)
    }

    /// Decrypts buffered records, appending up to `maximumCount` plaintext bytes to `buffer`.
    /// - Throws: `TLSError.truncated` if the stream ended without `close_notify`;
    ///   `.protocolError` for an alert or a bad record.
    public func read(into buffer: inout [UInt8], maximumCount: Int = 16_384) throws(TLSError) -> ReadResult {
        // Decrypt into scratch space and append what came: zero-filling `maximumCount` bytes of
        // the buffer first costs a generic per-byte loop in unoptimised builds.
        // SAFETY: `read(into:)` writes at most `maximumCount` bytes into the scratch space, whose
        // first `count` bytes are copied out before the closure returns.
        return try withUnsafeTemporaryAllocation(byteCount: maximumCount, alignment: 1) { scratch throws(TLSError) in
            let result = try read(into: scratch)
            if case .bytes(let count) = result {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            }
            return result
        }
    }

    /// Decrypts at most `scratch.count` bytes of application data into `scratch` (its first
    /// `count` bytes, for `.bytes(count)`), with no allocation: for a caller that owns a
    /// reusable buffer (`TLSChannel` uses its loop's). `.needsInput` when a whole record has not
    /// arrived yet; `.closed` after the peer's `close_notify`.
    /// - Throws: `TLSError` for a protocol failure or an alert from the peer.
    public func read(into scratch: UnsafeMutableRawBufferPointer) throws(TLSError) -> ReadResult {
        switch state {
        case .open: break
        case .closed: return .closed
        case .failed(let error): throw error
        case .idle, .handshaking, .awaitingTrust:
            preconditionFailure("TLSEngine: read in state \(state) (before trust)")
        }
        // Nothing to read: no ciphertext waits in our buffer, the stream has not ended, and
        // OpenSSL holds no record, processed or not. `SSL_read_ex` would only report
        // WANT_READ, through the BIO, `SSL_get_error` and the error queue, once at the end of
        // every batch of records a connection reads.
        if buffers.inboundCount == 0 && !buffers.endOfStream && SSL_has_pending(ssl) == 0 { return .needsInput }
        var count = 0
        // SAFETY: SSL_read_ex writes at most `scratch.count` bytes at its base address.
        let result = SSL_read_ex(ssl, scratch.baseAddress, scratch.count, &count)
        if result == 1 { return .bytes(count) }
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ:
            return .needsInput
        case SSL_ERROR_ZERO_RETURN:
            // close_notify: answer it so the peer sees a clean close too.
            _ = SSL_shutdown(ssl)
            state = .closed
            return .closed
        default:
            throw fail(code, duringHandshake: false)
        }
    }

    /// Queues `close_notify` (if the connection is up) and ends the session.
    public func close() {
        switch state {
        case .handshaking, .awaitingTrust, .open:
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
            state = .closed
        case .idle:
            state = .closed
        case .closed, .failed:
            break
        }
    }

    /// Turns an `SSL_get_error` code into the error that ends the connection.
    private func fail(_ code: Int32, duringHandshake: Bool) -> TLSError {
        let (library, reason, text) = OpenSSLErrorQueue.drainFirstReason()
        let error: TLSError
        let unexpectedEOF =
            (code == SSL_ERROR_SSL && library == ERR_LIB_SSL && reason == SSL_R_UNEXPECTED_EOF_WHILE_READING)
            || (code == SSL_ERROR_SYSCALL && buffers.endOfStream)
        switch (unexpectedEOF, duringHandshake) {
        case (true, true): error = .handshakeFailed("the peer closed the connection during the handshake")
        case (true, false): error = .truncated
        case (false, true):
            error = .handshakeFailed((text.isEmpty ? "SSL error \(code)" : text) + commonGroundHint(library, reason))
        case (false, false): error = .protocolError(text.isEmpty ? "SSL error \(code)" : text)
        }
        state = .failed(error)
        pendingSession = nil
        return error
    }

    /// For a client, what a failure to agree on a version or a cipher suite usually means,
    /// given Wick's strict defaults; "" for anything else.
    private func commonGroundHint(_ library: Int32, _ reason: Int32) -> String {
        guard trustContext != nil, library == ERR_LIB_SSL else { return "" }
        switch reason {
        case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE, SSL_R_NO_SHARED_CIPHER, SSL_R_NO_CIPHERS_AVAILABLE:
            return " (if the server offers only TLS 1.2 suites without forward secrecy or AEAD, such as static RSA"
                + " or CBC, Wick refuses them by default, RFC 9325 §4.1; TLSConfiguration.allowsLegacyCipherSuites"
                + " widens the list)"
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, SSL_R_WRONG_VERSION_NUMBER:
            return " (no protocol version in common: Wick speaks TLS 1.2 and 1.3 only, never 1.0 or 1.1, RFC 8996)"
        default:
            return ""
        }
    }

    // MARK: Callbacks from OpenSSL

    private static func engine(_ ssl: OpaquePointer?) -> TLSEngine? {
        // SAFETY: app data is the unretained engine that owns this SSL (set in `attach`).
        guard let ssl, let data = cwick_SSL_get_app_data(ssl) else { return nil }
        return Unmanaged<TLSEngine>.fromOpaque(data).takeUnretainedValue()
    }

    /// OpenSSL's new-session callback: keeps the session if it can be resumed. Returning 1 keeps
    /// the reference OpenSSL handed over.
    static let newSessionCallback: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, session in
        guard let engine = TLSEngine.engine(ssl), let session, let cache = engine.sessionCache,
            SSL_SESSION_is_resumable(session) == 1
        else { return 0 }
        let handle = SessionHandle(takingOwnershipOf: session)
        if case .open = engine.state {
            cache.store(handle, chain: engine.peerCertificateChain, for: engine.sessionKey)
        } else {
            engine.pendingSession = handle
        }
        return 1
    }

    /// OpenSSL's key log callback: one NSS key log line.
    static let keyLogCallback: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void = { ssl, line in
        guard let line, let engine = TLSEngine.engine(ssl) else { return }
        // SAFETY: OpenSSL passes a NUL-terminated line valid for this call; we copy it.
        engine.keyLog?.record(String(cString: line))
    }
}
