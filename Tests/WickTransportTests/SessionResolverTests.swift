// SessionResolver: `--resolve` overrides answer first, then the user's NameResolver (its answers,
// refusals and garbage each reported), then the system resolver; IP literals never reach the user's.
import Testing
import WickReactor

@testable import WickTransport

@Suite struct SessionResolverTests {
    /// A resolver with a fixed answer per host that counts its calls.
    final class TableResolver: NameResolver {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "registry says no" }
        }

        let table: [String: [String]]
        let calls = Locked(0)

        init(_ table: [String: [String]]) { self.table = table }

        func addresses(forHost host: String, port: Int) async throws -> [String] {
            calls.withLock { $0 += 1 }
            guard let answer = table[host] else { throw Refused() }
            return answer
        }
    }

    static func resolve(
        _ resolver: SessionResolver, _ host: String, port: UInt16 = 8080
    ) async throws -> Result<[SocketAddress], ReactorError> {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let loop = group.next()
        return await withCheckedContinuation { continuation in
            resolver.resolve(host: host, port: port, on: loop) { result in
                #expect(loop.inEventLoop, "the answer is delivered on the requesting loop")
                continuation.resume(returning: result)
            }
        }
    }

    static func addresses(_ literals: [String], port: UInt16 = 8080) -> [SocketAddress] {
        literals.compactMap { SocketAddress(numericHost: $0, port: port) }
    }

    @Test func anOverrideAnswersForItsHostAndPortOnly() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let custom = TableResolver(["svc.test": ["10.1.1.1"]])
        let resolution = NameResolution(
            resolveOverrides: [
                try ResolveOverride(curlArgument: "svc.test:8080:127.0.0.2,[::1]"),
                try ResolveOverride(curlArgument: "svc.test:8080:127.0.0.3"),
            ],
            resolver: custom)
        let resolver = SessionResolver(resolution: resolution, system: group.resolver)
        #expect(try await Self.resolve(resolver, "SVC.test").get() == Self.addresses(["127.0.0.2", "::1"]))
        #expect(custom.calls.withLock { $0 } == 0)
        // Another port is not overridden: the user's resolver answers.
        #expect(
            try await Self.resolve(resolver, "svc.test", port: 9090).get() == Self.addresses(["10.1.1.1"], port: 9090))
        #expect(custom.calls.withLock { $0 } == 1)
    }

    @Test func theUsersResolverAnswersAndEachFaultIsNamed() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let custom = TableResolver([
            "two.test": ["127.0.0.1", "[::1]"], "none.test": [], "bad.test": ["127.0.0.1", "backend.internal"],
        ])
        let resolver = SessionResolver(resolution: NameResolution(resolver: custom), system: group.resolver)
        #expect(try await Self.resolve(resolver, "two.test").get() == Self.addresses(["127.0.0.1", "::1"]))
        #expect(try await Self.resolve(resolver, "none.test") == .failure(.unknownHost("none.test")))
        #expect(
            try await Self.resolve(resolver, "bad.test")
                == .failure(
                    .resolutionFailed(
                        host: "bad.test", reason: "TableResolver answered 'backend.internal', not an IP address")))
        #expect(
            try await Self.resolve(resolver, "gone.test")
                == .failure(.resolutionFailed(host: "gone.test", reason: "TableResolver: registry says no")))
        // An IP literal is never a name to look up.
        let before = custom.calls.withLock { $0 }
        #expect(try await Self.resolve(resolver, "127.0.0.9").get() == Self.addresses(["127.0.0.9"]))
        #expect(custom.calls.withLock { $0 } == before)
    }

    @Test func withoutAUserResolverOtherNamesGoToTheSystem() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let resolution = NameResolution(resolveOverrides: [try ResolveOverride(curlArgument: "a.test:1:127.0.0.5")])
        let resolver = SessionResolver(resolution: resolution, system: group.resolver)
        let localhost = try await Self.resolve(resolver, "localhost").get()
        #expect(!localhost.isEmpty && localhost.allSatisfy { $0.description.contains("127.0.0.1") || $0.isIPv6 })
        guard case .failure(.unknownHost) = try await Self.resolve(resolver, "no-such-host.invalid") else {
            Issue.record("an unknown name is unknownHost")
            return
        }
    }

    // MARK: By family (Happy Eyeballs)

    /// A per-family resolver with a fixed answer per family, or a refusal.
    struct FamilyTable: PerFamilyNameResolver {
        struct Down: Error, CustomStringConvertible {
            var description: String { "resolver down" }
        }

        let ipv6: [String]?
        let ipv4: [String]?

        func addresses(forHost host: String, port: Int, family: IPAddressFamily) async throws -> [String] {
            guard let answer = family == .ipv6 ? ipv6 : ipv4 else { throw Down() }
            return answer
        }
    }

    /// Every answer `resolveByFamily` gives, once it has given `count`.
    static func answers(
        _ resolver: SessionResolver, _ host: String, count: Int, port: UInt16 = 8080
    ) async throws -> [ResolverAnswer] {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let loop = group.next()
        // `Locked`, not `Mutex`: ThreadSanitizer cannot see a `Mutex`'s synchronisation on Linux
        // (futexes in the runtime) and reported the answers' accesses as a race in CI's TSan
        // runs, first with the `Mutex` in the closure, then with it in a class.
        let received = ReceivedAnswers()
        resolver.resolveByFamily(host: host, port: port, on: loop) { answer in
            #expect(loop.inEventLoop, "each answer is delivered on the requesting loop")
            received.answers.withLock { $0.append(answer) }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while received.answers.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        return received.answers.withLock { $0 }
    }

    /// The answers `answers(_:_:count:port:)` has received so far.
    final class ReceivedAnswers: Sendable {
        let answers = Locked<[ResolverAnswer]>([])
    }

    @Test func overridesAndAPlainResolverAnswerOneListInTheirOrder() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let resolution = NameResolution(
            resolveOverrides: [try ResolveOverride(curlArgument: "pinned.test:8080:127.0.0.2,[::1]")],
            resolver: TableResolver(["svc.test": ["127.0.0.1", "::1"]]))
        let resolver = SessionResolver(resolution: resolution, system: group.resolver)
        #expect(
            try await Self.answers(resolver, "pinned.test", count: 1) == [
                .all(.success(Self.addresses(["127.0.0.2", "::1"])))
            ])
        #expect(
            try await Self.answers(resolver, "svc.test", count: 1) == [
                .all(.success(Self.addresses(["127.0.0.1", "::1"])))
            ])
    }

    @Test func aPerFamilyResolverAnswersEachFamilyApart() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        func answers(_ table: FamilyTable) async throws -> (ipv6: ResolverAnswer?, ipv4: ResolverAnswer?) {
            let resolver = SessionResolver(resolution: NameResolution(resolver: table), system: group.resolver)
            let all = try await Self.answers(resolver, "svc.test", count: 2)
            #expect(all.count == 2)
            return (
                all.first { if case .ipv6 = $0 { true } else { false } },
                all.first { if case .ipv4 = $0 { true } else { false } }
            )
        }
        let both = try await answers(FamilyTable(ipv6: ["[::1]"], ipv4: ["127.0.0.1"]))
        #expect(both.ipv6 == .ipv6(.success(Self.addresses(["::1"]))))
        #expect(both.ipv4 == .ipv4(.success(Self.addresses(["127.0.0.1"]))))
        // A family with nothing is an empty answer; a refusal and an address of the other family
        // are failures naming the resolver and the family.
        let faulty = try await answers(FamilyTable(ipv6: ["127.0.0.3"], ipv4: nil))
        #expect(
            faulty.ipv6
                == .ipv6(
                    .failure(
                        .resolutionFailed(
                            host: "svc.test", reason: "FamilyTable answered '127.0.0.3' for IPv6, another family"))))
        #expect(
            faulty.ipv4
                == .ipv4(.failure(.resolutionFailed(host: "svc.test", reason: "FamilyTable (IPv4): resolver down"))))
        let none = try await answers(FamilyTable(ipv6: [], ipv4: ["127.0.0.1"]))
        #expect(none.ipv6 == .ipv6(.success([])))
    }

    @Test func withoutAUserResolverTheSystemLooksEachFamilyUp() async throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let resolution = NameResolution(resolveOverrides: [try ResolveOverride(curlArgument: "a.test:1:127.0.0.5")])
        let resolver = SessionResolver(resolution: resolution, system: group.resolver)
        // /etc/hosts lists localhost: one lookup for both families, as getaddrinfo means it.
        let localhost = try await Self.answers(resolver, "localhost", count: 1)
        guard case .all(.success(let addresses)) = localhost.first else {
            Issue.record("localhost: \(localhost)")
            return
        }
        #expect(addresses.contains(Self.addresses(["127.0.0.1"])[0]))
        // A name it does not list: the AAAA and A lookups, each answering.
        let unknown = try await Self.answers(resolver, "no-such-host.invalid", count: 2)
        #expect(unknown.count == 2, "\(unknown)")
        #expect(unknown.contains { if case .ipv6(.failure) = $0 { true } else { false } })
        #expect(unknown.contains { if case .ipv4(.failure) = $0 { true } else { false } })
    }
}
