// The hosts-file check that keeps names /etc/hosts lists on one getaddrinfo call for both
// families, and the resolver's use of it.
import Synchronization
import Testing
import WickCore

@testable import WickReactor

@Suite struct HostsFileTests {
    private let text = Array(
        """
        # a comment naming commented.test
        127.0.0.1\tlocalhost runsc
        10.0.0.5   Pinned.Test  alias.test   # trailing comment.test
        ::1 ip6-localhost\r
        """.utf8)

    @Test(arguments: [
        "localhost", "runsc", "pinned.test", "PINNED.test", "alias.test", "pinned.test.", "ip6-localhost",
    ])
    func listedNames(_ host: String) {
        #expect(HostsFile.lists(host, in: text))
    }

    @Test(arguments: ["commented.test", "comment.test", "127.0.0.1", "10.0.0.5", "pinned", "local", "", "."])
    func namesNotListed(_ host: String) {
        #expect(!HostsFile.lists(host, in: text), "an address, a comment or a prefix is not a listed name")
    }

    @Test func aMissingFileListsNothing() {
        #expect(!HostsFile(path: "/nonexistent/wick-hosts").lists("localhost"))
    }

    @Test func aNameTheHostsFileListsIsLookedUpOnceForBothFamilies() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let families = Locked<[String: [Resolver.Family]]>([:])
        let resolver = Resolver(
            threadCount: 2,
            lookup: { host, port, family in
                families.withLock { $0[host, default: []].append(family) }
                return .success([SocketAddress(numericHost: "127.0.0.1", port: port)!])
            }, listedInHosts: { $0 == "pinned.test" })
        defer { resolver.shutdown() }
        let loop = group.next()
        func answers(_ host: String, count: Int) async -> [ResolverAnswer] {
            let received = Locked<[ResolverAnswer]>([])
            resolver.resolveByFamily(host: host, port: 80, on: loop) { answer in received.withLock { $0.append(answer) }
            }
            _ = await eventually(timeout: .seconds(10)) { received.withLock { $0.count } >= count }
            return received.withLock { $0 }
        }
        let local = [SocketAddress(numericHost: "127.0.0.1", port: 80)!]
        #expect(await answers("pinned.test", count: 1) == [.all(.success(local))])
        #expect(families.withLock { $0["pinned.test"] } == [.any])
        let apart = await answers("dns.test", count: 2)
        #expect(apart.count == 2 && apart.contains(.ipv6(.success(local))) && apart.contains(.ipv4(.success(local))))
        #expect(Set(families.withLock { $0["dns.test"] ?? [] }) == [.ipv6, .ipv4])
    }
}
