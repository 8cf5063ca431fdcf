// SessionResolver: `--resolve` overrides answer first, then the user's NameResolver (its answers,
// refusals and garbage each reported), then the system resolver; IP literals never reach the user's.
import Synchronization
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
        let calls = Mutex(0)

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
}
