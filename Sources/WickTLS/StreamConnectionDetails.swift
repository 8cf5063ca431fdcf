// What a connected stream is: its two addresses and, under TLS, what the handshake negotiated.
public import WickReactor

/// The addresses of a `StreamChannel` and, for a TLS stream, the negotiated protocol version and
/// cipher suite, and whether the session was resumed. These never change while the stream is open, so channels keep the value once
/// made and hand out copies.
///
/// The fields live in one immutable object shared by every copy (copied on a change), made once
/// per connection: the value travels in every request's metrics, and copying two addresses, a
/// cipher name and a trust evaluation field by field cost dozens of reference-count operations
/// per request.
public struct StreamConnectionDetails: Sendable, Hashable {
    /// The fields, shared by copies.
    private final class Storage: Sendable {
        let localAddress: SocketAddress?
        let remoteAddress: SocketAddress
        let tlsVersion: TLSVersion?
        let tlsCipherSuite: String?
        let serverTrust: EvaluatedServerTrust?
        let tlsSessionResumed: Bool?

        init(
            localAddress: SocketAddress?, remoteAddress: SocketAddress, tlsVersion: TLSVersion?,
            tlsCipherSuite: String?, serverTrust: EvaluatedServerTrust?, tlsSessionResumed: Bool?
        ) {
            self.localAddress = localAddress
            self.remoteAddress = remoteAddress
            self.tlsVersion = tlsVersion
            self.tlsCipherSuite = tlsCipherSuite
            self.serverTrust = serverTrust
            self.tlsSessionResumed = tlsSessionResumed
        }
    }

    private var storage: Storage

    /// This end's address; nil for a Unix socket (a client's end has no name) or when it could
    /// not be read.
    public var localAddress: SocketAddress? {
        get { storage.localAddress }
        set { update(localAddress: newValue) }
    }
    /// The peer's address (a Unix socket's path for a Unix socket).
    public var remoteAddress: SocketAddress {
        get { storage.remoteAddress }
        set { update(remoteAddress: newValue) }
    }
    /// The TLS version negotiated; nil for a plain stream.
    public var tlsVersion: TLSVersion? {
        get { storage.tlsVersion }
        set { update(tlsVersion: newValue) }
    }
    /// The TLS cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`); nil for a
    /// plain stream.
    public var tlsCipherSuite: String? {
        get { storage.tlsCipherSuite }
        set { update(tlsCipherSuite: newValue) }
    }
    /// The trust evaluation that accepted the server; nil for a plain stream.
    public var serverTrust: EvaluatedServerTrust? {
        get { storage.serverTrust }
        set { update(serverTrust: newValue) }
    }

    /// Whether the TLS handshake resumed a cached session (an abbreviated handshake) instead of
    /// a full one; nil for a plain stream.
    public var tlsSessionResumed: Bool? {
        get { storage.tlsSessionResumed }
        set { update(tlsSessionResumed: newValue) }
    }

    /// Details of a stream.
    public init(
        localAddress: SocketAddress?, remoteAddress: SocketAddress, tlsVersion: TLSVersion? = nil,
        tlsCipherSuite: String? = nil, serverTrust: EvaluatedServerTrust? = nil, tlsSessionResumed: Bool? = nil
    ) {
        storage = Storage(
            localAddress: localAddress, remoteAddress: remoteAddress, tlsVersion: tlsVersion,
            tlsCipherSuite: tlsCipherSuite, serverTrust: serverTrust, tlsSessionResumed: tlsSessionResumed)
    }

    /// Replaces the storage with one that differs in the fields given.
    private mutating func update(
        localAddress: SocketAddress?? = nil, remoteAddress: SocketAddress? = nil, tlsVersion: TLSVersion?? = nil,
        tlsCipherSuite: String?? = nil, serverTrust: EvaluatedServerTrust?? = nil, tlsSessionResumed: Bool?? = nil
    ) {
        self = StreamConnectionDetails(
            localAddress: localAddress ?? storage.localAddress, remoteAddress: remoteAddress ?? storage.remoteAddress,
            tlsVersion: tlsVersion ?? storage.tlsVersion, tlsCipherSuite: tlsCipherSuite ?? storage.tlsCipherSuite,
            serverTrust: serverTrust ?? storage.serverTrust, tlsSessionResumed: tlsSessionResumed ?? storage.tlsSessionResumed)
    }

    /// Equal when every field is.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.localAddress == rhs.localAddress && lhs.remoteAddress == rhs.remoteAddress
                && lhs.tlsVersion == rhs.tlsVersion && lhs.tlsCipherSuite == rhs.tlsCipherSuite
                && lhs.serverTrust == rhs.serverTrust && lhs.tlsSessionResumed == rhs.tlsSessionResumed)
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(localAddress)
        hasher.combine(remoteAddress)
        hasher.combine(tlsVersion)
        hasher.combine(tlsCipherSuite)
        hasher.combine(serverTrust)
        hasher.combine(tlsSessionResumed)
    }
}
