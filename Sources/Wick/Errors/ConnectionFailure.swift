// Why a connection could not be made, as a Wick value: a kind to act on, text for people, and
// the lower layer's error for logs, which is not API.

/// Why no connection (or no CONNECT tunnel, or no TLS context) could be made for a request
/// (`SessionTaskFailure.connectionFailed`, `.proxyConnectFailed`, `.tlsUnavailable`, and a
/// timeout's `lastConnectionFailure`).
///
/// Match on `kind`; show `description`. `underlyingError` is the lower layer's own error, for
/// logs and diagnostics: its type is not part of Wick's API and may change in any release.
public struct ConnectionFailure: Error, Sendable, CustomStringConvertible {
    /// What sort of failure it was. New kinds may be added in any release, as lower layers
    /// learn to tell more failures apart, so a `switch` over kinds needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as its static member spells it.
        public let description: String

        private init(_ name: String) { description = name }

        /// The peer refused the connection (nothing listens on the port), or a Unix socket has
        /// no listener or a full backlog.
        public static let refused = Kind("refused")
        /// The peer reset, aborted or closed the connection while it was being made.
        public static let reset = Kind("reset")
        /// No route to the host, or the host never answered and the kernel gave up (`ETIMEDOUT`).
        public static let hostUnreachable = Kind("hostUnreachable")
        /// The network is unreachable: no route for the address family, no network at all.
        public static let networkUnreachable = Kind("networkUnreachable")
        /// The resolver found no address for the host name.
        public static let unknownHost = Kind("unknownHost")
        /// Name resolution failed for another reason (the resolver's message is in `description`).
        public static let resolutionFailed = Kind("resolutionFailed")
        /// A connect, TLS handshake or trust evaluation deadline passed.
        public static let timedOut = Kind("timedOut")
        /// No local address or port could be had: in use, none free (ephemeral ports
        /// exhausted), or an address family this machine does not support.
        public static let addressUnavailable = Kind("addressUnavailable")
        /// The address cannot be used: malformed, or a Unix socket path that is too long.
        public static let invalidAddress = Kind("invalidAddress")
        /// The system did not permit the connection (a firewall rule, a socket permission).
        public static let permissionDenied = Kind("permissionDenied")
        /// This process or machine ran out of file descriptors, memory or buffer space.
        public static let outOfResources = Kind("outOfResources")
        /// The TLS handshake failed: an alert from the server, no shared version or cipher, a
        /// protocol error, or a close without `close_notify`.
        public static let tlsHandshakeFailed = Kind("tlsHandshakeFailed")
        /// The trust evaluator refused the server's certificate chain. (A request refused this
        /// way fails with `WickError.serverTrustEvaluationFailed`, which names the evaluator and
        /// the reason; this kind appears as a timeout's `lastConnectionFailure` at most.)
        public static let serverTrustRefused = Kind("serverTrustRefused")
        /// The TLS configuration could not be made into a context (trust roots, client identity
        /// or cipher settings unusable): `SessionTaskFailure.tlsUnavailable`.
        public static let tlsConfigurationInvalid = Kind("tlsConfigurationInvalid")
        /// The HTTP proxy refused the CONNECT tunnel with a status other than 2xx (and other
        /// than 407, which is `SessionTaskFailure.proxyAuthenticationRequired`); `description`
        /// names the status. Also a SOCKS proxy's refusal of the connect, as a timeout's
        /// `lastConnectionFailure` (a request it fails is `SessionTaskFailure.socksProxyFailed`).
        public static let proxyRefused = Kind("proxyRefused")
        /// The HTTP proxy answered CONNECT with 407, or a SOCKS5 proxy refused every method
        /// offered or the user name and password.
        public static let proxyAuthenticationRequired = Kind("proxyAuthenticationRequired")
        /// The HTTP proxy answered CONNECT with something that is not HTTP/1.1, or sent bytes
        /// after accepting it before the client spoke; or a SOCKS proxy broke its protocol.
        public static let proxyInvalidResponse = Kind("proxyInvalidResponse")
        /// The proxy closed the connection before answering CONNECT or ending its SOCKS handshake.
        public static let proxyClosed = Kind("proxyClosed")
        /// The proxy did not answer CONNECT, or end its SOCKS handshake, before the connect deadline.
        public static let proxyTimedOut = Kind("proxyTimedOut")
        /// Anything else: the event loop shutting down, an unexpected system call failure.
        public static let other = Kind("other")
    }

    /// What sort of failure it was.
    public let kind: Kind
    /// What happened, for people: the address and the reason (`cannot connect to example.com:
    /// [::1]:443: connection refused; 93.184.215.14:443: connection refused`).
    public let description: String
    /// The lower layer's error, for logs. Its type is not API: do not match on it.
    public let underlyingError: (any Error)?

    /// A failure of `kind` described by `description`, caused by `underlyingError` if known
    /// (for test doubles and adapters that make their own failures).
    public init(kind: Kind, description: String, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.description = description
        self.underlyingError = underlyingError
    }
}
