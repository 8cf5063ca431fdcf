// Every way a reactor operation fails, with errno mapped to a specific case in one place.
import CWickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One failed connection attempt: where it went and why it failed.
public struct ConnectAttemptFailure: Hashable, Sendable, CustomStringConvertible {
    /// The address the attempt connected to.
    public let address: SocketAddress
    /// Why it failed.
    public let error: ReactorError

    /// An attempt at `address` that failed with `error`.
    public init(address: SocketAddress, error: ReactorError) {
        self.address = address
        self.error = error
    }

    /// `[::1]:443: connection refused`.
    public var description: String { "\(address): \(error)" }
}

/// Why a reactor operation failed. The Wick module wraps these into its public `WickError`.
public enum ReactorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer refused the connection (`ECONNREFUSED`): nothing listens there.
    case connectionRefused
    /// The peer reset the connection (`ECONNRESET`).
    case connectionReset
    /// The connection was aborted locally (`ECONNABORTED`).
    case connectionAborted
    /// Writing to a connection the peer has closed (`EPIPE`).
    case brokenPipe
    /// No route to the host (`EHOSTUNREACH`, `EHOSTDOWN`).
    case hostUnreachable
    /// The network is unreachable (`ENETUNREACH`, `ENETDOWN`), e.g. no IPv6 route.
    case networkUnreachable
    /// The kernel timed the connection out (`ETIMEDOUT`: retransmissions or keep-alive probes).
    case timedOut
    /// The local address is in use (`EADDRINUSE`).
    case addressInUse
    /// No local address or port is available (`EADDRNOTAVAIL`: ephemeral ports exhausted or the
    /// address family has no address configured).
    case addressNotAvailable
    /// The address family is not supported on this machine (`EAFNOSUPPORT`), e.g. IPv6 disabled.
    case addressFamilyNotSupported
    /// The operation was not permitted (`EACCES`, `EPERM`), e.g. a firewall rule or socket permission.
    case permissionDenied
    /// The process or system is out of file descriptors (`EMFILE`, `ENFILE`).
    case tooManyOpenFiles
    /// The kernel is out of memory or buffer space (`ENOBUFS`, `ENOMEM`).
    case outOfResources
    /// A Unix socket's listener has a full backlog (`EAGAIN` from `connect`) or its path names
    /// no listening socket (`ENOENT`).
    case unixSocketUnavailable
    /// The address cannot be used: malformed, or a Unix path that is too long.
    case invalidAddress(String)
    /// The resolver found no address for this host name.
    case unknownHost(String)
    /// Name resolution failed for another reason (the resolver's own message).
    case resolutionFailed(host: String, reason: String)
    /// Every connection attempt failed; each attempt's address and error, in the order started.
    case connectFailed(host: String, attempts: [ConnectAttemptFailure])
    /// The connect timeout passed before any attempt succeeded; the attempts that had already
    /// failed are listed (attempts still in flight were abandoned).
    case connectTimedOut(host: String, timeout: Duration, attempts: [ConnectAttemptFailure])
    /// The connect's time ran out while the name was still being resolved: no address was tried.
    case resolutionTimedOut(host: String, timeout: Duration)
    /// The operation needs an open channel, but it has been closed.
    case channelClosed
    /// The write side was shut down (`shutdownWrite()`), so no more bytes can be written.
    case outputClosed
    /// A write would take the channel's buffered bytes past `SocketOptions.maximumBufferedBytes`.
    case writeBufferFull(limit: Int)
    /// The event loop is shutting down or has shut down.
    case loopShutDown
    /// Any other system call failure: the call and its errno.
    case system(call: String, errno: Int32)

    /// Maps a failed system call to the most specific case.
    init(_ error: SyscallError) {
        switch error.errno {
        case ECONNREFUSED: self = .connectionRefused
        case ECONNRESET: self = .connectionReset
        case ECONNABORTED: self = .connectionAborted
        case EPIPE: self = .brokenPipe
        case EHOSTUNREACH, EHOSTDOWN: self = .hostUnreachable
        case ENETUNREACH, ENETDOWN: self = .networkUnreachable
        case ETIMEDOUT: self = .timedOut
        case EADDRINUSE: self = .addressInUse
        case EADDRNOTAVAIL: self = .addressNotAvailable
        case EAFNOSUPPORT: self = .addressFamilyNotSupported
        case EACCES, EPERM: self = .permissionDenied
        case EMFILE, ENFILE: self = .tooManyOpenFiles
        case ENOBUFS, ENOMEM: self = .outOfResources
        case EAGAIN where error.call == "connect": self = .unixSocketUnavailable
        case ENOENT where error.call == "connect": self = .unixSocketUnavailable
        default: self = .system(call: error.call, errno: error.errno)
        }
    }

    /// Maps an errno read from `SO_ERROR` after an asynchronous connect.
    init(connectErrno code: Int32) {
        self.init(SyscallError(call: "connect", errno: code))
    }

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .connectionRefused: "connection refused"
        case .connectionReset: "connection reset by peer"
        case .connectionAborted: "connection aborted"
        case .brokenPipe: "broken pipe: the peer closed the connection while we were writing"
        case .hostUnreachable: "host unreachable"
        case .networkUnreachable: "network unreachable"
        case .timedOut: "timed out"
        case .addressInUse: "address in use"
        case .addressNotAvailable: "address not available"
        case .addressFamilyNotSupported: "address family not supported"
        case .permissionDenied: "permission denied"
        case .tooManyOpenFiles: "too many open files"
        case .outOfResources: "out of kernel memory or buffer space"
        case .unixSocketUnavailable: "Unix socket has no listener or its backlog is full"
        case .invalidAddress(let why): "invalid address: \(why)"
        case .unknownHost(let host): "unknown host \(host)"
        case .resolutionFailed(let host, let reason): "cannot resolve \(host): \(reason)"
        case .connectFailed(let host, let attempts):
            "cannot connect to \(host): " + attempts.map(\.description).joined(separator: "; ")
        case .connectTimedOut(let host, let timeout, let attempts):
            "connecting to \(host) timed out after \(timeout)"
                + (attempts.isEmpty ? "" : "; failed attempts: " + attempts.map(\.description).joined(separator: "; "))
        case .resolutionTimedOut(let host, let timeout): "resolving \(host) timed out after \(timeout)"
        case .channelClosed: "channel closed"
        case .outputClosed: "channel output shut down"
        case .writeBufferFull(let limit): "write buffer full (limit \(limit) bytes)"
        case .loopShutDown: "event loop shut down"
        case .system(let call, let code): "\(call) failed: \(Syscalls.describe(errno: code))"
        }
    }
}
