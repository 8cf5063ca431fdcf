// A loopback port that refuses connections for as long as a test needs it to.
#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 that refuses every connection while this value lives: a socket is bound
/// to it and never listens, so the kernel answers each SYN with a reset, and no other test's
/// server can take the port meanwhile. (A port freed by closing a listener can be taken at once
/// by a server another test starts in parallel: a connect meant to be refused then succeeds.)
public final class RefusingPort: Sendable {
    /// The port.
    public let port: Int
    private let descriptor: Int32

    /// Binds a socket to a free port on 127.0.0.1.
    /// - Throws: `TestSupportError.socket` if the socket cannot be made or bound.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.socket("socket", errno: errno) }
        var address = sockaddr_in.loopback(port: 0)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            let error = errno
            close(fd)
            throw TestSupportError.socket("bind", errno: error)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // SAFETY: getsockname writes at most `length` bytes into `address`, a sockaddr_in we own.
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw TestSupportError.socket("getsockname", errno: error)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
