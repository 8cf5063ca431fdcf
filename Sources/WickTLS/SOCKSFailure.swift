// Why a SOCKS proxy did not open a tunnel: the step of the handshake it stopped at, and what it said.

/// The steps of a SOCKS handshake (RFC 1928 §3–§6, RFC 1929; SOCKS4 has only `connect`).
public enum SOCKSHandshakeStep: Sendable, Hashable, CustomStringConvertible {
    /// The client offered its authentication methods and waited for the proxy's choice.
    case methodNegotiation
    /// The client sent a user name and password (RFC 1929) and waited for the verdict.
    case authentication
    /// The client asked for a connection to the origin and waited for the reply.
    case connect

    /// `method negotiation`, `authentication`, `connect`.
    public var description: String {
        switch self {
        case .methodNegotiation: "method negotiation"
        case .authentication: "authentication"
        case .connect: "connect"
        }
    }
}

/// A SOCKS proxy's reply to a connect request other than success: its protocol version and code.
public struct SOCKSReply: Sendable, Hashable, CustomStringConvertible {
    /// 5 for SOCKS5 (RFC 1928 §6 `REP`), 4 for SOCKS4 and SOCKS4a (the `CD` byte).
    public let version: UInt8
    /// The reply code as the proxy sent it.
    public let code: UInt8

    /// A reply of protocol `version` with `code`.
    public init(version: UInt8, code: UInt8) {
        self.version = version
        self.code = code
    }

    /// The code's meaning as its RFC (or the SOCKS4 protocol note) names it.
    public var meaning: String {
        switch (version, code) {
        case (5, 0x01): "general SOCKS server failure"
        case (5, 0x02): "connection not allowed by ruleset"
        case (5, 0x03): "network unreachable"
        case (5, 0x04): "host unreachable"
        case (5, 0x05): "connection refused"
        case (5, 0x06): "TTL expired"
        case (5, 0x07): "command not supported"
        case (5, 0x08): "address type not supported"
        case (4, 91): "request rejected or failed"
        case (4, 92): "request rejected: the proxy cannot reach the client's identd"
        case (4, 93): "request rejected: identd reported a different user id"
        default: "unassigned reply code"
        }
    }

    /// `reply 5 (connection refused)`.
    public var description: String { "reply \(code) (\(meaning))" }
}

/// Where and why a SOCKS handshake failed. Nothing meant for the origin was sent.
public enum SOCKSFailure: Sendable, Hashable, CustomStringConvertible {
    /// The SOCKS5 proxy accepted none of the authentication methods offered (RFC 1928 §3,
    /// `X'FF'`): with `credentialsOffered` false, it wants a user name and password that were
    /// not configured; with true, it wants a method Wick does not speak (GSSAPI).
    case noAcceptableMethod(credentialsOffered: Bool)
    /// The SOCKS5 proxy refused the user name and password (RFC 1929 §2: `status` is not 0).
    case authenticationFailed(status: UInt8)
    /// The proxy would not connect to the origin: its reply names why.
    case connectRefused(target: String, reply: SOCKSReply)
    /// The proxy's answer at `step` broke the protocol; `reason` says how.
    case invalidReply(step: SOCKSHandshakeStep, reason: String)
    /// The proxy closed the connection at `step`, before it answered.
    case closed(step: SOCKSHandshakeStep)
    /// Bytes followed the proxy's success reply before the client spoke: they belong to no
    /// protocol the client started, so the tunnel is not trusted.
    case unexpectedBytes(count: Int)

    /// The step the handshake stopped at.
    public var step: SOCKSHandshakeStep {
        switch self {
        case .noAcceptableMethod: .methodNegotiation
        case .authenticationFailed: .authentication
        case .connectRefused, .unexpectedBytes: .connect
        case .invalidReply(let step, _), .closed(let step): step
        }
    }

    /// A readable account, without the proxy's name (`ProxyTunnelError.socks` adds it).
    public var description: String {
        switch self {
        case .noAcceptableMethod(false):
            "accepted no authentication method offered (it wants credentials, and none were configured)"
        case .noAcceptableMethod(true):
            "accepted neither no authentication nor a user name and password"
        case .authenticationFailed(let status): "refused the user name and password (status \(status))"
        case .connectRefused(let target, let reply): "refused to connect to \(target): \(reply)"
        case .invalidReply(let step, let reason): "sent an invalid reply during \(step): \(reason)"
        case .closed(let step): "closed the connection during \(step)"
        case .unexpectedBytes(let count): "sent \(count) unexpected bytes after accepting the connect request"
        }
    }
}
