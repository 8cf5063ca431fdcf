// Blocking socket calls for the fault server, each bounded by poll(2) against a deadline.
// The only raw-pointer code in WickTestSupport besides LoopbackPort.
#if canImport(Glibc)
    import Glibc
#endif

/// A connected or listening socket used by one thread at a time (the fault server gives each
/// accepted connection its own thread; the listener belongs to the accept thread). The owning
/// thread calls `close()` exactly once.
struct BlockingSocket {
    enum ReadResult: Equatable {
        case bytes(Int)
        case endOfFile
        case timedOut
        case failed(Int32)
    }

    let fd: Int32

    /// A listener on 127.0.0.1 with a kernel-chosen port.
    static func listenOnLoopback(backlog: Int32 = 128) throws -> (BlockingSocket, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.socket("socket", errno: errno) }
        let socket = BlockingSocket(fd: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard sockaddr_in.loopback(port: 0).withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            defer { socket.close() }
            throw TestSupportError.socket("bind", errno: errno)
        }
        guard listen(fd, backlog) == 0 else {
            defer { socket.close() }
            throw TestSupportError.socket("listen", errno: errno)
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // SAFETY: getsockname writes at most `length` bytes into `address`, which we own.
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Waits up to `timeout` for `events` on the socket; false on timeout.
    func poll(_ events: Int16, timeout: Duration) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32(clamping: max(0, timeout.wholeMilliseconds))
        while true {
            let result = Glibc.poll(&entry, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// Accepts one connection if one arrives within `timeout`.
    func accept(timeout: Duration) -> BlockingSocket? {
        guard poll(Int16(POLLIN), timeout: timeout) else { return nil }
        let client = Glibc.accept(fd, nil, nil)
        return client >= 0 ? BlockingSocket(fd: client) : nil
    }

    /// Reads into `buffer` once data arrives, waiting no longer than `deadline`.
    func read(into buffer: inout [UInt8], deadline: ContinuousClock.Instant) -> ReadResult {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero, poll(Int16(POLLIN), timeout: remaining) else { return .timedOut }
        // SAFETY: recv writes at most buffer.count bytes into the array's own storage.
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(count) }
        if count == 0 { return .endOfFile }
        return errno == EINTR || errno == EAGAIN ? .bytes(0) : .failed(errno)
    }

    /// Writes all of `bytes` (without SIGPIPE); returns the errno of a failed send, if any.
    func sendAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, poll(Int16(POLLOUT), timeout: remaining) else { return ETIMEDOUT }
            // SAFETY: send reads bytes[offset...] from the array's storage, which outlives the call.
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return errno
            }
            offset += sent
        }
        return nil
    }

    /// Shuts down the sending side.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Unblocks any thread waiting on this socket (used by `stop()` from another thread).
    static func shutdownBoth(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Arms SO_LINGER 0 so that closing sends an RST instead of a FIN.
    func armReset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Closes the descriptor.
    func close() {
        _ = Glibc.close(fd)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up so a short poll never becomes zero.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
