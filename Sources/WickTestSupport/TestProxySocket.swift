// Socket calls only the test proxy and its TLS front need: a blocking connect to the origin, a
// two-way splice, and a wait on two sockets.
#if canImport(Glibc)
    import Glibc
#endif

extension BlockingSocket {
    /// A blocking connection to 127.0.0.1:`port`, or the errno of the failed call.
    static func connectToLoopback(port: Int) -> Result<BlockingSocket, TestSupportError> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.socket("socket", errno: errno)) }
        let socket = BlockingSocket(fd: fd)
        guard sockaddr_in.loopback(port: port).withSockaddr({ connect(fd, $0, $1) }) == 0 else {
            let code = errno
            socket.close()
            return .failure(.socket("connect", errno: code))
        }
        return .success(socket)
    }

    /// Copies bytes both ways between `self` and `other` until both sides have finished (each
    /// EOF is passed on as a half-close), either fails, `deadline` passes or `stopped()` says so.
    func splice(with other: BlockingSocket, deadline: ContinuousClock.Instant, stopped: () -> Bool) {
        var open = [true, true]
        let sockets = [self, other]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while open[0] || open[1], ContinuousClock.now < deadline, !stopped() {
            var entries = sockets.enumerated().map { index, socket in
                pollfd(fd: open[index] ? socket.fd : -1, events: Int16(POLLIN), revents: 0)
            }
            // SAFETY: poll reads and writes the two pollfd entries of the array it is given.
            let ready = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, 2, 50) }
            if ready < 0 && errno != EINTR { return }
            guard ready > 0 else { continue }
            for index in 0..<2 where open[index] && entries[index].revents != 0 {
                switch sockets[index].read(into: &buffer, deadline: deadline) {
                case .bytes(let count):
                    if sockets[1 - index].sendAll(Array(buffer[0..<count]), deadline: deadline) != nil { return }
                case .endOfFile:
                    open[index] = false
                    sockets[1 - index].shutdownWrite()
                case .timedOut, .failed:
                    return
                }
            }
        }
    }

    /// Waits up to `timeout` for input (or an end, or an error) on `self` and `other`, each
    /// only if its flag says it is still read; which of the two are ready.
    func waitForInput(
        watching watched: (Bool, Bool), and other: BlockingSocket, timeout: Duration
    ) -> (Bool, Bool) {
        var entries = [
            pollfd(fd: watched.0 ? fd : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: watched.1 ? other.fd : -1, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(clamping: max(0, timeout.wholeMilliseconds))
        // SAFETY: poll reads and writes the two pollfd entries of the array it is given.
        let ready = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, 2, milliseconds) }
        guard ready > 0 else { return (false, false) }
        return (entries[0].revents != 0, entries[1].revents != 0)
    }
}
