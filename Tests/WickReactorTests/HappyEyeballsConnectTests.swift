// Happy Eyeballs through the real reactor: a resolver the test answers family by family, at times
// it chooses, and loopback listeners on 127.0.0.1 and ::1 (one of them stalled by a full accept
// queue). The state machine's tests pin every timing rule exactly; these show the runner keeps
// them with real timers and sockets, within bounds wide enough for a loaded machine.
import Dispatch
import Synchronization
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// A `HostResolving` that answers each family only when the test releases it.
final class ControlledResolver: HostResolving {
    private let asked = Locked<(loop: EventLoop, answer: @Sendable (ResolverAnswer) -> Void)?>(nil)

    func resolve(
        host: String, port: UInt16, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<[SocketAddress], ReactorError>) -> Void
    ) {
        loop.execute { completion(.failure(.resolutionFailed(host: host, reason: "answers by family only"))) }
    }

    func resolveByFamily(
        host: String, port: UInt16, on loop: EventLoop, _ answer: @escaping @Sendable (ResolverAnswer) -> Void
    ) {
        asked.withLock { $0 = (loop, answer) }
    }

    /// Delivers `answer` on the asking loop once the connector has asked (waiting up to 10 s);
    /// returns when it was handed to the loop.
    @discardableResult
    func release(_ answer: ResolverAnswer) async throws -> Deadline {
        #expect(await eventually(timeout: .seconds(10)) { asked.withLock { $0 != nil } }, "the connector never asked")
        let (loop, deliver) = try #require(asked.withLock { $0 })
        let released = Deadline.now()
        #expect(loop.execute { deliver(answer) })
        return released
    }
}

@Suite(.enabled(if: TestListener.hasIPv6Loopback, "::1 is not available on this machine"))
struct HappyEyeballsConnectTests {
    /// Connects to `dual.test` through `resolver` in a task, so the test can answer meanwhile.
    private func connecting(
        _ group: EventLoopGroup, _ resolver: ControlledResolver, options: ConnectOptions
    ) -> Task<Channel, any Error> {
        let loop = group.next()
        return Task {
            try await Connector(resolver: resolver, options: options).connect(host: "dual.test", port: 0, on: loop)
        }
    }

    /// A ::1 listener whose accept queue is full, so a connect to it neither succeeds nor fails:
    /// a blackholed address.
    private func stalledIPv6() async throws -> (TestListener, [Int32]) {
        let listener = try TestListener(.ipv6, backlog: 0)
        let fillers = (0..<3).map { _ in TestSockets.connectNonBlocking(listener.address) }
        try await Task.sleep(for: .milliseconds(50))
        return (listener, fillers)
    }

