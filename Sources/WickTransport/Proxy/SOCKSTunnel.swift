// Runs a SOCKS handshake on a connected socket to the proxy, before the request (or TLS) goes through.
import WickCore
import WickReactor
import WickTLS

/// Opens a tunnel to `host:port` through a SOCKS proxy on a connected, unstarted channel: it
/// works out the target the proxy is told (resolving the name first for `socks5` and `socks4`),
/// then performs the actions of a `SOCKSHandshake`, one per input, deciding nothing itself.
///
/// Rules:
/// - The target: an IP literal goes as that address; for `socks5h` and `socks4a` a name goes as
///   written (the proxy resolves it); for `socks5` and `socks4` the name is resolved by the
///   session's resolver (its `--resolve` entries and user resolver included) and the first
///   address goes (for `socks4`, the first IPv4 address: SOCKS4 has no IPv6).
/// - What the protocol cannot carry fails before any byte is written, as
///   `ReactorError.invalidAddress`: a name over 255 bytes, SOCKS5 credentials over 255 bytes, an
///   IPv6 target for SOCKS4, a NUL in a SOCKS4 user id or name.
/// - The tunnel is open when the machine says so: the channel is handed back unstarted
///   (`Channel.detachDelegate()`), so TLS or the HTTP/1.1 driver can start it.
/// - Resolution and the handshake end at `deadline`: past it the failure is
///   `ProxyTunnelError.timedOut`.
/// - On every failure the channel is closed, and the completion runs exactly once, on the loop.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every `var` is read and written
/// only on `channel.loop`'s thread: `open` runs there, the channel calls the delegate there, the
/// resolver delivers there, and the timer is scheduled there. `Sendable` only lets the timer and
/// resolver closures carry the tunnel.
final class SOCKSTunnel: ChannelDelegate, @unchecked Sendable {
    private let channel: Channel
    private let proxy: ProxyConfiguration
    private let started: Deadline
    private var machine: SOCKSHandshake?
    private var completion: ((Result<Channel, StreamChannelError>) -> Void)?
    private var timer: Scheduled?

    private init(
        channel: Channel, proxy: ProxyConfiguration, completion: @escaping (Result<Channel, StreamChannelError>) -> Void
    ) {
        self.channel = channel
        self.proxy = proxy
        self.started = .now()
        self.completion = completion
    }

    /// Asks `proxy` (a SOCKS scheme) for a tunnel to `host:port` on `channel`, a connected and
    /// unstarted channel to it, and calls `completion` once, on the loop, with the channel
    /// (open, unstarted, the tunnel established) or the failure: `.proxy(ProxyTunnelError)`
    /// (`.socks` naming the step, `.timedOut`), `.reactor` for the target's resolution, for a
    /// target or credentials the protocol cannot carry (`.invalidAddress`), or a write that
    /// failed. `resolver` resolves the name for `socks5` and `socks4`. Call on the channel's loop.
    static func open(
        over channel: Channel, host: String, port: UInt16, proxy: ProxyConfiguration, resolver: any HostResolving,
        deadline: Deadline, _ completion: @escaping (Result<Channel, StreamChannelError>) -> Void
    ) {
        channel.loop.preconditionInEventLoop()
        precondition(proxy.scheme.isSOCKS, "SOCKSTunnel: \(proxy) is not a SOCKS proxy")
        let tunnel = SOCKSTunnel(channel: channel, proxy: proxy, completion: completion)
        if let problem = unsendableCredentials(proxy) { return tunnel.fail(.reactor(.invalidAddress(problem))) }
        tunnel.timer = channel.loop.schedule(at: deadline) { [weak tunnel] in tunnel?.deadlinePassed() }
        if let address = SocketAddress(numericHost: host, port: port) {
            tunnel.addressResolved(address, host: host, port: port)
        } else if proxy.scheme.proxyResolvesNames {
            tunnel.begin(target: .name(host, port: port))
        } else {
            resolver.resolve(host: host, port: port, on: channel.loop) { [tunnel] result in
                guard tunnel.completion != nil else { return }
                switch result {
                case .success(let addresses):
                    let usable = tunnel.proxy.scheme == .socks4 ? addresses.filter { !$0.isIPv6 } : addresses
                    guard let first = usable.first else {
                        return tunnel.fail(.reactor(.unknownHost("\(host) (no IPv4 address for the SOCKS4 proxy)")))
                    }
                    tunnel.addressResolved(first, host: host, port: port)
                case .failure(let error):
                    tunnel.fail(.reactor(error))
                }
            }
        }
    }

