// Free ports on 127.0.0.1 for test servers, and waiting until a server accepts on one.
#if canImport(Glibc)
    import Glibc
#endif

/// Port helpers for servers that bind 127.0.0.1.
public enum LoopbackPort {
    /// A port that was free a moment ago: the kernel picks it for a throwaway bind to port 0.
    /// A server started right after will almost always get it; launchers retry on a clash.
    /// - Throws: `TestSupportError.socket` if the throwaway socket cannot be made.
    public static func free() throws -> Int {
        try free(count: 1)[0]
    }

    /// `count` different ports that were free a moment ago, for one server's listeners. The
    /// throwaway sockets stay bound until every port is picked: picked one at a time, two could
    /// be the same port (the kernel may hand a just-closed port out again), and nginx then
    /// merges the two `listen`s and refuses to start.
    /// - Throws: `TestSupportError.socket` if a throwaway socket cannot be made.
    public static func free(count: Int) throws -> [Int] {
        var descriptors: [Int32] = []
        defer { for fd in descriptors { close(fd) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestSupportError.socket("socket", errno: errno) }
            descriptors.append(fd)
            var address = sockaddr_in.loopback(port: 0)
            guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
                throw TestSupportError.socket("bind", errno: errno)
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            // SAFETY: getsockname writes at most `length` bytes into `address`, a sockaddr_in we own.
            let result = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard result == 0 else { throw TestSupportError.socket("getsockname", errno: errno) }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    /// `count` consecutive ports on 127.0.0.1 that were all free a moment ago, for a source
    /// binding's port range. They lie below Linux's ephemeral range (32768 and up), where no
    /// other test's connection or port-0 bind can take one meanwhile: `free()`'s port plus
    /// one may be any outgoing connection's local port a moment later. A random start keeps
    /// parallel callers apart; a range with a port taken is passed over.
    /// - Throws: `TestSupportError.socket` if no free range was found in 50 tries.
    public static func freeRange(count: Int) throws -> ClosedRange<Int> {
        for _ in 0..<50 {
            let first = Int.random(in: 20_000..<(32_000 - count))
            let range = first...(first + count - 1)
            if range.allSatisfy(isBindable) { return range }
        }
        throw TestSupportError.socket("bind (no free port range below 32000)", errno: EADDRINUSE)
    }

    /// Whether a socket can bind 127.0.0.1:`port` now (the socket is closed at once).
    private static func isBindable(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let address = sockaddr_in.loopback(port: port)
        return address.withSockaddr { bind(fd, $0, $1) } == 0
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func isAccepting(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let address = sockaddr_in.loopback(port: port)
        return address.withSockaddr { connect(fd, $0, $1) } == 0
    }

    /// Polls until 127.0.0.1:`port` accepts, up to `timeout`; false if it never did or if
    /// `stillRunning` says the server died meanwhile.
    public static func waitUntilAccepting(
        _ port: Int, timeout: Duration, stillRunning: () -> Bool = { true }
    ) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if isAccepting(port) { return true }
            if !stillRunning() { return false }
            usleep(25_000)
        }
        return false
    }
}

extension sockaddr_in {
    /// 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Calls `body` with this address as a `sockaddr` pointer and its length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = self
        // SAFETY: sockaddr_in is layout-compatible with the sockaddr prefix the kernel reads, and
        // the length passed is exactly sockaddr_in's size.
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
