// Connecting over loopback: success, refusal, timeout, Unix sockets, resolution, Happy Eyeballs.
import Dispatch
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ConnectTests {
    @Test func connectsToALoopbackListenerWithNoDelayOn() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener()
        defer { listener.close() }
        let connector = Connector(resolver: group.resolver)
        let channel = try await connector.connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        defer { close(server) }
        #expect(channel.remoteAddress == listener.address)
        let noDelay = try await channel.loop.submit {
            try Syscalls.socketOption(channel.fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY)
        }
        #expect(noDelay != 0)
        try await channel.loop.submit { channel.close() }
    }

    @Test func keepAliveProbesAreConfigured() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener()
        defer { listener.close() }
        let options = ConnectOptions(
            socket: SocketOptions(keepAlive: .init(idle: .seconds(7), interval: .seconds(3), count: 4)))
        let channel = try await Connector(resolver: group.resolver, options: options).connect(
            to: listener.address, on: group.next())
        let settings = try await channel.loop.submit {
            [
                try Syscalls.socketOption(channel.fd, level: SOL_SOCKET, name: SO_KEEPALIVE),
                try Syscalls.socketOption(channel.fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPIDLE),
                try Syscalls.socketOption(channel.fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPINTVL),
                try Syscalls.socketOption(channel.fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPCNT),
            ]
        }
        #expect(settings == [1, 7, 3, 4])
        try await channel.loop.submit { channel.close() }
    }

    @Test func aClosedPortIsRefused() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let address = try TestListener.refusingAddress(.ipv4)
        await #expect(
            throws: ReactorError.connectFailed(
                host: "\(address)",
                attempts: [
                    ConnectAttemptFailure(address: address, error: .connectionRefused)
                ])
        ) {
            try await Connector(resolver: group.resolver).connect(to: address, on: group.next())
        }
    }

    @Test func aListenerWithAFullAcceptQueueTimesTheConnectOut() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try await StalledListener.make()
        defer { listener.close() }
        let options = ConnectOptions(timeout: .milliseconds(300))
        let started = Deadline.now()
        await #expect(
            throws: ReactorError.connectTimedOut(host: "\(listener.address)", timeout: .milliseconds(300), attempts: [])
        ) {
            try await Connector(resolver: group.resolver, options: options).connect(
                to: listener.address, on: group.next())
        }
        let elapsed = Deadline.now() - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(30))
    }

    @Test func unixDomainSockets() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let path = "/tmp/wick-reactor-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listenFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listenFD)
            unlink(path)
        }
        let address = SocketAddress.unix(path: path)
        let bound = try address.withSockAddr { pointer, length in bind(listenFD, pointer, length) }
        #expect(bound == 0)
        #expect(listen(listenFD, 8) == 0)
        let connector = Connector(resolver: group.resolver)
        let channel = try await connector.connect(to: address, on: group.next())
        let server = accept(listenFD, nil, nil)
        #expect(server >= 0)
        let recorder = Recorder()
        try await start(channel, recorder)
        TestSockets.writeAll(server, Array("over unix".utf8))
        #expect(await eventually { recorder.snapshot.bytes == Array("over unix".utf8) })
        close(server)
        #expect(await eventually { recorder.snapshot.eof })
        try await channel.loop.submit { channel.close() }

        await #expect(
            throws: ReactorError.connectFailed(
                host: "unix:/nonexistent/wick.sock",
                attempts: [
                    ConnectAttemptFailure(address: .unix(path: "/nonexistent/wick.sock"), error: .unixSocketUnavailable)
                ])
        ) {
            try await connector.connect(to: .unix(path: "/nonexistent/wick.sock"), on: group.next())
        }
        let tooLong = SocketAddress.unix(path: String(repeating: "x", count: SocketAddress.maximumUnixPathLength + 1))
        await #expect(throws: ReactorError.self) { try await connector.connect(to: tooLong, on: group.next()) }
    }

    @Test func numericHostsNeverReachTheResolverThreads() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let lookups = Atomic<Int>(0)
        let resolver = Resolver(threadCount: 1) { _, _, _ in
            lookups.add(1, ordering: .relaxed)
            return .failure(.unknownHost("never"))
        }
        defer { resolver.shutdown() }
        let listener = try TestListener()
        defer { listener.close() }
        let channel = try await Connector(resolver: resolver).connect(
            host: "127.0.0.1", port: listener.port, on: group.next())
        try await channel.loop.submit { channel.close() }
        let count = lookups.load(ordering: .relaxed)
        #expect(count == 0)
        #expect(SocketAddress(numericHost: "[::1]", port: 1) == SocketAddress(numericHost: "::1", port: 1))
        #expect(SocketAddress(numericHost: "localhost", port: 1) == nil)
    }

    @Test func localhostResolvesThroughTheSystemResolver() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener()
        defer { listener.close() }
        // /etc/hosts maps localhost; if it lists ::1 first, that attempt is refused and the
        // IPv4 attempt starts at once.
        let channel = try await Connector(resolver: group.resolver).connect(
            host: "localhost", port: listener.port, on: group.next())
        #expect(channel.remoteAddress == listener.address)
        try await channel.loop.submit { channel.close() }
    }

    @Test func resolutionFailuresAreReported() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let resolver = Resolver(threadCount: 1) { host, _, _ in .failure(.unknownHost(host)) }
        defer { resolver.shutdown() }
        await #expect(throws: ReactorError.unknownHost("no-such-host.test")) {
            try await Connector(resolver: resolver).connect(host: "no-such-host.test", port: 80, on: group.next())
        }
        if case .failure(let error) = Syscalls.getaddrinfo(host: "no-such-host.invalid", port: 80) {
            #expect(
                error == .unknownHost("no-such-host.invalid")
                    || { if case .resolutionFailed = error { true } else { false } }())
        } else {
            Issue.record("no-such-host.invalid resolved")
        }
    }

    @Test func aSlowResolverIsCoveredByTheConnectTimeout() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let resolver = Resolver(threadCount: 1) { _, port, _ in
            usleep(400_000)
            return .success([SocketAddress(numericHost: "127.0.0.1", port: port)!])
        }
        defer { resolver.shutdown() }
        let options = ConnectOptions(timeout: .milliseconds(100))
        await #expect(throws: ReactorError.resolutionTimedOut(host: "slow.test", timeout: .milliseconds(100))) {
            try await Connector(resolver: resolver, options: options).connect(
                host: "slow.test", port: 9, on: group.next())
        }
    }

    @Test func aCallersDeadlineEndsAStalledResolutionBeforeTheConnectTimeout() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        // The resolver answers only when the test lets it (or after 30 s): a stall of any length.
        let answer = DispatchSemaphore(value: 0)
        let resolver = Resolver(threadCount: 1) { _, port, _ in
            _ = answer.wait(timeout: .now() + 30)
            return .success([SocketAddress(numericHost: "127.0.0.1", port: port)!])
        }
        defer {
            answer.signal()  // the AAAA lookup,
            answer.signal()  // and the A lookup if it began before the shutdown
            resolver.shutdown()
        }
        let started = Deadline.now()
        do {
            _ = try await Connector(resolver: resolver, options: ConnectOptions(timeout: .seconds(60))).connect(
                host: "slow.test", port: 9, deadline: started + .milliseconds(200), on: group.next())
            Issue.record("a resolver that never answered in time let the connect through")
        } catch {
            guard case .resolutionTimedOut("slow.test", let allowed) = error else {
                Issue.record("expected the resolution to time out, got \(error)")
                return
            }
            #expect(allowed <= .milliseconds(200), "the error names the time the connect had")
        }
        let elapsed = Deadline.now() - started
        // Slack for a loaded machine, far below the 60 s limit and the resolver's 30 s.
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(20), "the deadline, not the 60 s limit: \(elapsed)")
    }

    @Test func aCallersDeadlineEndsAStalledConnectBeforeTheConnectTimeout() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try await StalledListener.make()
        defer { listener.close() }
        let started = Deadline.now()
        do {
            _ = try await Connector(resolver: group.resolver, options: ConnectOptions(timeout: .seconds(60))).connect(
                to: listener.address, deadline: started + .milliseconds(200), on: group.next())
            Issue.record("a full accept queue let the connect through")
        } catch {
            guard case .connectTimedOut = error else {
                Issue.record("expected the connect to time out, got \(error)")
                return
            }
        }
        let elapsed = Deadline.now() - started
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(20), "the deadline, not the 60 s limit: \(elapsed)")
    }

    // MARK: Happy Eyeballs over loopback

    /// A connector whose resolver answers `addresses` for any name, in that order (each family's
    /// lookup the addresses of its family).
    private func connector(
        _ group: EventLoopGroup, answering addresses: [SocketAddress], options: ConnectOptions = ConnectOptions()
    ) -> (Connector, Resolver) {
        let resolver = Resolver(threadCount: 1) { _, _, family in
            switch family {
            case .any: .success(addresses)
            case .ipv6: .success(addresses.filter(\.isIPv6))
            case .ipv4: .success(addresses.filter { !$0.isIPv6 })
            }
        }
        return (Connector(resolver: resolver, options: options), resolver)
    }

    @Test(.enabled(if: TestListener.hasIPv6Loopback, "::1 is not available on this machine"))
    func refusingIPv6FallsBackToIPv4AtOnce() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        let v6 = try TestListener.refusingAddress(.ipv6)
        // A 60 s attempt delay: finishing well before it proves the refusal started IPv4 at once
        // (the margin is wide because a loaded 2-core CI machine has been seen to take 5.7 s).
        let options = ConnectOptions(timeout: .seconds(90), connectionAttemptDelay: .seconds(60))
        let (connector, resolver) = connector(group, answering: [v6, v4.address], options: options)
        defer { resolver.shutdown() }
        let started = Deadline.now()
        let channel = try await connector.connect(host: "dual.test", port: 0, on: group.next())
        #expect(channel.remoteAddress == v4.address)
        #expect(Deadline.now() - started < .seconds(30), "a refused attempt starts the next without the attempt delay")
        try await channel.loop.submit { channel.close() }
    }

    @Test(.enabled(if: TestListener.hasIPv6Loopback, "::1 is not available on this machine"))
    func stallingIPv6LosesToIPv4AfterTheAttemptDelay() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        let v6 = try TestListener(.ipv6, backlog: 0)
        defer { v6.close() }
        let fillers = (0..<3).map { _ in TestSockets.connectNonBlocking(v6.address) }
        defer { for fd in fillers { close(fd) } }
        try await Task.sleep(for: .milliseconds(50))
        let (connector, resolver) = connector(group, answering: [v6.address, v4.address])
        defer { resolver.shutdown() }
        let started = Deadline.now()
        let channel = try await connector.connect(host: "dual.test", port: 0, on: group.next())
        let elapsed = Deadline.now() - started
        #expect(channel.remoteAddress == v4.address)
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(30), "took \(elapsed)")
        // The losing IPv6 attempt was closed: only the winner stays registered.
        #expect(try await channel.loop.submit { channel.loop.registrationCount } == 1)
        try await channel.loop.submit { channel.close() }
    }

    @Test(.enabled(if: TestListener.hasIPv6Loopback, "::1 is not available on this machine"))
    func whenBothFamiliesRefuseEveryAttemptIsReported() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v6 = try TestListener.refusingAddress(.ipv6)
        let v4 = try TestListener.refusingAddress(.ipv4)
        let (connector, resolver) = connector(group, answering: [v6, v4])
        defer { resolver.shutdown() }
        await #expect(
            throws: ReactorError.connectFailed(
                host: "dual.test",
                attempts: [
                    ConnectAttemptFailure(address: v6, error: .connectionRefused),
                    ConnectAttemptFailure(address: v4, error: .connectionRefused),
                ])
        ) {
            try await connector.connect(host: "dual.test", port: 0, on: group.next())
        }
    }

    @Test func whenEveryAddressStallsTheTimeoutCoversAllAttempts() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let first = try TestListener(backlog: 0)
        let second = try TestListener(backlog: 0)
        defer {
            first.close()
            second.close()
        }
        let fillers = (0..<3).flatMap { _ in
            [TestSockets.connectNonBlocking(first.address), TestSockets.connectNonBlocking(second.address)]
        }
        defer { for fd in fillers { close(fd) } }
        try await Task.sleep(for: .milliseconds(50))
        let options = ConnectOptions(timeout: .milliseconds(400), connectionAttemptDelay: .milliseconds(100))
        let (connector, resolver) = connector(group, answering: [first.address, second.address], options: options)
        defer { resolver.shutdown() }
        let started = Deadline.now()
        await #expect(
            throws: ReactorError.connectTimedOut(host: "stall.test", timeout: .milliseconds(400), attempts: [])
        ) {
            try await connector.connect(host: "stall.test", port: 0, on: group.next())
        }
        #expect(Deadline.now() - started < .seconds(30), "the overall timeout fired")
        #expect(
            try await group.loops[0].submit { group.loops[0].registrationCount } == 0, "abandoned attempts are closed")
    }

    @Test func shutdownFailsConnectsInFlight() async throws {
        let group = try makeGroup()
        let listener = try await StalledListener.make()
        defer { listener.close() }
        let result = Locked<Result<Channel, ReactorError>?>(nil)
        Connector(resolver: group.resolver).connect(to: listener.address, on: group.next()) { outcome in
            result.withLock { $0 = outcome }
        }
        try await Task.sleep(for: .milliseconds(50))
        group.shutdownGracefully()
        let failedWithShutdown = result.withLock { outcome -> Bool in
            if case .failure(.loopShutDown) = outcome { return true }
            return false
        }
        #expect(failedWithShutdown)
    }
}
