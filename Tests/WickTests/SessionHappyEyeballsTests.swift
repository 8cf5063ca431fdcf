// Happy Eyeballs from a Session: a PerFamilyNameResolver is asked for IPv6 and IPv4 apart and the
// connect starts on the first usable answer, after the session's Resolution Delay; a plain
// NameResolver is asked once for one list.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SessionHappyEyeballsTests {
    /// Answers IPv4 with 127.0.0.1 at once and IPv6 with nothing once `releaseIPv6` is set (or
    /// after 30 s); counts the calls of each kind.
    final class SlowIPv6Directory: PerFamilyNameResolver {
        let calls = Shared<[String]>([])
        let releaseIPv6 = Shared(false)

        func addresses(forHost host: String, port: Int, family: IPAddressFamily) async throws -> [String] {
            calls.withLock { $0.append("\(family)") }
            switch family {
            case .ipv4:
                return ["127.0.0.1"]
            case .ipv6:
                let deadline = ContinuousClock.now + .seconds(30)
                while !releaseIPv6.withLock({ $0 }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                return []
            }
        }
    }

    @Test func aPerFamilyResolversIPv4AnswerIsUsedAfterTheResolutionDelayWhileIPv6IsOut() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let directory = SlowIPv6Directory()
        defer { directory.releaseIPv6.withLock { $0 = true } }
        let resolutionDelay = Duration.milliseconds(300)
        let session = makeSession {
            $0.nameResolution.resolver = directory
            $0.resolutionDelay = resolutionDelay
            $0.proxy = .none
        }
        let started = ContinuousClock.now
        let response = await session.request("http://svc.wick.test:\(server.port)/").serializingString().response
        let elapsed = ContinuousClock.now - started
        #expect(response.value == "ok")
        #expect(response.metrics?.remoteAddress == "127.0.0.1:\(server.port)")
        // The session's Resolution Delay held IPv4 back; the IPv6 answer, 30 s away, did not.
        #expect(elapsed >= resolutionDelay && elapsed < .seconds(20), "took \(elapsed)")
        #expect(directory.calls.withLock { $0 }.sorted() == ["IPv4", "IPv6"], "one call per family, none for one list")
        await session.shutdown()
    }

    /// A plain NameResolver, answering one list.
    struct OneList: NameResolver {
        func addresses(forHost host: String, port: Int) async throws -> [String] { ["127.0.0.1"] }
    }

    @Test func aPlainResolversListIsTriedWithoutTheResolutionDelay() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let session = makeSession {
            $0.nameResolution.resolver = OneList()
            $0.resolutionDelay = .seconds(60)  // would show if an IPv4-only list waited for IPv6
            $0.proxy = .none
        }
        let started = ContinuousClock.now
        let response = await session.request("http://svc.wick.test:\(server.port)/").serializingString().response
        #expect(response.value == "ok")
        #expect(ContinuousClock.now - started < .seconds(20))
        await session.shutdown()
    }

    @Test func thePerFamilyDefaultGivesOneListIPv6First() async throws {
        struct Both: PerFamilyNameResolver {
            struct Down: Error {}
            let failing: IPAddressFamily?
            func addresses(forHost host: String, port: Int, family: IPAddressFamily) async throws -> [String] {
                if family == failing { throw Down() }
                return family == .ipv6 ? ["::1"] : ["127.0.0.1", "127.0.0.2"]
            }
        }
        #expect(try await Both(failing: nil).addresses(forHost: "a", port: 1) == ["::1", "127.0.0.1", "127.0.0.2"])
        #expect(try await Both(failing: .ipv6).addresses(forHost: "a", port: 1) == ["127.0.0.1", "127.0.0.2"])
    }
}
