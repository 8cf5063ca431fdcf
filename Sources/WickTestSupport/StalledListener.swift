// A loopback port whose TCP connects never complete: a listener with a full accept queue.
#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 where a TCP connect hangs for as long as this value lives: the socket
/// listens with a backlog of 0 and never accepts, and a few connections made at once fill its
/// queue, so the kernel drops every further SYN (the client retransmits and waits). For tests
/// of a connect that never progresses, which a refusing port (`RefusingPort`) cannot play.
public final class StalledListener: Sendable {
    /// The port.
    public let port: Int
    private let listener: Int32
    private let fillers: [Int32]

    /// Listens on a free port and fills its accept queue.
    /// - Throws: `TestSupportError.socket` if the listener cannot be made.
    public init() throws {
        let (socket, port) = try BlockingSocket.listenOnLoopback(backlog: 0)
        self.port = port
        listener = socket.fd
        // Backlog 0 holds one connection; three make sure it is full whatever the kernel rounds.
        fillers = (0..<3).map { _ in
            let fd = Glibc.socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            _ = sockaddr_in.loopback(port: port).withSockaddr { connect(fd, $0, $1) }
            return fd
        }
        // The fillers' handshakes complete in the kernel at once on loopback; give them a moment.
        usleep(50_000)
    }

    deinit {
        for fd in fillers { close(fd) }
        close(listener)
    }
}
