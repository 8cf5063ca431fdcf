// The syscall layer: one wrapper per system call, with errno classified in one place.
//
// Rules every wrapper follows (STYLE.md habit 9):
// - `EINTR` is retried inside the wrapper; callers never see it.
// - `EAGAIN`/`EWOULDBLOCK` (and `EINPROGRESS` for `connect`) are values (`IOResult.wouldBlock`),
//   not errors.
// - `EBADF` and `EFAULT` mean Wick passed a closed descriptor or a bad pointer: a bug, so they trap.
// - Every other errno becomes a `SyscallError` naming the call; `ReactorError(_:)` maps it to a
//   specific public case.
//
// SAFETY (file-wide invariant): every pointer handed to the kernel here points into memory the
// caller keeps alive for the duration of the call, sized by the length passed alongside it.
import CWickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The outcome of a non-blocking call: it did something, or it would have blocked. SPI
/// (`WickSocketSeam`) because a scripted `SocketIO` returns it.
@_spi(WickSocketSeam) public enum IOResult<Value: Sendable>: Sendable {
    /// The call completed with this value (bytes moved, a descriptor, ...).
    case processed(Value)
    /// The call would have blocked (`EAGAIN`/`EWOULDBLOCK`, or `EINPROGRESS` for `connect`).
    case wouldBlock
}

extension IOResult: Equatable where Value: Equatable {}

/// A failed system call: which call, and the errno it returned. SPI (`WickSocketSeam`) because a
/// scripted `SocketIO` throws it.
@_spi(WickSocketSeam) public struct SyscallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call's name, e.g. `"connect"`.
    public let call: String
    /// The errno value.
    public let errno: Int32

    /// The failure of `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `connect failed: errno 111 (Connection refused)`.
    public var description: String { "\(call) failed: \(Syscalls.describe(errno: errno))" }
}

/// The system calls WickReactor makes, one wrapper each.
enum Syscalls {
    /// Traps on errno values that can only come from a bug in Wick, otherwise returns the error.
    @inline(never)
    static func classify(_ call: String, _ code: Int32) -> SyscallError {
        precondition(code != EBADF, "\(call): EBADF, a closed or foreign descriptor was used (Wick bug)")
        precondition(code != EFAULT, "\(call): EFAULT, a bad pointer was passed (Wick bug)")
        return SyscallError(call: call, errno: code)
    }

    /// `errno 111 (Connection refused)`.
    static func describe(errno code: Int32) -> String {
        // SAFETY: strerror returns a pointer to a static or thread-local NUL-terminated string that
        // we copy at once.
        "errno \(code) (\(String(cString: strerror(code))))"
    }

    /// Runs `body` until it does not fail with `EINTR`; maps `-1` to an error or `.wouldBlock`.
    @inline(__always)
    private static func retrying<T: FixedWidthInteger & Sendable>(
        _ call: String, blockingErrors: Bool = true, _ body: () -> T
    ) throws(SyscallError) -> IOResult<T> {
        while true {
            let result = body()
            if result != -1 { return .processed(result) }
            let code = cwick_errno()
            if code == EINTR { continue }
            if blockingErrors && (code == EAGAIN || code == EWOULDBLOCK) { return .wouldBlock }
            throw classify(call, code)
        }
    }

    /// Runs a call that cannot block, retrying `EINTR`.
    @inline(__always)
    private static func nonBlocking<T: FixedWidthInteger & Sendable>(
        _ call: String, _ body: () -> T
    ) throws(SyscallError) -> T {
        switch try retrying(call, blockingErrors: false, body) {
        case .processed(let value): return value
        case .wouldBlock: preconditionFailure("\(call): wouldBlock without blocking errors")
        }
    }

    // MARK: descriptors

    /// `close(2)`. `EINTR` is not retried: on Linux the descriptor is released even then.
    static func close(_ fd: Int32) throws(SyscallError) {
        if Glibc.close(fd) == -1 {
            let code = cwick_errno()
            if code == EINTR { return }
            throw classify("close", code)
        }
    }

