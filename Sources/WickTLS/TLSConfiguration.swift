// Every client-side TLS setting, as one value that keys a shared TLSContext.

/// A client's TLS settings. It is a value: two equal configurations can share one `TLSContext`
/// (build the context once per configuration: loading a CA bundle costs tens of milliseconds).
/// Every field affects security, so the connection pool keys connections by the whole value.
public struct TLSConfiguration: Sendable, Hashable {
    /// The oldest version offered. Default TLS 1.2.
    public var minimumVersion: TLSVersion = .v1_2
    /// The newest version offered; nil offers the newest OpenSSL speaks (TLS 1.3).
    public var maximumVersion: TLSVersion? = nil
    /// The TLS 1.2 cipher list in OpenSSL's syntax (`ECDHE+AESGCM:ECDHE+CHACHA20`); nil (the
    /// default) offers only ECDHE suites with AES-GCM or ChaCha20-Poly1305: forward secrecy and
    /// AEAD, as RFC 9325 §4.1-4.2 recommend. Whatever the list says, the suites RFC 9325 forbids
    /// or Wick never negotiates (NULL, RC4, export and other under-112-bit ciphers, 3DES,
    /// anonymous, static and finite-field DH) are removed from it.
    public var cipherList: String? = nil
    /// Whether TLS 1.2 also offers, after the strict suites, those RFC 9325 advises against for
    /// servers that offer nothing better: ECDHE with AES-CBC, and static RSA key transport with
    /// AES. Default off. The risk: static RSA has no forward secrecy (the server's key, stolen
    /// later, decrypts every recorded session) and invites Bleichenbacher padding oracles; CBC
    /// suites are MAC-then-encrypt, open to padding-oracle timing attacks. Ignored when
    /// `cipherList` is set. TLS 1.3 is unaffected (all its suites are AEAD with forward secrecy).
    public var allowsLegacyCipherSuites: Bool = false
    /// The TLS 1.3 cipher suites in OpenSSL's syntax (`TLS_AES_128_GCM_SHA256:...`); nil keeps
    /// OpenSSL's default.
    public var cipherSuites: String? = nil
    /// The ALPN protocols offered, most preferred first. Default `http/1.1`; empty offers none.
    public var applicationProtocols: [String] = ["http/1.1"]
    /// The trust anchors. Default: the system store (honouring `SSL_CERT_FILE`/`SSL_CERT_DIR`).
    public var trustRoots: TrustRoots = .system
    /// Anchors added to `trustRoots` (e.g. a company CA next to the system store).
    public var additionalTrustRoots: [Certificate] = []
    /// The identity presented when the server asks for a client certificate.
    public var clientIdentity: ClientIdentity? = nil
    /// Whether sessions (TLS 1.3 tickets, TLS 1.2 sessions) are cached per host and port so
    /// that reconnections skip the full handshake. Default on.
    public var resumesSessions: Bool = true
    /// How many host:port entries the session cache holds before it forgets the oldest.
    public var sessionCacheCapacity: Int = 256
    /// A file the session cache is kept in, so a restarted client resumes its sessions instead
    /// of paying a full handshake per connection; nil (the default) keeps them in memory only.
    /// Read when the context is made; written atomically (mode 0600) at most once a second
    /// after sessions change and when the context goes away. Expired sessions, and sessions
    /// made with another `clientIdentity`, are dropped; an unreadable or corrupt file is an
    /// empty cache, not an error. The file holds session secrets (anyone who reads it can
    /// decrypt resumed traffic): keep it where only the client can read it. Needs
    /// `resumesSessions`.
    public var sessionFile: String? = nil
    /// Whether the client asks the server to staple an OCSP response. Default on.
    public var requestsOCSPStapling: Bool = true
    /// Where TLS secrets are written for debugging; nil (the default) writes none.
    public var keyLog: TLSKeyLog? = nil
    /// Whether OpenSSL's read and write record buffers are freed once a connection has been
    /// idle (no exchange in flight since `StreamChannel.streamBecameIdle`) for
    /// `idleBufferReleaseDelay`: a few tens of KiB per idle connection, for two allocations
    /// when it is next used (never per record). Default on.
    public var releasesBuffersWhenIdle: Bool = true
    /// How long a connection stays idle before its record buffers are freed: one second, so a
    /// connection in steady use (one request after another) keeps them instead of freeing and
    /// allocating both, about 1,900 instructions, with every request; zero frees them as soon
    /// as the connection is idle. For tests.
    @_spi(WickTLSTesting) public var idleBufferReleaseDelay: Duration = .seconds(1)

    /// The defaults: TLS 1.2+, forward-secret AEAD suites only, `http/1.1`, the system store,
    /// resumption and stapling on.
    public init() {}

    /// The ALPN list in the wire form: each name prefixed by its length.
    var alpnWireFormat: [UInt8] {
        applicationProtocols.flatMap { name in [UInt8(name.utf8.count)] + Array(name.utf8) }
    }
}
