// What a connected stream is: its two addresses and, under TLS, what the handshake negotiated.
public import WickReactor

/// The addresses of a `StreamChannel` and, for a TLS stream, the negotiated protocol version and
/// cipher suite. These never change while the stream is open, so channels keep the value once
/// made and hand out copies.
public struct StreamConnectionDetails: Sendable, Hashable {
    /// This end's address; nil for a Unix socket (a client's end has no name) or when it could
    /// not be read.
    public var localAddress: SocketAddress?
    /// The peer's address (a Unix socket's path for a Unix socket).
    public var remoteAddress: SocketAddress
    /// The TLS version negotiated; nil for a plain stream.
    public var tlsVersion: TLSVersion?
    /// The TLS cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`); nil for a
    /// plain stream.
    public var tlsCipherSuite: String?
    /// The trust evaluation that accepted the server; nil for a plain stream.
    public var serverTrust: EvaluatedServerTrust?

    /// Details of a stream.
    public init(
        localAddress: SocketAddress?, remoteAddress: SocketAddress, tlsVersion: TLSVersion? = nil,
        tlsCipherSuite: String? = nil, serverTrust: EvaluatedServerTrust? = nil
    ) {
        self.localAddress = localAddress
        self.remoteAddress = remoteAddress
        self.tlsVersion = tlsVersion
        self.tlsCipherSuite = tlsCipherSuite
        self.serverTrust = serverTrust
    }
}