    /// `read(2)` into `buffer`; `.processed(0)` is end of file.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> IOResult<Int> {
        // SAFETY: buffer is valid for buffer.count bytes for the duration of the call.
        try retrying("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `recv(2)` into `buffer` from a connected socket; `.processed(0)` is the peer's end of
    /// stream. The same as `read` on a socket without the file layer that `read` passes through
    /// (position lock, permission hooks) on every call.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> IOResult<Int> {
        // SAFETY: buffer is valid for buffer.count bytes for the duration of the call.
        try retrying("recv") { Glibc.recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// A gathered write: `sendmsg(2)` of `vectors` with `MSG_NOSIGNAL`, so a peer that has gone
    /// away yields `EPIPE` instead of killing the process with SIGPIPE (`writev` has no such flag).
    static func sendmsg(_ fd: Int32, _ vectors: UnsafeMutableBufferPointer<iovec>) throws(SyscallError) -> IOResult<Int>
    {
        var message = msghdr()
        // SAFETY: msghdr only borrows `vectors`' address for the sendmsg call below; the caller keeps
        // the iovec array, and the bytes each iovec describes, alive until this function returns.
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        // SAFETY: message points at vectors, which with the memory they describe the caller keeps
        // alive during the call; the kernel only reads them.
        return try retrying("sendmsg") { Glibc.sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
    }

    /// `send(2)` of `bytes` with `MSG_NOSIGNAL` (see `sendmsg`): one buffer without the message
    /// header and vector the kernel copies in and checks for `sendmsg`.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SyscallError) -> IOResult<Int> {
        // SAFETY: bytes is valid for bytes.count bytes for the duration of the call; the kernel
        // only reads it.
        try retrying("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// `eventfd(2)`, non-blocking unless `blocking`, close-on-exec.
    static func eventfd(semaphore: Bool = false, blocking: Bool = false) throws(SyscallError) -> Int32 {
        var flags = Int32(EFD_CLOEXEC)
        if !blocking { flags |= Int32(EFD_NONBLOCK) }
        if semaphore { flags |= Int32(EFD_SEMAPHORE) }
        return try nonBlocking("eventfd") { CWickSystem.eventfd(0, flags) }
    }

    /// Reads an eventfd's counter (one unit in semaphore mode); `.wouldBlock` if it is zero and
    /// the eventfd is non-blocking.
    static func eventfdRead(_ fd: Int32) throws(SyscallError) -> IOResult<UInt64> {
        var value: UInt64 = 0
        // SAFETY: eventfd_read writes one UInt64 into a stack value we own.
        switch try retrying("eventfd_read", { CWickSystem.eventfd_read(fd, &value) }) {
        case .processed: return .processed(value)
        case .wouldBlock: return .wouldBlock
        }
    }

    /// Adds `value` to an eventfd's counter. `.wouldBlock` only if the counter would overflow,
    /// which means wakeups are already pending.
    static func eventfdWrite(_ fd: Int32, _ value: UInt64) throws(SyscallError) -> IOResult<Int32> {
        try retrying("eventfd_write") { CWickSystem.eventfd_write(fd, value) }
    }

    // MARK: epoll

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    static func epollCreate() throws(SyscallError) -> Int32 {
        try nonBlocking("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    /// `epoll_ctl(2)`: `operation` is `EPOLL_CTL_ADD`, `_MOD` or `_DEL`; `data` goes in `epoll_data.u64`.
    static func epollControl(_ epfd: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, data: UInt64)
        throws(SyscallError)
    {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        // SAFETY: event is a stack value that outlives the call.
        _ = try nonBlocking("epoll_ctl") { epoll_ctl(epfd, operation, fd, &event) }
    }

    /// `epoll_wait(2)` into `events`; `timeoutMilliseconds` of -1 waits forever. An `EINTR` is
    /// returned as zero events (the loop recomputes its timeout and waits again).
    static func epollWait(_ epfd: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32)
        throws(SyscallError) -> Int
    {
        // SAFETY: events is valid for events.count entries during the call.
        let result = epoll_wait(epfd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        if result >= 0 { return Int(result) }
        let code = cwick_errno()
        if code == EINTR { return 0 }
        throw classify("epoll_wait", code)
    }

    /// `ppoll(2)` on two descriptors, for up to `timeoutNanoseconds`: `first` for `events`,
    /// `second` for readability. Returns each one's `revents` (both zero on a timeout or
    /// `EINTR`, which the caller treats as a timeout).
    static func poll(_ first: Int32, events: Int16, orReadable second: Int32, timeoutNanoseconds: Int64)
        throws(SyscallError) -> (first: Int16, second: Int16)
    {
        var descriptors = (
            pollfd(fd: first, events: events, revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)
        )
        var timeout = timespec(
            tv_sec: Int(timeoutNanoseconds / 1_000_000_000), tv_nsec: Int(timeoutNanoseconds % 1_000_000_000))
        // SAFETY: the tuple of two pollfds is laid out as a C array of two; both it and `timeout`
        // are stack values that outlive the call.
        let result = withUnsafeMutableBytes(of: &descriptors) { bytes in
            cwick_ppoll(bytes.baseAddress?.assumingMemoryBound(to: pollfd.self), 2, &timeout)
        }
        if result >= 0 { return (descriptors.0.revents, descriptors.1.revents) }
        let code = cwick_errno()
        if code == EINTR { return (0, 0) }
        throw classify("ppoll", code)
    }

    // MARK: sockets

    /// `socket(2)`: a non-blocking, close-on-exec stream socket of `family`.
    static func socket(family: Int32) throws(SyscallError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return try nonBlocking("socket") { Glibc.socket(family, type, 0) }
    }

    /// `bind(2)`: gives the socket its local address before it connects.
    static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SyscallError) {
        // SAFETY: address points to `length` bytes of a sockaddr the caller keeps alive.
        _ = try nonBlocking("bind") { Glibc.bind(fd, address, length) }
    }

    /// `connect(2)` on a non-blocking socket. `.processed` means connected at once; `.wouldBlock`
    /// means in progress (`EINPROGRESS`): wait for writability, then read `SO_ERROR`.
    /// `EAGAIN` is an error here (a Unix socket whose listener's backlog is full).
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SyscallError)
        -> IOResult<Int32>
    {
        // SAFETY: address points to `length` bytes of a sockaddr the caller keeps alive.
        let result = Glibc.connect(fd, address, length)
        if result == 0 { return .processed(0) }
        let code = cwick_errno()
        // EINTR on connect: the attempt continues asynchronously, exactly like EINPROGRESS.
        if code == EINPROGRESS || code == EINTR { return .wouldBlock }
        throw classify("connect", code)
    }

    /// `setsockopt(2)` of an `Int32` option.
    static func setSocketOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) throws(SyscallError) {
        var value = value
        // SAFETY: value is a stack Int32 and the length passed is its size.
        _ = try nonBlocking("setsockopt") { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// `setsockopt(SO_LINGER)`: `nil` turns lingering off, `0` makes `close` send a reset.
    static func setLinger(_ fd: Int32, seconds: Int32?) throws(SyscallError) {
        var value = linger(l_onoff: seconds == nil ? 0 : 1, l_linger: seconds ?? 0)
        // SAFETY: value is a stack linger and the length passed is its size.
        _ = try nonBlocking("setsockopt") {
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
        }
    }

    /// `getsockopt(2)` of an `Int32` option (e.g. `SO_ERROR`).
    static func socketOption(_ fd: Int32, level: Int32, name: Int32) throws(SyscallError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        // SAFETY: value and length are stack values; length says value's size.
        _ = try nonBlocking("getsockopt") { getsockopt(fd, level, name, &value, &length) }
        return value
    }

    /// `getsockname(2)`: the address `fd` is bound to; nil for a family `SocketAddress` does not
    /// read (a client's Unix socket, which has no name).
    static func socketName(_ fd: Int32) throws(SyscallError) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        // SAFETY: storage is a stack sockaddr_storage, large enough for any address, and length
        // says its size; the kernel writes at most that many bytes and stores the real length.
        _ = try nonBlocking("getsockname") {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        // SAFETY: the kernel filled the first `length` bytes of storage with a sockaddr.
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
        }
    }

    /// `shutdown(2)`; `how` is `SHUT_WR`, `SHUT_RD` or `SHUT_RDWR`.
    static func shutdown(_ fd: Int32, how: Int32) throws(SyscallError) {
        _ = try nonBlocking("shutdown") { Glibc.shutdown(fd, how) }
    }

    /// `getaddrinfo(3)` for a stream socket to `host:port`, of `family` (`AF_UNSPEC`: any;
    /// `AF_INET6` or `AF_INET`: that family's query alone). Blocking: call it only on a resolver
    /// thread. Returns the addresses in the order the system's policy (RFC 6724) gives.
    static func getaddrinfo(
        host: String, port: UInt16, family: Int32 = AF_UNSPEC
    ) -> Result<[SocketAddress], ReactorError> {
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        // SAFETY: hints is a stack value; list receives a list we free below with freeaddrinfo.
        var code = Glibc.getaddrinfo(host, String(port), &hints, &list)
        while code == EAI_SYSTEM && cwick_errno() == EINTR {
            code = Glibc.getaddrinfo(host, String(port), &hints, &list)
        }
        guard code == 0 else {
            switch code {
            case EAI_NONAME: return .failure(.unknownHost(host))
            case EAI_AGAIN:
                return .failure(.resolutionFailed(host: host, reason: "temporary failure in name resolution"))
            case EAI_SYSTEM: return .failure(.resolutionFailed(host: host, reason: describe(errno: cwick_errno())))
            default:
                // SAFETY: gai_strerror returns a static NUL-terminated string that we copy.
                return .failure(.resolutionFailed(host: host, reason: String(cString: gai_strerror(code))))
            }
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            // SAFETY: entry points into the list getaddrinfo returned, alive until freeaddrinfo.
            if let address = entry.pointee.ai_addr,
                let parsed = SocketAddress(address, length: entry.pointee.ai_addrlen),
                !addresses.contains(parsed)
            {
                addresses.append(parsed)
            }
            cursor = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.unknownHost(host)) : .success(addresses)
    }
}