    @Test func anAAAAAnswerFirstConnectsOverIPv6WithoutWaitingForTheAAnswer() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v6 = try TestListener(.ipv6)
        defer { v6.close() }
        let resolver = ControlledResolver()
        // The A answer never comes; a 60 s Resolution Delay would show if anything waited for it.
        let task = connecting(group, resolver, options: ConnectOptions(resolutionDelay: .seconds(60)))
        let released = try await resolver.release(.ipv6(.success([v6.address])))
        let channel = try await task.value
        #expect(channel.remoteAddress == v6.address)
        #expect(Deadline.now() - released < .seconds(20))
        try await channel.loop.submit { channel.close() }
    }

    @Test func anAAnswerFirstWaitsTheResolutionDelayForIPv6() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        let resolver = ControlledResolver()
        let delay = Duration.milliseconds(300)
        let task = connecting(group, resolver, options: ConnectOptions(resolutionDelay: delay))
        let released = try await resolver.release(.ipv4(.success([v4.address])))
        let channel = try await task.value
        let elapsed = Deadline.now() - released
        #expect(channel.remoteAddress == v4.address)
        #expect(elapsed >= delay && elapsed < .seconds(20), "IPv4 waited the Resolution Delay: \(elapsed)")
        try await channel.loop.submit { channel.close() }
    }

    @Test func anAAAAAnswerWithinTheResolutionDelayGoesFirst() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        let v6 = try TestListener(.ipv6)
        defer {
            v4.close()
            v6.close()
        }
        let resolver = ControlledResolver()
        // A 60 s Resolution Delay: the AAAA answer comes well inside it, and ends it.
        let task = connecting(group, resolver, options: ConnectOptions(resolutionDelay: .seconds(60)))
        let released = try await resolver.release(.ipv4(.success([v4.address])))
        try await Task.sleep(for: .milliseconds(20))
        try await resolver.release(.ipv6(.success([v6.address])))
        let channel = try await task.value
        #expect(channel.remoteAddress == v6.address, "IPv6 was tried first")
        #expect(Deadline.now() - released < .seconds(20))
        // Only the winner is registered: no IPv4 attempt was started.
        #expect(try await channel.loop.submit { channel.loop.registrationCount } == 1)
        try await channel.loop.submit { channel.close() }
    }

    @Test func anAAAAAnswerAfterTheResolutionDelayJoinsTheRunningRace() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let stalled = try await StalledListener.make()  // 127.0.0.1: the IPv4 attempt hangs
        defer { stalled.close() }
        let v6 = try TestListener(.ipv6)
        defer { v6.close() }
        let resolver = ControlledResolver()
        let (resolutionDelay, attemptDelay) = (Duration.milliseconds(50), Duration.milliseconds(300))
        let options = ConnectOptions(connectionAttemptDelay: attemptDelay, resolutionDelay: resolutionDelay)
        let task = connecting(group, resolver, options: options)
        let released = try await resolver.release(.ipv4(.success([stalled.address])))
        // The IPv4 attempt starts after the Resolution Delay; the AAAA answer comes after that.
        let loop = group.loops[0]
        var attempting = false
        for _ in 0..<10_000 where !attempting {
            attempting = try await loop.submit { loop.registrationCount } == 1
            if !attempting { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(attempting, "the IPv4 attempt started")
        try await resolver.release(.ipv6(.success([v6.address])))
        let channel = try await task.value
        let elapsed = Deadline.now() - released
        #expect(channel.remoteAddress == v6.address)
        // IPv6 starts one Connection Attempt Delay after the IPv4 attempt started.
        #expect(elapsed >= resolutionDelay + attemptDelay && elapsed < .seconds(20), "took \(elapsed)")
        #expect(try await channel.loop.submit { channel.loop.registrationCount } == 1, "the IPv4 attempt was closed")
        try await channel.loop.submit { channel.close() }
    }

    @Test func aBlackholedIPv6AddressLosesToIPv4AfterTheConfiguredAttemptDelay() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let (v6, fillers) = try await stalledIPv6()
        defer {
            for fd in fillers { close(fd) }
            v6.close()
        }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        let resolver = ControlledResolver()
        let attemptDelay = Duration.milliseconds(400)
        let task = connecting(group, resolver, options: ConnectOptions(connectionAttemptDelay: attemptDelay))
        let released = try await resolver.release(.ipv6(.success([v6.address])))
        try await resolver.release(.ipv4(.success([v4.address])))
        let channel = try await task.value
        let elapsed = Deadline.now() - released
        #expect(channel.remoteAddress == v4.address)
        #expect(elapsed >= attemptDelay && elapsed < .seconds(20), "took \(elapsed)")
        #expect(try await channel.loop.submit { channel.loop.registrationCount } == 1, "the IPv6 attempt was closed")
        try await channel.loop.submit { channel.close() }
    }

    @Test func whenOneFamilyFailsToResolveTheOtherIsUsedAtOnce() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        let resolver = ControlledResolver()
        // The AAAA failure ends the wait: a 60 s Resolution Delay is never reached.
        let task = connecting(group, resolver, options: ConnectOptions(resolutionDelay: .seconds(60)))
        try await resolver.release(.ipv4(.success([v4.address])))
        let released = try await resolver.release(
            .ipv6(.failure(.resolutionFailed(host: "dual.test", reason: "SERVFAIL"))))
        let channel = try await task.value
        #expect(channel.remoteAddress == v4.address)
        #expect(Deadline.now() - released < .seconds(20))
        try await channel.loop.submit { channel.close() }
    }

    @Test func whenBothFamiliesFailToResolveTheConnectFails() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let resolver = ControlledResolver()
        let task = connecting(group, resolver, options: ConnectOptions())
        try await resolver.release(.ipv6(.success([])))
        try await resolver.release(.ipv4(.failure(.unknownHost("dual.test"))))
        await #expect(throws: ReactorError.unknownHost("dual.test")) { try await task.value }
    }

    @Test func theSystemResolverRunsTheAAAAAndALookupsAtOnce() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let v4 = try TestListener(.ipv4)
        defer { v4.close() }
        // The AAAA lookup returns only once the A lookup has begun (or after 10 s): it can finish
        // quickly only if the two run on two threads at once.
        let aLookupBegan = DispatchSemaphore(value: 0)
        let families = Locked<[Resolver.Family]>([])
        let resolver = Resolver(threadCount: 2) { host, _, family in
            families.withLock { $0.append(family) }
            switch family {
            case .ipv6:
                let overlapped = aLookupBegan.wait(timeout: .now() + 10) == .success
                return overlapped
                    ? .failure(.unknownHost(host)) : .failure(.resolutionFailed(host: host, reason: "serial"))
            case .ipv4:
                aLookupBegan.signal()
                return .success([v4.address])
            case .any:
                return .failure(.resolutionFailed(host: host, reason: "asked for one list"))
            }
        }
        defer { resolver.shutdown() }
        let started = Deadline.now()
        let channel = try await Connector(resolver: resolver).connect(
            host: "dual.test", port: v4.port, on: group.next())
        #expect(channel.remoteAddress == v4.address)
        #expect(Deadline.now() - started < .seconds(8), "the lookups overlapped")
        #expect(families.withLock { $0 }.sorted { "\($0)" < "\($1)" } == [.ipv4, .ipv6])
        try await channel.loop.submit { channel.close() }
    }
}