    /// Why `proxy`'s credentials cannot be sent, or nil when they can.
    private static func unsendableCredentials(_ proxy: ProxyConfiguration) -> String? {
        guard let credentials = proxy.credentials else { return nil }
        switch proxy.scheme {
        case .socks5, .socks5h:
            let limit = SOCKSHandshake.maximumFieldLength
            guard credentials.username.utf8.count <= limit, credentials.password.utf8.count <= limit else {
                return "SOCKS5 proxy \(proxy.authority): a user name and password are at most \(limit) bytes each"
            }
        case .socks4, .socks4a:
            guard !credentials.username.utf8.contains(0) else {
                return "SOCKS4 proxy \(proxy.authority): a user id cannot hold NUL"
            }
        case .http, .https:
            break
        }
        return nil
    }

    /// Starts the handshake for `address` (`host` resolved, or written as an address).
    private func addressResolved(_ address: SocketAddress, host: String, port: UInt16) {
        switch address {
        case .ipv4(let bytes, _): begin(target: .ipv4(bytes, port: port))
        case .ipv6(let bytes, _, _) where proxy.scheme == .socks5 || proxy.scheme == .socks5h:
            begin(target: .ipv6(bytes, port: port))
        case .ipv6, .unix:
            fail(.reactor(.invalidAddress("SOCKS4 proxy \(proxy.authority) cannot reach \(host): SOCKS4 has no IPv6")))
        }
    }

    /// Checks `target`, starts the channel and writes the first request.
    private func begin(target: SOCKSHandshake.Target) {
        if case .name(let name, _) = target,
            !(1...SOCKSHandshake.maximumFieldLength).contains(name.utf8.count) || name.utf8.contains(0)
        {
            return fail(.reactor(.invalidAddress("SOCKS proxy \(proxy.authority) cannot be sent the name \(name)")))
        }
        let version: SOCKSHandshake.Version = proxy.scheme == .socks4 || proxy.scheme == .socks4a ? .socks4 : .socks5
        var machine = SOCKSHandshake(version: version, target: target, credentials: proxy.credentials)
        let first = machine.start()
        self.machine = machine
        channel.start(delegate: self)
        guard completion != nil else { return }  // closed at once: already reported
        perform(first)
    }

    // MARK: - Channel events

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
        guard completion != nil, var machine else { return }
        var received: [UInt8] = []
        received.reserveCapacity(bytes.count)
        for index in bytes.indices { received.append(bytes[index]) }
        let action = machine.bytesReceived(received)
        self.machine = machine
        perform(action)
    }

    func channelReadEOF(_ channel: Channel) {
        closed()
    }

    func channelClosed(_ channel: Channel, error: ReactorError?) {
        closed()
    }

    // MARK: - Actions

    private func perform(_ action: SOCKSHandshake.Action) {
        switch action {
        case .write(let bytes):
            do {
                try channel.write(bytes)
            } catch {
                fail(.reactor(error))
            }
        case .needMoreBytes:
            break
        case .tunnelOpened:
            succeed()
        case .fail(let failure):
            fail(.proxy(.socks(proxy: proxy.authority, failure)))
        }
    }

    private func closed() {
        guard completion != nil, var machine else { return }
        let action = machine.connectionClosed()
        self.machine = machine
        perform(action)
    }

    private func deadlinePassed() {
        fail(.proxy(.timedOut(proxy: proxy.authority, after: .now() - started)))
    }

    private func succeed() {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        channel.detachDelegate()
        completion(.success(channel))
    }

    /// Reports `error` unless an outcome was reported already, and closes the channel.
    private func fail(_ error: StreamChannelError) {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        channel.close()
        completion(.failure(error))
    }
}
