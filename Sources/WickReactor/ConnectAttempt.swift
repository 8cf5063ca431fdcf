// One non-blocking connect to one address, on a loop; success hands the socket to a Channel.
import CWickSystem

/// A single connection attempt. Loop-bound: created, driven and cancelled on its loop's thread.
/// It reports exactly once through `completion`, unless cancelled first (then never).
final class ConnectAttempt {
    private enum State {
        case connecting
        case finished
    }

    let address: SocketAddress
    private let loop: EventLoop
    private let options: SocketOptions
    private let io: SocketIO
    private let fd: Int32
    private var state = State.connecting
    private let completion: (Result<Channel, ReactorError>) -> Void

    /// Opens a socket, applies `options`, and starts connecting. `completion` runs on the loop,
    /// possibly before this returns (immediate success or failure).
    @discardableResult
    static func start(
        to address: SocketAddress, on loop: EventLoop, options: SocketOptions, io: SocketIO = .system,
        completion: @escaping (Result<Channel, ReactorError>) -> Void
    ) -> ConnectAttempt? {
        loop.assertInEventLoop()
        let fd: Int32
        do {
            fd = try Syscalls.socket(family: address.family)
        } catch {
            completion(.failure(ReactorError(error)))
            return nil
        }
        let attempt = ConnectAttempt(
            fd: fd, address: address, loop: loop, options: options, io: io, completion: completion)
        attempt.begin()
        return attempt
    }

    private init(
        fd: Int32, address: SocketAddress, loop: EventLoop, options: SocketOptions, io: SocketIO,
        completion: @escaping (Result<Channel, ReactorError>) -> Void
    ) {
        self.fd = fd
        self.address = address
        self.loop = loop
        self.options = options
        self.io = io
        self.completion = completion
    }

    private func begin() {
        let started: IOResult<Int32>
        do {
            try applyOptions()
            try bindSource()
            started = try address.withSockAddr { (pointer, length) throws(ReactorError) in
                do throws(SyscallError) {
                    return try Syscalls.connect(fd, pointer, length)
                } catch {
                    throw ReactorError(error)
                }
            }
            // Registered even on immediate success: the channel takes this registration over.
            try loop.register(fd: fd, interest: Epoll.writable, handler: self)
        } catch {
            fail(error, registered: false)
            return
        }
        if case .processed = started { succeed() }
    }

    /// Binds the socket to `options.sourceAddress` and the first free port of
    /// `options.sourcePorts`, when either is set (TCP only).
    private func bindSource() throws(ReactorError) {
        guard address.family != AF_UNIX, options.sourceAddress != nil || options.sourcePorts != nil else { return }
        let host = options.sourceAddress ?? (address.isIPv6 ? "::" : "0.0.0.0")
        guard let probe = SocketAddress(numericHost: host, port: 0), probe.isIPv6 == address.isIPv6 else {
            throw .invalidAddress("the source address \(host) cannot reach \(address): another address family")
        }
        let ports = options.sourcePorts ?? 0...0
        for port in ports {
            let local = SocketAddress(numericHost: host, port: port) ?? probe
            do {
                try local.withSockAddr { (pointer, length) throws(ReactorError) in
                    do throws(SyscallError) {
                        try Syscalls.bind(fd, pointer, length)
                    } catch {
                        throw ReactorError(error)
                    }
                }
                return
            } catch .addressInUse where port != ports.upperBound {
                continue
            }
        }
    }

    private func applyOptions() throws(ReactorError) {
        guard address.family != AF_UNIX else { return }
        do {
            if options.noDelay {
                try Syscalls.setSocketOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            }
            if let keepAlive = options.keepAlive {
                try Syscalls.setSocketOption(fd, level: SOL_SOCKET, name: SO_KEEPALIVE, value: 1)
                try Syscalls.setSocketOption(
                    fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPIDLE, value: Self.seconds(keepAlive.idle))
                try Syscalls.setSocketOption(
                    fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPINTVL, value: Self.seconds(keepAlive.interval))
                try Syscalls.setSocketOption(
                    fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPCNT, value: Int32(clamping: max(1, keepAlive.count)))
            }
        } catch {
            throw ReactorError(error)
        }
    }

    private static func seconds(_ duration: Duration) -> Int32 {
        Int32(clamping: max(1, duration.components.seconds))
    }

    /// Abandons the attempt: the socket is closed and `completion` never runs.
    func cancel() {
        loop.assertInEventLoop()
        guard case .connecting = state else { return }
        state = .finished
        loop.deregister(fd: fd)
        try? Syscalls.close(fd)
    }

    private func succeed() {
        state = .finished
        let channel = Channel(fd: fd, loop: loop, remoteAddress: address, options: options, io: io)
        loop.transfer(fd: fd, to: channel, interest: 0)
        completion(.success(channel))
    }

    private func fail(_ error: ReactorError, registered: Bool) {
        state = .finished
        if registered { loop.deregister(fd: fd) }
        try? Syscalls.close(fd)
        completion(.failure(error))
    }
}

extension ConnectAttempt: Selectable {
    func readinessChanged(_ events: UInt32) {
        guard case .connecting = state else { return }
        let code: Int32
        do {
            code = try io.pendingError(fd)
        } catch {
            fail(ReactorError(error), registered: true)
            return
        }
        if code != 0 {
            fail(ReactorError(connectErrno: code), registered: true)
        } else if events & Epoll.writable != 0 {
            succeed()
        } else if events & Epoll.hangup != 0 {
            // Hung up without an error or writability: nothing will follow, so fail now.
            fail(.connectionReset, registered: true)
        }
    }

    func loopIsShuttingDown() {
        guard case .connecting = state else { return }
        fail(.loopShutDown, registered: true)
    }
}
